// Package mcpserver serves tend's tools to MCP clients with the official
// go-sdk: terminal_exec, the terminal_job_* tools, terminal_output_get, the
// terminal_pty_* shell tools and the search tools (terminal_rg,
// terminal_glob, through package search).
//
// It owns the wire: every tool's input and output struct, with its JSON
// schema, is defined here, and the handlers turn them into calls on the
// narrow [Engine] interface (an *engine.Engine satisfies it) and back. The
// engine's errors say what is wrong; the handlers add what an agent can do
// about it, in the tools' terms, in one place.
//
// It records who calls (the client's name and version, its session and the
// tool) as each job's origin, and every call in [Activity]. Transports:
// Streamable HTTP on loopback with a bearer token ([Server.HTTPHandler]), a
// unix socket for peers of our uid ([Server.ServeSocket]), and
// [GuardedTransport], a stdio transport that answers a malformed JSON-RPC
// line instead of ending the session; [Bridge] copies an agent's stdio to a
// serving tend's socket.
//
// It imports engine, vterm, policy and search; only main and internal/app
// import it.
package mcpserver
