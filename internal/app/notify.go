package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"syscall"
	"time"
)

// notifyTimeout bounds the [notify] command: a hung notifier is killed.
const notifyTimeout = 10 * time.Second

// Notify runs the config's [notify] command, if any, for an event the
// person should see (kind "approval" or "input"): the command with the
// title and body added as arguments, the event as JSON on its stdin. It
// returns at once; the command runs in its own process group, is killed
// after notifyTimeout, and what it prints is logged at debug level.
func (a *App) Notify(kind, title, body string) {
	if len(a.notify) == 0 {
		return
	}
	event, _ := json.Marshal(struct {
		Event string    `json:"event"`
		Title string    `json:"title"`
		Body  string    `json:"body"`
		Time  time.Time `json:"time"`
	}{kind, title, body, time.Now()})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, a.notify[0], append(a.notify[1:len(a.notify):len(a.notify)], title, body)...)
		cmd.Stdin = bytes.NewReader(event)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = time.Second // a child of its that holds the pipe open is not waited for
		out, err := cmd.CombinedOutput()
		if err != nil {
			a.logger.Warn("the notify command failed", "command", a.notify, "err", err, "output", string(out))
			return
		}
		a.logger.Debug("notified", "command", a.notify, "event", kind, "output", string(out))
	}()
}
