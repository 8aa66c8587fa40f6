package policy

import "path"

// cd changes the tracked working directory of the current shell, so that
// "cd / && rm -rf usr" is judged as rm -rf /usr. A directory computed at
// run time makes it unknown; relative targets are then unknown too.
func cd(iv *inv) {
	args := iv.rest(1)
	for len(args) > 0 && args[0].ok && len(args[0].s) > 1 && args[0].s[0] == '-' {
		if args[0].s == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
	}
	sc := iv.sc
	switch {
	case len(args) == 0:
		sc.cwd = iv.c.home
		if sc.remote {
			sc.cwd = remoteHome
		}
	case !args[0].ok && !sc.remote:
		sc.cwd = ""
		if p, ok := iv.c.pidPath(sc, args[0].src); ok && path.IsAbs(p) { // cd "$d" after d=$(mktemp -d): the directory made for this run
			sc.cwd = p
		}
	case !args[0].ok || args[0].s == "-":
		sc.cwd = ""
	case path.IsAbs(args[0].s):
		sc.cwd = path.Clean(args[0].s)
	case sc.cwd != "":
		sc.cwd = path.Join(sc.cwd, args[0].s)
	}
}

// popd leaves the working directory unknown: the stack is not tracked.
func popd(iv *inv) { iv.sc.cwd = "" }
