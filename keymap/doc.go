// Package keymap holds tend's key bindings and their help, as data: one
// struct per group of keys that are active together, each implementing the
// help.KeyMap interface of bubbles (ShortHelp and FullHelp). The UI matches
// key presses against these bindings; nothing else names a key.
//
// While a job has the keyboard (attached), every key goes to the job except
// [Term.Detach] (ctrl+b): ctrl+c belongs to the job there.
//
// Only ui and main import it.
package keymap
