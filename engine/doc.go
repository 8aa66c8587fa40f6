// Package engine runs the jobs of tend: foreground execs that turn into
// background jobs after a budget, background jobs, and (later) PTY sessions.
//
// Every job runs in its own session and process group, with stdin from the
// call or /dev/null, and its output written to a log file on disk and a 1 MiB
// in-memory ring per stream with absolute byte offsets; reads older than the
// ring come from the log, so no byte is lost however much a job prints. The
// engine is a child subreaper: killing a job ends its whole tree, including
// descendants that left its session, and [Engine.Close] ends every job.
//
// Lifecycle changes are published losslessly through [Engine.Subscribe];
// output only rings the [Engine.Ready] doorbell.
//
// The engine imports policy (to classify commands) and, for PTY jobs, vterm.
// It never imports ui, mcpserver or Bubble Tea.
package engine
