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
		if a.item && a.src == jobListing || !a.ok && listedJobs(a.src) {
			from := "the scheduler's listing piped to it"
			if !a.item {
				from = "a listing of the scheduler (" + a.shown() + ")"
			}
			iv.flag(Destructive, iv.name+" cancels every job "+from+" matches, however long they have been running")
			return
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

// jobListing is what a pipeline stage prints when it lists a scheduler's
// jobs by owner, queue or state (squeue -u $USER -h -o %i, qselect -u
// bob, bjobs -u all -o jobid): every job it matches, not jobs it names.
const jobListing = "<jobs a scheduler lists>"

// jobListers are the schedulers' listing commands, and the options by
// which each names the jobs it lists instead of matching them.
var jobListers = map[string]map[string]bool{
	"squeue":   setOf("-j", "--jobs", "--job"),
	"sacct":    setOf("-j", "--jobs"),
	"qselect":  {},
	"qstat":    {},
	"bjobs":    {},
	"condor_q": {},
}

// listsJobs reports whether a scheduler's listing command lists the jobs
// it matches (by user, queue, state, or all of them), not jobs it is
// given by id: squeue -u $USER, qselect -u bob; not squeue -j 123, qstat
// 4567, bjobs 89.
func listsJobs(name string, args []string) bool {
	named, ok := jobListers[name]
	if !ok {
		return false
	}
	for _, a := range args {
		opt, _, _ := strings.Cut(a, "=")
		if named[opt] || strings.Trim(a, "0123456789.[]") == "" && a != "" {
			return false // squeue -j 123, qstat 4567: the jobs named
		}
	}
	return true
}

// jobListSubst is a word that is one command substitution running a
// scheduler's listing: $(squeue -u $USER -h -o %i).
var jobListSubst = lazyRE(`^"?\$\(\s*(squeue|sacct|qselect|qstat|bjobs|condor_q)\b([^()|;&<>]*)\)"?$`)

// listedJobs reports whether a word is the output of a listing of a
// scheduler's jobs that matches them rather than naming them.
func listedJobs(word string) bool {
	m := jobListSubst.FindStringSubmatch(word)
	return m != nil && listsJobs(m[1], strings.Fields(m[2]))
}
