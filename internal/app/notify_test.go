package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tend/internal/config"
	"tend/internal/testkit"
)

// The [notify] command gets the title and body as arguments and the event
// as JSON on its stdin.
func TestNotifyCommand(t *testing.T) {
	t.Parallel()
	dir := testkit.PrivateDir(t)
	out := filepath.Join(t.TempDir(), "note")
	var cfg config.Config
	cfg.Notify.Command = []string{"sh", "-c", `cat > "$0.json" && printf '%s|%s' "$1" "$2" > "$0.tmp" && mv "$0.tmp" "$0"`, out}
	a, err := Open(Options{StateDir: dir, Config: cfg, Grace: 300 * time.Millisecond, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	a.Notify("approval", "tend: codex asks", "rm -rf ~; echo 'quoted'")
	testkit.WaitUntil(t, 10*time.Second, "the notify command to run", func() bool {
		_, err := os.Stat(out)
		return err == nil
	})
	b, _ := os.ReadFile(out)
	if got := string(b); got != "tend: codex asks|rm -rf ~; echo 'quoted'" {
		t.Errorf("arguments %q", got)
	}
	var ev struct{ Event, Title, Body string }
	b, _ = os.ReadFile(out + ".json")
	if err := json.Unmarshal(b, &ev); err != nil || ev.Event != "approval" || ev.Title != "tend: codex asks" || !strings.HasPrefix(ev.Body, "rm -rf") {
		t.Errorf("stdin %s (%v)", b, err)
	}
}
