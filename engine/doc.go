// Package engine runs the jobs of tend: foreground execs that become
// background jobs after a budget, background jobs, jobs on a
// pseudo-terminal, and persistent shells.
//
// Every job runs in its own session and process group, with stdin from the
// call, a terminal, or /dev/null, and its output written to a log file on
// disk and a 1 MiB in-memory ring per stream with absolute byte offsets;
// reads older than the ring come from the log, so no byte is lost however
// much a job prints. A read of the merged stream says which bytes came from
// stdout and which from stderr ([Chunk.Spans]). A PTY job's screen and
// scrollback are kept by a [vterm.Term] the engine feeds while someone
// looks. The engine is a child subreaper: [Job.Kill] ends a job's whole
// tree, including descendants that left its session, and [Engine.Close]
// ends every job.
//
// Before a command runs, the [Gate] the caller configured may warn, refuse
// it, or hold it for a person. Lifecycle changes are published losslessly
// through [Engine.Subscribe]; output only rings the [Engine.Ready] doorbell.
//
// The engine's values are typed ([Status], [Stream], [Origin]) and carry
// no wire format; its errors say what is wrong without naming any MCP tool.
// It imports only vterm of tend's packages; mcpserver, ui and internal/app
// import it.
package engine
