package policy

import "strings"

// A batch cluster's scheduler (SLURM, PBS and Grid Engine, LSF, HTCondor)
// runs jobs that may have run for days. Cancelling one job the command
// names is ordinary work on the user's own job; cancelling every job of a
// user, an account, a partition or a state throws all of that away, other
// people's too when the user may cancel theirs: it is held.

// jobCanceller is how one scheduler's cancel command picks its jobs.
type jobCanceller struct {
	values  map[string]bool   // options that take a value (as the next word, or after =)
	filters map[string]bool   // options that pick jobs by owner, account, queue or state: with no job named, every job they match
	all     func(string) bool // an operand that names every job (qdel all, bkill 0, condor_rm alice)
}

// jobCancellers are the schedulers' cancel commands.
var jobCancellers = map[string]jobCanceller{
	"scancel": {
		values: setOf("-u", "--user", "-A", "--account", "-p", "--partition", "-t", "--state", "-n", "--name", "--jobname",
			"-w", "--nodelist", "-q", "--qos", "-M", "--clusters", "-R", "--reservation", "-s", "--signal", "--wckey"),
		filters: setOf("-u", "--user", "-A", "--account", "-p", "--partition", "-t", "--state", "-w", "--nodelist",
			"-q", "--qos", "-R", "--reservation", "--me", "--wckey"),
		all: func(string) bool { return false },
	},
	"qdel": { // PBS, Torque, Grid Engine
		values:  setOf("-u", "-W", "-m", "-t"),
		filters: setOf("-u"),
		all:     func(s string) bool { return s == "all" || s == "ALL" || s == "*" },
	},
	"bkill": { // LSF: job 0 is every job the other options match
		values:  setOf("-u", "-q", "-m", "-J", "-g", "-sla", "-app", "-s", "-stat", "-C", "-l"),
		filters: map[string]bool{},
		all:     func(s string) bool { return s == "0" },
	},
	"condor_rm": { // HTCondor: a user's name in place of a job's removes all of theirs
		values:  setOf("-name", "-pool", "-addr", "-constraint", "-reason"),
		filters: setOf("-all", "-a", "-constraint"),
		all:     func(s string) bool { return strings.Trim(s, "0123456789.") != "" },
	},
}

// setOf is a set of words.
func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// cancelsJobs judges a scheduler's cancel command: held when it cancels
// every job of a user, account, queue or state (scancel --user=$USER,
// qdel all, bkill 0, condor_rm -all), not when it names the jobs.
func cancelsJobs(iv *inv) {
	iv.flag(Write, "")
	jc := jobCancellers[iv.name]
	args := iv.rest(1)
	picks, named := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.s
		if !a.ok {
			s = a.src
		}
		if strings.HasPrefix(s, "-") {
			opt, _, inline := strings.Cut(s, "=")
			shown := a.shown()
			if !inline && jc.values[opt] && i+1 < len(args) {
				i++
				shown += " " + args[i].shown()
			}
			if jc.filters[opt] && picks == "" {
				picks = shown
			}
			continue
		}
		if a.ok && jc.all(s) {
			iv.flag(Destructive, iv.name+" "+a.shown()+" cancels every job it matches on the batch cluster, however long they have been running")
			return
		}
		named = true
	}
	if picks != "" && !named {
		iv.flag(Destructive, iv.name+" "+picks+" cancels every job it matches on the batch cluster, however long they have been running")
	}
}
