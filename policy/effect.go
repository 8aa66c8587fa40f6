package policy

import (
	"strings"
)

// Tools the catalogue does not know are judged by what their words say
// they do: the subcommand words of a command line name its effect
// (heroku apps:destroy, prisma migrate reset, etcdctl del, a vendor's
// delete-cluster), and SQL handed to any client says what it does to a
// database. This is what lets a tool never seen before still be held.

// destroyVerbs are the words by which tools name deleting or resetting
// stored or remote state. remove, rm, uninstall, clean and prune are not
// among them: project package managers use them for ordinary work (npm
// rm, poetry remove, cargo clean, npm prune).
var destroyVerbs = map[string]bool{
	"delete": true, "del": true, "destroy": true, "drop": true, "dropdb": true, "purge": true,
	"truncate": true, "wipe": true, "erase": true, "flush": true, "flushall": true, "flushdb": true,
	"reset": true, "terminate": true, "unpublish": true, "yank": true, "nuke": true, "teardown": true,
	"deregister": true, "decommission": true, "rollback": true, "downgrade": true, "kill": true,
	"obliterate": true, "rmdir": true, "deprovision": true, "unregister": true, "fresh": true,
}

// destroyFlags are the words that, leading an option (--drop,
// --force-reset, --purge-all), make a tool destroy what it writes over.
var destroyFlags = map[string]bool{
	"drop": true, "purge": true, "wipe": true, "reset": true, "flush": true, "truncate": true,
	"destroy": true, "force-reset": true, "erase": true, "nuke": true,
}

// maxVerbWords is how many leading operands are read as subcommand words.
const maxVerbWords = 4

// verbEffect flags the command Destructive when its subcommand words or
// options name destroying state, or an operand is destructive SQL, and
// reports whether it did.
func verbEffect(iv *inv) bool {
	words := 0
	for _, a := range iv.rest(1) {
		if !a.ok {
			continue
		}
		s := strings.ToLower(a.s)
		if why := sqlDanger(a.s); why != "" && strings.ContainsAny(a.s, " \t\n") {
			iv.flag(Destructive, iv.name+": "+why)
			return true
		}
		if opt, ok := strings.CutPrefix(s, "--"); ok {
			opt, _, _ = strings.Cut(opt, "=")
			first, _, _ := strings.Cut(opt, "-")
			if destroyFlags[opt] || destroyFlags[first] {
				iv.flag(Destructive, iv.name+" "+a.s+" destroys what it replaces")
				return true
			}
			if replicasZero(a.s) {
				iv.flag(Destructive, iv.name+" scales to zero")
				return true
			}
			continue
		}
		if strings.HasPrefix(s, "-") || words >= maxVerbWords {
			continue
		}
		words++
		if strings.ContainsAny(s, "/.=@ ~$") { // a path, a value, a URL: not a verb
			continue
		}
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == ':' || r == '_' }) {
			if destroyVerbs[w] {
				iv.flag(Destructive, iv.name+" "+shownVerbs(iv.rest(1))+" deletes or resets what it manages")
				return true
			}
		}
	}
	return false
}

// replicasZero reports whether an option sets a count of replicas or
// instances to zero.
func replicasZero(s string) bool {
	name, val, ok := strings.Cut(s, "=")
	return ok && val == "0" && (strings.Contains(name, "replicas") || strings.Contains(name, "instances") || strings.Contains(name, "count"))
}

// shownVerbs is the leading operands of a command, for a reason.
func shownVerbs(args []arg) string {
	var out []string
	for _, a := range args {
		if len(out) == maxVerbWords {
			break
		}
		if a.ok && !strings.HasPrefix(a.s, "-") {
			out = append(out, a.s)
		}
	}
	return strings.Join(out, " ")
}

// unknownTool is the handler of a command the catalogue does not know: its
// words may say it destroys state; otherwise it may write.
func unknownTool(iv *inv) {
	iv.flag(Write, "")
	verbEffect(iv)
}

// overwrites classifies a tool writing over its destination (cp, install,
// ln -f, mv): like a truncating redirection to it.
func (iv *inv) overwrites(dst arg) {
	class, why := iv.c.writeTarget(iv.sc, dst, true)
	iv.flag(max(class, Write), why)
}

// destination is a copying tool's target: the value of -t (or
// --target-directory), else the last operand; ok is false with fewer than
// two operands.
func destination(args []arg) (dst arg, ok bool) {
	for i, a := range args {
		switch {
		case !a.ok:
		case (a.s == "-t" || a.s == "--target-directory") && i+1 < len(args):
			return args[i+1], true
		case strings.HasPrefix(a.s, "--target-directory="):
			return arg{s: strings.TrimPrefix(a.s, "--target-directory="), ok: true, src: a.s}, true
		}
	}
	_, operands := opts(args)
	if len(operands) < 2 {
		return arg{}, false
	}
	return operands[len(operands)-1], true
}

// cp and install write over their destination.
func cp(iv *inv) {
	iv.flag(Write, "")
	if dst, ok := destination(iv.rest(1)); ok {
		iv.overwrites(dst)
	}
}

// ln -f replaces its destination; without -f it refuses to.
func ln(iv *inv) {
	iv.flag(Write, "")
	flags, _ := opts(iv.rest(1))
	if !hasFlag(flags, "f", "--force") {
		return
	}
	if dst, ok := destination(iv.rest(1)); ok {
		iv.overwrites(dst)
	}
}

// extractInto flags unpacking an archive over a directory outside the
// working directory (tar -x -C dir, unzip -d dir).
func (iv *inv) extractInto(dir arg) {
	t := iv.c.resolve(iv.sc, dir)
	if why := iv.c.danger(t); why != "" && !iv.sc.remote {
		iv.flag(Destructive, phrase(iv.name+" unpacks over files", why)+": "+iv.c.show(t))
	}
}

// tar -x writes over files where it unpacks: -C dir, else here.
func tar(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	extract := false
	for i, a := range args {
		if !a.ok {
			continue
		}
		if a.s == "-x" || a.s == "--extract" || a.s == "--get" ||
			(i == 0 && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "x")) ||
			(strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.Contains(a.s, "x")) {
			extract = true
		}
	}
	if !extract {
		return
	}
	for i, a := range args {
		switch {
		case !a.ok:
		case (a.s == "-C" || a.s == "--directory") && i+1 < len(args):
			iv.extractInto(args[i+1])
		case strings.HasPrefix(a.s, "--directory="):
			iv.extractInto(arg{s: strings.TrimPrefix(a.s, "--directory="), ok: true, src: a.s})
		}
	}
}

// unzip -d dir unpacks there.
func unzip(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	for i, a := range args {
		if a.ok && a.s == "-d" && i+1 < len(args) {
			iv.extractInto(args[i+1])
		}
	}
}

// inPlace flags editing files outside the working directory in place
// (sed -i, perl -pi).
func (iv *inv) inPlace(files []arg) {
	for _, f := range files {
		if !f.ok || iv.sc.remote {
			continue
		}
		t := iv.c.resolve(iv.sc, f)
		if why := iv.c.danger(t); why != "" && why != "unresolved" {
			iv.flag(Destructive, phrase(iv.name+" -i edits a file in place", why)+": "+iv.c.show(t))
		}
	}
}

// signals flags signalling processes this command did not start: by name
// (pkill, killall), by pid, or all of them. A job spec (%1) or a pid
// taken from $! in the same command is its own.
func signals(iv *inv) {
	iv.flag(Write, "")
	switch iv.name {
	case "pkill", "killall", "killall5", "skill", "slay":
		iv.flag(Destructive, iv.name+" signals processes tend did not start")
		return
	case "fuser":
		if flags, _ := opts(iv.rest(1)); hasFlag(flags, "k", "--kill") {
			iv.flag(Destructive, "fuser -k kills the processes using a file or port")
		}
		return
	}
	args := iv.rest(1)
	for i, a := range args {
		if a.ok && a.s == "-1" && (i > 0 || len(args) == 1) {
			iv.flag(Destructive, "kill -1 signals every process")
			return
		}
	}
	_, operands := opts(args)
	for _, a := range operands {
		switch {
		case a.ok && a.s == "1":
			iv.flag(Destructive, "kill "+a.s+" signals every process, or init")
			return
		case a.ok && strings.HasPrefix(a.s, "%"),
			!a.ok && ownPid(iv.sc.src, a.src):
		case a.ok && a.s == "0":
		default:
			iv.flag(Destructive, "kill signals a process tend did not start: "+a.shown())
			return
		}
	}
}

// ownPid reports whether word is $! or a variable the script set from $!.
func ownPid(src, word string) bool {
	if word == "$!" || word == `"$!"` {
		return true
	}
	name := strings.Trim(word, `"${}`)
	return name != "" && (strings.Contains(src, name+"=$!") || strings.Contains(src, name+`="$!"`))
}

// service NAME stop, and systemctl's verbs that stop or disable services.
func service(iv *inv) {
	iv.flag(Write, "")
	_, operands := opts(iv.rest(1))
	if v := at(strs0(operands), 1); v == "stop" || v == "disable" || v == "uninstall" || v == "kill" {
		iv.flag(Destructive, "service "+v+" stops a service")
	}
}

// strs0 is the literal words of args ("" for the rest).
func strs0(args []arg) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a.ok {
			out[i] = a.s
		}
	}
	return out
}

// accounts: passwd's flags that remove or lock a password.
func passwd(iv *inv) {
	iv.flag(Write, "")
	flags, _ := opts(iv.rest(1))
	if hasFlag(flags, "dle", "--delete", "--lock", "--expire") {
		iv.flag(Destructive, "passwd removes, locks or expires a password")
	}
}

// packages: system package managers removing packages.
func pkgManager(iv *inv) {
	iv.flag(Write, "")
	for _, a := range iv.rest(1) {
		if !a.ok {
			continue
		}
		switch a.s {
		case "remove", "purge", "erase", "autoremove", "uninstall", "del", "-R", "-Rs", "-Rns", "-Rdd", "-r", "-P", "--purge", "--remove":
			iv.flag(Destructive, iv.name+" "+a.s+" removes system packages")
			return
		}
	}
}

// netTools are commands that reach other machines with what they are
// given: a secret among their words leaves the machine.
var netTools = map[string]bool{
	"curl": true, "wget": true, "http": true, "https": true, "xh": true, "nc": true, "ncat": true, "netcat": true,
	"socat": true, "telnet": true, "ssh": true, "scp": true, "sftp": true, "rsync": true, "ftp": true, "lftp": true,
	"dig": true, "nslookup": true, "host": true, "ping": true, "mail": true, "mailx": true, "sendmail": true,
	"mutt": true, "gh": true, "glab": true, "aws": true, "gsutil": true, "gcloud": true, "az": true, "rclone": true,
	"s3cmd": true, "smbclient": true, "tftp": true, "aria2c": true,
}

// sendsSecret flags a network tool given a secrets file, or the text of
// one through a command substitution, or reading one on its stdin.
func sendsSecret(iv *inv) {
	if !netTools[iv.name] {
		return
	}
	if iv.in.kind == srcSecret {
		iv.flag(Destructive, iv.name+" sends the environment or a secrets file over the network")
		return
	}
	for _, a := range iv.rest(1) {
		switch {
		case !a.ok && secretSubst.MatchString(a.src):
			iv.flag(Destructive, iv.name+" sends the environment or a secrets file over the network: "+a.shown())
			return
		case a.ok && isSecretPath(iv.c.tilde(strings.TrimPrefix(strings.TrimPrefix(a.s, "@"), "<"))):
			iv.flag(Destructive, iv.name+" sends a secrets file over the network: "+a.s)
			return
		}
	}
}
