package engine

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"tend/sandbox"
)

// Defaults for [Config]; docs/RELIABILITY.md lists the defaults its
// figures assume.
const (
	DefaultMaxJobs   = 64
	DefaultGrace     = 5 * time.Second
	DefaultDrain     = 250 * time.Millisecond
	DefaultLogCap    = 1 << 30
	DefaultRetention = 200
	DefaultQuiet     = 2 * time.Second
)

// Sentinel errors; match them with [errors.Is]. Their sentences say what is
// wrong; a caller adds what to do about it in its own terms (the MCP layer
// names its tools).
var (
	ErrNoSuchJob  = errors.New("no such job")
	ErrNoShell    = errors.New("no such shell session")
	ErrNoStdin    = errors.New("the job was started without stdin")
	ErrTooMany    = errors.New("too many running jobs")
	ErrClosed     = errors.New("engine is shutting down")
	ErrNotRunning = errors.New("job is not running")
)

// Config sets up an [Engine]. Zero values take the defaults.
type Config struct {
	StateDir  string        // jobs/<id>/ logs and metadata live here
	MaxJobs   int           // concurrent running jobs
	MaxPTYs   int           // concurrent running PTY jobs (shells included)
	Grace     time.Duration // TERM → KILL
	Drain     time.Duration // how long output may stay open after the process exits
	LogCap    int64         // per-stream log cap; older bytes are dropped
	Retention int           // finished jobs kept (registry and disk); oldest go first
	Quiet     time.Duration // output silence before a prompt-like last line counts as waiting for input
	Gate      Gate          // consulted before every command; nil runs everything
	// Containment says how jobs are held: a cgroup each where the machine
	// allows (the default), or only by session, marker and subreaper.
	Containment Containment
	// Confiner is the tend binary, which confines a job's command before
	// it runs (see package sandbox); "" runs every command unconfined and
	// refuses a Spec.Sandbox.
	Confiner string
	// Writable are paths a sandboxed command may write besides its working
	// tree and the temp dirs.
	Writable []string
	// Unconfined runs a job whose sandbox this kernel cannot enforce
	// unconfined, saying so in its note, instead of refusing to start it
	// (config jobs.sandbox_fallback = "unconfined").
	Unconfined bool
	// Enforces says why the kernel cannot enforce a sandbox mode;
	// nil: sandbox.Enforces.
	Enforces func(sandbox.Mode) error
	Logger   *slog.Logger
}

// Engine runs jobs. It is safe for concurrent use by any number of clients.
type Engine struct {
	cfg    Config
	logger *slog.Logger
	token  string   // tells this engine's jobs from others' (see engineVar)
	self   procInfo // this process, recorded as each job's owner
	cg     *cgroups // the jobs' cgroups; nil: the subreaper holds them
	held   string   // how jobs are held, and why, for people to read

	sessions sessions // what jobs without a cgroup use

	mu      sync.Mutex
	jobs    map[JobID]*Job
	order   []JobID // creation order, for listing and retention
	running int
	// retained counts the finished jobs in jobs that retention has seen
	// (Job.retained): it drops the oldest of them beyond its limit.
	retained int
	ptys     int
	closed   bool
	shells   map[JobID]*Shell
	nextID   int // next job id to try; 0 until the state dir was read

	events   broker
	out      *reader                         // reads every job's output
	ready    chan struct{}                   // output doorbell, capacity 1
	bells    atomic.Pointer[[]chan struct{}] // more doorbells (Engine.Bell), copied on change: ring reads it on every write
	bellMu   sync.Mutex                      // serialises changes to bells
	wg       sync.WaitGroup                  // job supervisors
	starting sync.WaitGroup                  // Starts between reserving a place and registering their job

	spareOnce sync.Once
	spares    chan spare    // job directories made ahead
	recycled  chan string   // directories of jobs retention dropped, to be spares again
	quit      chan struct{} // closed when Close begins
}

// New starts an engine: it becomes a child subreaper, starts the orphan
// reaper and loads earlier jobs from the state dir as history.
func New(cfg Config) (*Engine, error) {
	if cfg.StateDir == "" {
		return nil, errors.New("engine: no state dir")
	}
	if cfg.MaxJobs <= 0 {
		cfg.MaxJobs = DefaultMaxJobs
	}
	if cfg.MaxPTYs <= 0 {
		cfg.MaxPTYs = DefaultMaxPTYs
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.Drain <= 0 {
		cfg.Drain = DefaultDrain
	}
	if cfg.LogCap <= 0 {
		cfg.LogCap = DefaultLogCap
	}
	if cfg.Retention <= 0 {
		cfg.Retention = DefaultRetention
	}
	if cfg.Quiet <= 0 {
		cfg.Quiet = DefaultQuiet
	}
	if cfg.Enforces == nil {
		cfg.Enforces = sandbox.Enforces
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Join(cfg.StateDir, "jobs"), 0o700); err != nil {
		return nil, fmt.Errorf("engine: state dir: %w", err)
	}
	if err := startReaper(); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	self, err := readProc(os.Getpid())
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	e := &Engine{
		cfg:      cfg,
		logger:   cfg.Logger,
		token:    rand.Text()[:12],
		self:     self,
		jobs:     map[JobID]*Job{},
		shells:   map[JobID]*Shell{},
		ready:    make(chan struct{}, 1),
		recycled: make(chan string, 8),
		quit:     make(chan struct{}),
	}
	if e.out, err = newReader(); err != nil {
		return nil, fmt.Errorf("engine: reading output: %w", err)
	}
	go e.out.run()
	if err := e.contain(); err != nil {
		e.out.close()
		return nil, fmt.Errorf("engine: %w", err)
	}
	addEngine(e)
	e.events.init()
	e.loadHistory()
	return e, nil
}

// contain sets up how jobs are held, as the config asks.
func (e *Engine) contain() error {
	mode, err := ParseContainment(string(e.cfg.Containment))
	if err != nil {
		return err
	}
	if mode == ContainSubreaper {
		e.held = "subreaper: jobs are found by session, marker and adoption (containment = subreaper)"
		return nil
	}
	cg, err := openCgroups(e.token, e.logger)
	if err != nil {
		if mode == ContainCgroup {
			return fmt.Errorf("no cgroup for the jobs: %w", err)
		}
		e.held = "subreaper: jobs are found by session, marker and adoption (no cgroup: " + err.Error() + ")"
		e.logger.Info("jobs are held without cgroups", "why", err)
		return nil
	}
	e.cg = cg
	e.held = "cgroup: every job in a cgroup v2 group of its own under " + cg.dir
	return nil
}

// Containment says how the engine holds its jobs' processes, and why: a
// sentence for people (tend doctor, the TUI).
func (e *Engine) Containment() string { return e.held }

// Ready is the output doorbell: it receives a value (coalesced) whenever any
// job printed something. Lifecycle changes come through [Engine.Subscribe].
func (e *Engine) Ready() <-chan struct{} { return e.ready }

func (e *Engine) ring() {
	select {
	case e.ready <- struct{}{}:
	default:
	}
	if bells := e.bells.Load(); bells != nil {
		for _, b := range *bells {
			select {
			case b <- struct{}{}:
			default:
			}
		}
	}
}

// Bell is a doorbell of the caller's own, rung with [Engine.Ready] (each
// supervisor connection has one: [Engine.Ready] has one reader), and a
// function that stops it.
func (e *Engine) Bell() (<-chan struct{}, func()) {
	b := make(chan struct{}, 1)
	e.bellMu.Lock()
	defer e.bellMu.Unlock()
	var bells []chan struct{}
	if old := e.bells.Load(); old != nil {
		bells = slices.Clone(*old)
	}
	bells = append(bells, b)
	e.bells.Store(&bells)
	return b, func() {
		e.bellMu.Lock()
		defer e.bellMu.Unlock()
		bells := slices.DeleteFunc(slices.Clone(*e.bells.Load()), func(c chan struct{}) bool { return c == b })
		e.bells.Store(&bells)
	}
}

// Subscribe returns the current jobs and a subscription that receives every
// later lifecycle event, losslessly and in order.
func (e *Engine) Subscribe() ([]Info, *Subscription) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.listLocked(), e.events.subscribe()
}

func (e *Engine) publish(kind EventKind, j *Job) {
	e.events.publish(Event{Kind: kind, Job: j.ID, Info: j.Info()})
}

// Job returns the job with the given id.
func (e *Engine) Job(id JobID) (*Job, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	j, ok := e.jobs[id]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrNoSuchJob, id)
	}
	return j, nil
}

// List returns every job, oldest first.
func (e *Engine) List() []Info {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.listLocked()
}

func (e *Engine) listLocked() []Info {
	out := make([]Info, 0, len(e.order))
	for _, id := range e.order {
		out = append(out, e.jobs[id].Info())
	}
	return out
}

// newID allocates the next job id by creating its directory, so engines
// sharing a state dir (several headless `tend mcp`) never collide. The
// directory is old renamed, when there is one (see recycle), and the file
// system can rename without replacing.
func (e *Engine) newID(old string) (JobID, string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.nextID == 0 {
		e.nextID = 1
		if ents, err := os.ReadDir(filepath.Join(e.cfg.StateDir, "jobs")); err == nil {
			for _, d := range ents {
				if k, err := strconv.Atoi(d.Name()); err == nil && k >= e.nextID {
					e.nextID = k + 1
				}
			}
		}
	}
	for range 1000 {
		n := e.nextID
		e.nextID++
		dir := filepath.Join(e.cfg.StateDir, "jobs", strconv.Itoa(n))
		var err error
		if old != "" {
			err = unix.Renameat2(unix.AT_FDCWD, old, unix.AT_FDCWD, dir, unix.RENAME_NOREPLACE)
			if err != nil && !errors.Is(err, os.ErrExist) {
				os.RemoveAll(old) // no RENAME_NOREPLACE here: make one
				old = ""
				err = os.Mkdir(dir, 0o700)
			}
		} else {
			err = os.Mkdir(dir, 0o700)
		}
		if err == nil {
			return JobID(strconv.Itoa(n)), dir, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", "", fmt.Errorf("create job dir: %w", err)
		}
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return "", "", errors.New("could not allocate a job id")
}

// spare is a job directory made ahead of the job that takes it, with the
// files of a pipe job's logs: a start then creates no file on its way to
// the reply (each costs about 0.1 ms on ext4). One maker makes them, one
// ahead, in order, so job ids stay in the order jobs start.
type spare struct {
	id   JobID
	dir  string
	meta *os.File // meta.json, empty and open for the job's first record
	err  error
}

var spareFiles = []string{"stdout.log", "stderr.log", mergedName, "meta.json"}

// jobDir gives the next job its id and directory.
func (e *Engine) jobDir() (spare, error) {
	e.spareOnce.Do(func() {
		e.spares = make(chan spare)
		e.wg.Go(e.makeSpares)
	})
	select {
	case s := <-e.spares:
		return s, s.err
	case <-e.quit:
		return spare{}, ErrClosed
	}
}

// makeSpares makes job directories until the engine closes, from recycled
// ones while there are any; the one not taken then is removed.
func (e *Engine) makeSpares() {
	for {
		var s spare
		flags := os.O_CREATE | os.O_EXCL | os.O_WRONLY | syscall.O_NOFOLLOW
		select {
		case old := <-e.recycled:
			s.id, s.dir, s.err = e.newID(emptied(old))
			flags = os.O_CREATE | os.O_TRUNC | os.O_WRONLY | syscall.O_NOFOLLOW
		default:
			s.id, s.dir, s.err = e.newID("")
		}
		for _, name := range spareFiles {
			if s.err != nil {
				break
			}
			fl := flags
			if name == "meta.json" {
				fl &^= os.O_TRUNC // emptied did, and closed it: see there
			}
			// Plain system calls: os.OpenFile would try the runtime's
			// poller, which refuses a regular file, setting the
			// descriptor's flags four times on the way (five calls more
			// for each file of each job).
			fd, err := unix.Open(filepath.Join(s.dir, name), fl|unix.O_CLOEXEC, 0o600)
			if err != nil {
				if s.meta != nil {
					s.meta.Close()
				}
				os.RemoveAll(s.dir)
				s.err = fmt.Errorf("create job dir: %w", &os.PathError{Op: "open", Path: filepath.Join(s.dir, name), Err: err})
				break
			}
			if name == "meta.json" {
				s.meta = os.NewFile(uintptr(fd), filepath.Join(s.dir, name))
			} else {
				unix.Close(fd)
			}
		}
		select {
		case e.spares <- s:
		case <-e.quit:
			if s.err == nil {
				s.meta.Close()
				os.RemoveAll(s.dir)
			}
			return
		}
	}
}

// recycle keeps the directory of a job retention dropped (its streams
// closed) to be made a spare: renamed and emptied, it spares the file
// system a directory and four files made and as many deleted, per job. On
// ext4 each costs more the more were just deleted, as at the rate agents
// run commands.
func (e *Engine) recycle(dir string) {
	select {
	case e.recycled <- dir:
	default:
		os.RemoveAll(dir)
	}
}

// emptied empties a recycled job directory for its next job, its record
// first: should tend die here, an empty record is that of a job that never
// ran, and the directory is removed in time. It returns dir, or "" when it
// could not empty the record (the directory is then removed). The record
// is emptied through a file closed here, not by its path: on ext4 the close
// after a truncation to zero writes the file out (auto_da_alloc), and it
// had better be this close, with nothing to write, than the job's last
// record's, on the way to the exec's reply.
func emptied(dir string) string {
	fd, err := unix.Open(filepath.Join(dir, "meta.json"), unix.O_WRONLY|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == nil {
		err = unix.Close(fd)
	}
	if err != nil {
		os.RemoveAll(dir)
		return ""
	}
	os.Remove(filepath.Join(dir, "pty.log")) // a PTY job's; the next may not be one
	return dir
}

// register adds a started job.
func (e *Engine) register(j *Job) {
	e.mu.Lock()
	e.jobs[j.ID] = j
	e.order = append(e.order, j.ID)
	e.mu.Unlock()
}

// retain counts the finished job done and drops the oldest finished jobs
// (and their logs) beyond the retention limit: as many as are over it,
// looked for from the oldest, not a look at every job on each job's end
// (with 200 kept, a tenth of the CPU of a short job's end).
func (e *Engine) retain(done *Job) {
	e.mu.Lock()
	if e.jobs[done.ID] == done && !done.retained {
		done.retained = true
		e.retained++
	}
	var drop []*Job
	for i := 0; e.retained-len(drop) > e.cfg.Retention && i < len(e.order); i++ {
		if o := e.jobs[e.order[i]]; o.retained {
			drop = append(drop, o)
		}
	}
	for _, o := range drop {
		e.forgetLocked(o.ID)
	}
	e.mu.Unlock()
	for _, o := range drop {
		o.release(false)
		e.recycle(o.dir)
		e.publish(JobRemoved, o)
	}
}

func (e *Engine) forgetLocked(id JobID) {
	j, ok := e.jobs[id]
	if !ok {
		return
	}
	if j.retained {
		e.retained--
	}
	delete(e.jobs, id)
	e.order = slices.DeleteFunc(e.order, func(x JobID) bool { return x == id })
}

// Remove deletes a finished job and its logs.
func (e *Engine) Remove(id JobID) error {
	j, err := e.Job(id)
	if err != nil {
		return err
	}
	if !j.Done() {
		return fmt.Errorf("job %s is still running: kill it first", id)
	}
	e.mu.Lock()
	e.forgetLocked(id)
	e.mu.Unlock()
	j.release(true)
	e.publish(JobRemoved, j)
	return nil
}

// Close ends every running job's whole tree (TERM, grace, KILL, sweep) and
// waits for them. New jobs are refused from the first call on.
func (e *Engine) Close() {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		e.wg.Wait()
		return
	}
	e.closed = true
	close(e.quit)
	e.mu.Unlock()
	e.starting.Wait() // a job starting now is registered before the list below, or never starts
	e.mu.Lock()
	var live []*Job
	for _, j := range e.jobs {
		if !j.Done() {
			live = append(live, j)
		}
	}
	e.mu.Unlock()
	var wg sync.WaitGroup
	for _, j := range live {
		wg.Go(func() { j.Kill("tend is shutting down") })
	}
	wg.Wait()
	e.wg.Wait()
	for len(e.recycled) > 0 {
		os.RemoveAll(<-e.recycled)
	}
	e.out.close()
	e.endOrphans(true)
	if e.cg != nil {
		e.cg.close()
	}
	removeEngine(e)
	reap()
}
