// Package ui is tend's terminal interface: one Bubble Tea v2 root [Model]
// that shows every job of the engine (a job list, the selected job's live
// screen or output, a status bar and help) and the Activity view of MCP tool
// calls, and lets a person attach to a job, background, signal or kill it,
// and start shells and commands of their own.
//
// Data path (STYLE §1): lifecycle events come losslessly from the engine's
// subscription; output only rings the engine's doorbell, which [Pump] turns
// into at most one screenDirtyMsg per frame, always including the trailing
// frame. Update never does I/O: reading a job's output or screen happens in
// commands whose results come back as messages, and View only joins strings
// that Update has cached.
//
// Together with main, ui is the only importer of Bubble Tea. Nothing imports
// ui but main.
package ui
