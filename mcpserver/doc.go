// Package mcpserver serves tend's tools to MCP clients with the official
// go-sdk: terminal_exec, the terminal_job_* tools, terminal_output_get and
// the search tools, each a thin layer over the engine. It records who calls
// (the client's name and version, its session and the tool) as each job's
// origin, and offers [GuardedTransport], a stdio transport that answers a
// malformed JSON-RPC line instead of ending the session.
//
// It imports engine (and later vterm and policy); only main imports it.
package mcpserver
