package policy

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A command asked only to show what it would do changes nothing: this file
// is the one place that knows how tools are asked that.

// onlySays reports whether a command's arguments ask it only to say what
// it would do (see dryRun) or how it is used (--help), with nothing among
// them that another program would read: no code with spaces, nothing
// after --, no subcommand that runs a command of its own. A tool that
// runs the command its operands name is judged as that command instead
// (a wrapper's --dry-run may be the value of its command's option).
func onlySays(name string, args []arg) bool {
	_, known := lookup(name)
	if known && !infraTools[name] && dryShort[name].dry == 0 && !dryTools[name] && len(dryWords[name]) == 0 {
		return false // a tool the catalogue judges by its own words (git clean -n, find -name --dry-run)
	}
	says, end := false, len(args)
	for i, a := range args {
		switch {
		case !a.ok, a.s == "--", strings.ContainsRune(a.s, ' ') && !sqlOnly(a.s), runVerbs[a.s] && !dryShort[name].in(a.s), runsCommand(name, a.s):
			return false // bq query --dry_run 'DELETE FROM …': the query is what it is asked to check, not a command line
		case !known && dryShort[name].dry == 0 && !strings.HasPrefix(a.s, "-"):
			if namesProgram(a.s) {
				return false // mytool rm -rf ~ --dry-run: the operand may be a command it runs
			}
		case a.s == "--help" || a.s == "-help":
			says = true
		}
		if shells[name] && !strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "+") {
			end = i + 1
			break // sh script.sh -n: the script's own arguments
		}
	}
	if n := len(args); n > 0 && args[n-1].ok && args[n-1].s == "help" && infraTools[name] {
		says = true // aws s3 rm help
	}
	return says || dryRun(name, args[:end])
}

// dryRun reports whether args ask only to show what would be done: a dry
// run option (--dry-run, --dryrun, terraform state rm -dry-run,
// --dry-run=client), pulumi's --preview-only, --simulate, --no-act,
// chef's --why-run, puppet's --noop, or the tool's own short option
// (rsync -n, stow -n, sh -n, which parses the script and runs none of it;
// conda -d, chef-client -W). The last word that says wins: a value that
// says no (--dry-run=False, =f, =0, =no, =off, =none), a negation
// (--no-dry-run, --nodry_run, puppet's --no-noop) or an option that
// applies (--apply, --commit: applyOpts) after it runs for real.
func dryRun(name string, args []arg) bool {
	dry, operand := false, false
	for _, a := range args {
		if !a.ok {
			continue
		}
		opt, val, eq := strings.Cut(a.s, "=")
		switch {
		case dryOpts[opt]:
			dry = !eq || !saysNo(val)
		case negatesDry(opt), applyOpts[opt] && !(eq && saysNo(val)): // --dry-run --apply: the last word applies
			dry = false
		case contains(dryWords[name], a.s):
			dry = true
		case dryShort[name].in(a.s) && !(dryShort[name].global && operand):
			dry = true
		case !strings.HasPrefix(a.s, "-"):
			operand = true
		}
	}
	for _, a := range args {
		if dry && a.ok && contains(dryVoids[name], a.s) {
			return false // dnf remove --assumeno -y: the yes wins; xfs_repair -n -L zeroes the log
		}
	}
	return dry
}

// dryVoids are, for tools whose dry run another word overrides wherever
// it stands, those words: a yes to every prompt beside dnf's or apt's
// no to every prompt, xfs_repair's -L beside -n.
var dryVoids = map[string][]string{
	"dnf": {"-y", "--assumeyes"}, "yum": {"-y", "--assumeyes"}, "microdnf": {"-y", "--assumeyes"},
	"apt-get": {"-y", "--yes", "--assume-yes"}, "apt": {"-y", "--yes", "--assume-yes"}, "xfs_repair": {"-L"},
}

// dryWords are, for tools whose dry run is no spelling dryOpts knows,
// the words that ask for it, alone: LVM's -t and --test (metadata is not
// updated), rpm's --test (it goes through the motions).
var dryWords = func() map[string][]string {
	m := map[string][]string{
		"rpm": {"--test"}, "dnf": {"--assumeno"}, "yum": {"--assumeno"}, "microdnf": {"--assumeno"}, // a no to every prompt
		"apt-get": {"--assume-no"}, "apt": {"--assume-no"},
		"pacman": {"--print"}, "alembic": {"--sql"}, // alembic's offline mode prints the SQL
	}
	for _, lvm := range []string{"lvremove", "vgremove", "pvremove", "lvreduce", "lvresize", "lvextend", "lvchange", "vgchange",
		"lvcreate", "vgcreate", "pvcreate", "vgreduce", "vgextend", "pvmove", "lvconvert", "lvrename", "vgrename", "vgsplit", "vgmerge"} {
		m[lvm] = []string{"-t", "--test"}
	}
	return m
}()

// dryOpts are the long options that ask for a dry run.
var dryOpts = map[string]bool{
	"--dry-run": true, "--dryrun": true, "--dry_run": true, "--dryRun": true, "-dry-run": true, "--preview-only": true, "--simulate": true,
	"--no-act": true, "--just-print": true, "--recon": true, "--why-run": true, "--noop": true,
}

// saysNo reports whether an option's value turns it off.
func saysNo(val string) bool {
	switch strings.ToLower(val) {
	case "false", "f", "0", "no", "n", "off", "none":
		return true
	}
	return false
}

// negatesDry reports whether an option turns a dry run off: the dry-run
// option with no- or no before its name (--no-dry-run, --nodry_run,
// --no-noop, --no-why-run).
func negatesDry(opt string) bool {
	rest, ok := strings.CutPrefix(opt, "--no")
	if !ok {
		return false
	}
	rest = strings.TrimPrefix(rest, "-")
	return rest != "" && dryOpts["--"+rest]
}

// analysesOnly reports whether git's history rewriter is asked only to
// report: git filter-repo --analyze writes its report under
// .git/filter-repo and rewrites nothing, nor does --dry-run.
func analysesOnly(sub string, flags []arg) bool {
	return sub == "filter-repo" && hasFlag(flags, "", "--analyze", "--dry-run")
}

// ranAsAnotherOnlySays reports whether a command run as another user (sudo
// wipefs --no-act, sudo apt-get -s purge, sudo certbot renew --dry-run)
// was asked only to say what it would do: as root it changes nothing
// either. Only of a tool whose dry run the catalogue knows (dryTools,
// dryShort, dryWords): one it does not may not honour the option.
func ranAsAnotherOnlySays(cmd Command) bool {
	if !cmd.Resolved || len(cmd.Argv) == 0 {
		return false
	}
	name := path.Base(cmd.Argv[0])
	_, known := lookup(name)
	args := argsOf(cmd.Argv[1:]...)
	return (known || dryTools[name] || dryShort[name].dry != 0 || len(dryWords[name]) > 0) && dryVerb(name, args) && onlySays(name, args)
}

// dryVerbs are, for a tool whose dry run only some of its verbs honour,
// those verbs and the others it has: certbot's --dry-run works with renew
// and certonly, and delete, revoke or install ignore it.
var dryVerbs = map[string]struct{ honour, other []string }{
	"certbot": {[]string{"renew", "certonly"}, []string{"run", "delete", "revoke", "install", "register", "unregister",
		"update_account", "enhance", "rollback", "reconfigure", "update_symlinks", "plugins", "certificates"}},
}

// dryVerb reports whether a tool's words ask for a verb whose dry run
// the tool honours (dryVerbs): one it honours is there and no other.
// A tool not listed honours its dry run with every verb.
func dryVerb(name string, args []arg) bool {
	if name == "letsencrypt" {
		name = "certbot"
	}
	v, ok := dryVerbs[name]
	if !ok {
		return true
	}
	honoured := false
	for _, a := range args {
		switch {
		case slices.Contains(v.other, a.s):
			return false
		case slices.Contains(v.honour, a.s):
			honoured = true
		}
	}
	return honoured
}

// dryTools are tools whose dry run is known to change nothing, as root
// too, beyond the catalogue's handlers: configuration managers asked what
// they would converge (chef-client --why-run, puppet --noop), certbot's
// run against the staging CA (--dry-run), package managers' simulations
// (conda -d, dpkg --no-act, zypper --dry-run, apk -s), kubeadm --dry-run.
// Not ansible's --check: a task marked check_mode: no runs for real in
// it, and lookups (pipe) run on this machine whatever the mode, so what
// it does is what the playbook says, which the command may have written
// or tend cannot see.
var dryTools = map[string]bool{
	"certbot": true, "letsencrypt": true, "chef-client": true, "chef-solo": true, "cinc-client": true, "cinc-solo": true,
	"puppet": true, "kubeadm": true,
	"conda": true, "mamba": true, "micromamba": true, "dpkg": true, "zypper": true, "apk": true,
	"mc": true, "mcli": true, "nix-collect-garbage": true, // mc rm --dry-run, mc mirror --dry-run; nix-collect-garbage -d --dry-run
	"ufw": true, // ufw --dry-run deny 22
}

// namesProgram reports whether a word names a program the catalogue
// knows that does more than read.
func namesProgram(s string) bool {
	_, known := lookup(s)
	return known && !slices.Contains(readOnlyTools, s)
}

// runsCommand reports whether an option's value is a command the tool
// runs, as it does in a dry run too: certbot's --pre-hook, --post-hook,
// --deploy-hook and --manual-auth-hook, puppet's --prerun_command,
// mysql's --init-command, --exec, --execute (puppet's code, whose
// functions run as it is compiled: generate()), --script, or code
// attached to -e. Given as --opt=value or as --opt value, the option says
// so by its name.
func runsCommand(name, word string) bool {
	if len(word) > 2 && word[0] == '-' && word[1] == 'e' && dryTools[name] && dryShort[name].dry == 0 {
		return true // puppet apply -e'…': code given to the option
	}
	opt, _, _ := strings.Cut(word, "=")
	if !strings.HasPrefix(opt, "--") || strings.HasPrefix(opt, "--no-") {
		return false // helm --no-hooks turns them off
	}
	opt = strings.ToLower(opt)
	if runVerbs[opt] {
		return true
	}
	switch opt {
	case "--exec", "--execute", "--script", "--cmd", "--run":
		return true
	}
	for _, suffix := range []string{"hook", "-command", "_command", "-cmd", "_cmd", "-script", "_script", "-exec", "_exec"} {
		if strings.HasSuffix(opt, suffix) {
			return true
		}
	}
	return false
}

// sqlOnly reports whether a word is SQL statements and nothing else,
// which a tool asked for a dry run only checks or plans: each statement
// begins with an SQL verb, and the text is not a shell command line that
// runs a program the catalogue knows or one named by its path
// ('truncate -s0 main.go && rm -rf ~' begins with an SQL verb too).
func sqlOnly(s string) bool {
	for _, st := range strings.Split(s, ";") {
		if strings.TrimSpace(st) != "" && !sqlQuery.MatchString(st) {
			return false
		}
	}
	return !runsPrograms(s)
}

// runsPrograms reports whether text, parsed as a shell script, runs a
// program the catalogue knows or one named by its path. Text that does
// not parse as one runs nothing.
func runsPrograms(text string) bool {
	f, err := syntax.NewParser().Parse(strings.NewReader(text), "")
	if err != nil {
		return false
	}
	runs := false
	syntax.Walk(f, func(node syntax.Node) bool {
		if call, ok := node.(*syntax.CallExpr); ok && len(call.Args) > 0 {
			name := call.Args[0].Lit()
			if _, known := lookup(path.Base(name)); known || name == "" || strings.ContainsRune(name, '/') {
				runs = true
			}
		}
		return !runs
	})
	return runs
}

// sqlQuery is an SQL statement.
var sqlQuery = lazyRE(`(?i)^\s*(?:select|insert|update|delete|merge|create|drop|alter|truncate|with)\s`)

// dryShort is the short option by which a tool is asked for a dry run,
// with the short options it takes that have no value.
var dryShort = func() map[string]shortDry {
	apt := shortDry{dry: 's', flags: "yqdfmbuVv"}
	conda := shortDry{dry: 'd', flags: "yqv"}
	chef := shortDry{dry: 'W', flags: "z"}
	ext := shortDry{dry: 'n', flags: "cFjqSvDK"} // mke2fs -n: shows what it would make
	ntfs := shortDry{dry: 'n', flags: "fQqvFIT"} // mkntfs -n, --no-action
	m := map[string]shortDry{
		"rsync": {dry: 'n', flags: "vqcarRbudlLkKHpEAXogDtOJUNimyzhPxSWCF8s046I"}, "stow": {dry: 'n', flags: "vpDSR"},
		"apt-get": apt, "apt": apt, "aptitude": apt, "wipefs": {dry: 'n', flags: "afiqJ"},
		"conda": conda, "mamba": conda, "micromamba": conda, "apk": {dry: 's', flags: "vqiUr"},
		"chef-client": chef, "chef-solo": chef, "cinc-client": chef, "cinc-solo": chef,
		"mke2fs": ext, "mkfs.ext2": ext, "mkfs.ext3": ext, "mkfs.ext4": ext, "mkntfs": ntfs, "mkfs.ntfs": ntfs,
		"mkfs.xfs":   {dry: 'N', flags: "fqK"},                          // -N prints the parameters, makes nothing
		"port":       {dry: 'y', flags: "bcdfknNopqRsuv", global: true}, // MacPorts' -y, before the action
		"pkg":        {dry: 'n', flags: "aACDfgiIMqRUxy"},               // FreeBSD's and Solaris's pkg delete -n, install -n
		"rclone":     {dry: 'n', flags: "vqPicuILlxM"},
		"restic":     {dry: 'n', flags: "qvc"},
		"borg":       {dry: 'n', flags: "vsp"},
		"zfs":        {dry: 'n', flags: "rRfvdp"},      // zfs destroy -nv, receive -n
		"zpool":      {dry: 'n', flags: "fdFmNrRv"},    // zpool create -n, add -n, remove -n
		"pacman":     {dry: 'p', flags: "RSUsncudvyq"}, // pacman -Rsp: prints the targets
		"brew":       {dry: 'n', flags: "sdvq"},        // brew autoremove -n, cleanup -n
		"chezmoi":    {dry: 'n', flags: "vkR"},
		"nft":        {dry: 'c', flags: "nsaejtyo"},              // nft -c -f: checks the rules, loads none
		"pfctl":      {dry: 'n', flags: "deghmNOqrRvzP"},         // pfctl -nf: parses the rules, loads none
		"fsck":       {dry: 'N', flags: "AVRTMPsrl"},             // fsck -N: shows what it would run
		"xfs_repair": {dry: 'n', flags: "fPvdV"},                 // no-modify mode
		"cvs":        {dry: 'n', flags: "QqrtlfR", global: true}, // cvs -n update -C: changes no file
	}
	for _, sh := range shellNames {
		m[sh] = shortDry{dry: 'n', flags: "abefhikmprstuvxBCEHPTcl"}
	}
	return m
}()

// shortDry is a tool's short dry-run option (dry) and the short options
// it takes that have no value (flags); global: the option is the tool's
// own only before its first operand (port -y uninstall x; after the
// action, -y is the action's).
type shortDry struct {
	dry    byte
	flags  string
	global bool
}

// in reports whether word asks for the dry run by the short option: the
// option alone (-n) or in a group after options that take no value
// (rsync -avn, conda install -yd). After one that takes a value, or one
// not known to take none, the rest of the word is its value: conda
// remove -ndev names the environment dev, chef-client -jWEB.json a file.
func (d shortDry) in(word string) bool {
	if d.dry == 0 || len(word) < 2 || word[0] != '-' || word[1] == '-' {
		return false
	}
	for i := 1; i < len(word); i++ {
		switch c := word[i]; {
		case c == d.dry:
			return true
		case !strings.ContainsRune(d.flags, rune(c)):
			return false
		}
	}
	return false
}
