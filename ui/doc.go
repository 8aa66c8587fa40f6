// Package ui is tend's terminal interface: one Bubble Tea v2 root [Model]
// that shows every job behind a [Backend] (a job list, the selected job's
// live screen or output, a status bar and help), the Activity view of MCP
// tool calls and the Approvals view, and lets a person attach to a job,
// background, signal or kill it, answer held commands, and start shells and
// commands of their own.
//
// The root model routes messages and lays out; its children own their
// state behind methods: the pane (the selected job's body: fetch, update,
// scroll, search, copy mode, view), the approvals and the activity record.
//
// Data path (docs/ARCHITECTURE.md §3.2): lifecycle events come losslessly
// from the backend's subscription; output only rings its doorbell, which
// [Pump] turns into at most one screenDirtyMsg per frame, always including
// the trailing frame. Update never does I/O: reading a job's output or
// screen, and writing what a person types into it, happen in commands whose
// results come back as messages, and View only joins strings that Update has
// cached. Keys sent to a job are encoded by vterm, as the MCP tools' are.
//
// Together with main, ui is the only importer of Bubble Tea. Nothing imports
// ui but main.
package ui
