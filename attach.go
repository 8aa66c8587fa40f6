package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"tend/engine"
	"tend/internal/supervisor"
	"tend/ui"
)

const attachUsage = `Usage: tend attach [flags] [TARGET…]

The terminal UI over engines it does not host: every job, the approval
queue and the Activity record of each target, in one list. Quitting
detaches: the engines and their jobs run on; end one with tend serve --stop
on its machine. A lost connection is shown, retried, and nothing is lost:
reads go on where they stopped. A target not reached at the start is shown
lost and retried, as long as another one is reached.

Targets:
  (none), local           the tend serve of --state-dir on this machine
  unix://PATH             the engine listening on that socket
  ssh://[user@]host[:port] tend on that host, through your own ssh (your keys,
                          config and ControlMaster): it runs --remote there,
                          which bridges to the tend serve of that host, or
                          starts one
  --via 'COMMAND'         anything else whose stdio reaches tend serve --stdio
                          (docker exec -i box tend serve --stdio)

Flags:
`

// targetList is the repeatable --via flag.
type targetList []string

func (t *targetList) String() string     { return strings.Join(*t, ", ") }
func (t *targetList) Set(v string) error { *t = append(*t, v); return nil }

// runAttach is `tend attach`: the terminal UI as a client of engines.
func runAttach(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend attach", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &common{}
	c.registerPaths(fs)
	fs.StringVar(&c.logLevel, "log-level", "info", "level of the log written to <state-dir>/attach.log")
	theme := fs.String("theme", "", "dark or light (default: the config's, else from the terminal's background)")
	sshCmd := fs.String("ssh", "ssh", "the ssh command for ssh:// targets, with any options of yours")
	remote := fs.String("remote", "tend serve --stdio", "what ssh runs on the far side")
	var vias targetList
	fs.Var(&vias, "via", "a command whose stdin and stdout speak to an engine (may repeat)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), attachUsage)
		fs.PrintDefaults()
	}
	var targets []string // flags and targets in any order
	for {
		if code, ok := parse(fs, args, stdout); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		targets, args = append(targets, fs.Arg(0)), fs.Args()[1:]
	}
	if !c.parseLevel(stderr) || !c.loadConfig(fs, nil, stderr) {
		return 2
	}
	if *theme == "" {
		*theme = c.cfg.Theme
	}
	if len(targets) == 0 && len(vias) == 0 {
		targets = []string{""}
	}
	var ends []end
	for _, t := range targets {
		e, err := parseTarget(t, c.stateDir, *sshCmd, *remote)
		if err != nil {
			fmt.Fprintf(stderr, "tend attach: %v\n", err)
			return 2
		}
		ends = append(ends, e)
	}
	for _, v := range vias {
		ends = append(ends, end{name: filepath.Base(strings.Fields(v + " via")[0]), dial: supervisor.DialCommand("sh", "-c", v), how: "run tend serve --stop where " + v + " reaches"})
	}
	names := map[string]int{}
	for i := range ends {
		if n := names[ends[i].name]; n > 0 {
			ends[i].name += fmt.Sprintf("-%d", n+1)
		}
		names[ends[i].name]++
	}
	logFile, logger, code := openUI("tend attach", "", c.stateDir, "attach.log", c.level, stderr)
	if logFile == nil {
		return code
	}
	defer logFile.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer stop()
	clients, err := connectAll(ctx, ends, logger)
	if err != nil {
		fmt.Fprintf(stderr, "tend attach: %v\n", err)
		return 1
	}
	set := supervisor.NewSet(clients...)
	defer set.Close()
	var hows []string
	for _, e := range ends {
		hows = append(hows, e.how)
	}
	keys, _ := c.cfg.KeyMap()
	keys.Global.Quit.SetHelp(keys.Global.Quit.Help().Key, "detach") // the key help says what q does here
	o := ui.Options{
		Backend:     remoteBackend{set},
		Activity:    uiActivity{set.Activity()},
		Approvals:   set,
		Links:       links{set},
		OnAction:    set.Action,
		Version:     version,
		Theme:       *theme,
		Keys:        &keys,
		InTmux:      os.Getenv("TMUX") != "",
		Containment: containment(clients),
		Attached:    "To end them: " + strings.Join(hows, "; ") + ".",
	}
	err = ui.Run(ctx, o, stdout, 60, tea.WithoutSignalHandler())
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && ctx.Err() == nil {
		fmt.Fprintf(stderr, "tend attach: %v\n", err)
		return 1
	}
	running := 0
	for _, in := range set.List() {
		if in.Status == engine.Running {
			running++
		}
	}
	what := fmt.Sprintf("%d jobs run", running)
	if running == 1 {
		what = "1 job runs"
	}
	fmt.Fprintf(stderr, "tend attach: detached; %s on. %s\n", what, o.Attached)
	return 0
}

// end is one target: its name in the list, how to reach it, and how to
// end its engine.
type end struct {
	name string
	dial supervisor.Dialer
	how  string
}

// parseTarget reads one TARGET.
func parseTarget(t, stateDir, sshCmd, remote string) (end, error) {
	switch {
	case t == "" || t == "local":
		return end{name: "local", dial: supervisor.DialLocal(stateDir), how: "tend serve --stop" + stateFlag(stateDir)}, nil
	case strings.HasPrefix(t, "unix://"):
		path := strings.TrimPrefix(t, "unix://")
		return end{name: "local", dial: supervisor.DialUnix(path), how: "tend serve --stop --state-dir " + filepath.Dir(path)}, nil
	case strings.HasPrefix(t, "ssh://"):
		u, err := url.Parse(t)
		if err != nil || u.Hostname() == "" || u.Path != "" && u.Path != "/" {
			return end{}, fmt.Errorf("%q: an ssh target is ssh://[user@]host[:port]", t)
		}
		argv := append(strings.Fields(sshCmd), "-T", "-o", "BatchMode=yes")
		if p := u.Port(); p != "" {
			argv = append(argv, "-p", p)
		}
		if u.User != nil {
			argv = append(argv, "-l", u.User.Username())
		}
		argv = append(argv, u.Hostname(), remote)
		return end{name: u.Hostname(), dial: supervisor.DialCommand(argv...), how: "ssh " + u.Host + " tend serve --stop"}, nil
	}
	return end{}, fmt.Errorf("%q is not a target: give unix://PATH, ssh://[user@]host[:port], or --via 'COMMAND'", t)
}

// connectAll connects to every target at once. When some are reached, the
// others start lost and are retried (the status bar says so); when none
// is, it fails.
func connectAll(ctx context.Context, ends []end, logger *slog.Logger) ([]*supervisor.Client, error) {
	clients := make([]*supervisor.Client, len(ends))
	errs := make([]error, len(ends))
	var wg sync.WaitGroup
	for i, e := range ends {
		wg.Go(func() {
			clients[i], errs[i] = supervisor.Connect(ctx, e.name, e.dial, logger.With("host", e.name))
		})
	}
	wg.Wait()
	if !slices.ContainsFunc(clients, func(c *supervisor.Client) bool { return c != nil }) {
		return nil, errors.Join(errs...)
	}
	for i, e := range ends {
		if clients[i] == nil {
			logger.Warn("not reached; retrying", "host", e.name, "err", errs[i])
			clients[i] = supervisor.Retry(ctx, e.name, e.dial, logger.With("host", e.name), cmp.Or(errors.Unwrap(errs[i]), errs[i]))
		}
	}
	return clients, nil
}

// containment is how the first engine reached holds its jobs.
func containment(clients []*supervisor.Client) string {
	for _, c := range clients {
		if c.Link().Up {
			return c.Welcome().Containment
		}
	}
	return ""
}

// remoteBackend is the Set as the UI's backend.
type remoteBackend struct{ *supervisor.Set }

func (b remoteBackend) Job(id engine.JobID) (ui.Job, error) {
	j, err := b.Set.Job(id)
	if err != nil {
		return nil, err
	}
	return j, nil
}

func (b remoteBackend) Start(ctx context.Context, spec engine.Spec) (ui.Job, error) {
	j, err := b.Set.Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	return j, nil
}

// links are the Set's connections as the UI shows them.
type links struct{ s *supervisor.Set }

func (l links) Watch() (<-chan struct{}, func()) { return l.s.WatchLinks() }

func (l links) Links() []ui.Link {
	var out []ui.Link
	for _, k := range l.s.Links() {
		out = append(out, ui.Link{Host: k.Host, Up: k.Up, Note: k.Note})
	}
	return out
}
