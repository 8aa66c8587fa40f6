package policy

import "strings"

// handler classifies one invocation by flagging it (and running what it
// wraps). A handler that flags nothing leaves the command ReadOnly.
type handler func(iv *inv)

// catalogue maps a command's base name to its handler. Commands not in it
// are Write, unless their words say they destroy state (see unknownTool).
// It is filled once, by the init below, and only read after that.
var catalogue map[string]handler

// lookup returns the handler for a command name, and whether the
// catalogue knows the command (else the handler is unknownTool).
func lookup(name string) (handler, bool) {
	if h, ok := catalogue[name]; ok {
		return h, true
	}
	switch {
	case strings.HasPrefix(name, "mkfs"):
		return mkfs, true
	case strings.HasSuffix(name, "flush") || strings.HasPrefix(name, "flush"): // memcflush, flushall-style tools
		return destroys("flushes what a server holds, deleting it"), true
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		if h, ok := catalogue["python"]; ok {
			return h, true
		}
	}
	if base := strings.TrimRight(name, "0123456789."); base != name { // lua5.4, ruby3.2, node18, perl5.36
		if h, ok := catalogue[base]; ok {
			return h, true
		}
	}
	return unknownTool, false
}

// readOnlyTools are the tools that only read.
var readOnlyTools = []string{
	"ls", "ll", "la", "dir", "cat", "bat", "grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep", "ug", "head", "tail",
	"less", "more", "wc", "cut", "tr", "echo", "printf", "pwd", "whoami", "id",
	"date", "printenv", "which", "type", "whereis", "file", "stat", "du", "df", "tree",
	"diff", "cmp", "comm", "jq", "true", "false", "test", "[", "basename", "dirname",
	"realpath", "readlink", "seq", "sleep", "uname", "hostname", "ps", "pgrep", "lsof", "journalctl", "dmesg",
	"man", "help", "nl", "od", "hexdump", "xxd", "md5sum", "sha1sum", "sha256sum",
	"sha512sum", "cksum", "column", "fold", "fmt", "paste", "join", "expand", "unexpand",
	"rev", "tac", "strings", "locale", "groups", "uptime", "free", "w", "who", "history",
	"jobs", "getconf", "nproc", "arch", "tty", "yes", "wait", ":", "cal", "top", "htop",
	"look", "zcat", "zgrep", "zless", "shasum", "b2sum", "numfmt", "lscpu",
	"lsblk", "dirs", "hash", "set", "shopt",
	"getent", "host", "dig", "nslookup", "ping", "base32", "ss", "netstat", "lsmod", "lsns", "lspci", "lsusb"}

// destroys returns a handler that marks every use Destructive; the reason
// follows the command name.
func destroys(reason string) handler {
	return func(iv *inv) { iv.flag(Destructive, iv.name+" "+reason) }
}

// init fills the catalogue from one table, so all of it reads in one place.
// It cannot be a map literal at package level: handlers that run another
// command (sudo, xargs, bash -c …) reach lookup, which reads catalogue, and
// Go refuses a variable whose initializer refers back to the variable
// through the functions it calls (an initialization cycle).
func init() {
	catalogue = map[string]handler{}
	for _, e := range []struct {
		h     handler
		names []string
	}{
		{reader, readOnlyTools},

		// The working directory, tracked for the commands after it.
		{cd, []string{"cd", "pushd"}},
		{popd, []string{"popd"}},

		// File-system deletes and writes.
		{rm, []string{"rm", "unlink", "srm", "trash-put"}},
		{rimraf, []string{"rimraf", "del-cli"}},
		{find, []string{"find"}},
		{fdFind, []string{"fd", "fdfind"}},
		{chmodR, []string{"chmod", "chown", "chgrp", "setfacl"}},
		{dd, []string{"dd", "dcfldd", "dc3dd"}},
		{truncate, []string{"truncate"}},
		{mv, []string{"mv"}},
		{rsync, []string{"rsync"}},
		{tee, []string{"tee", "sponge"}},
		{outputFile, []string{"uniq", "sort", "shuf"}},
		{split, []string{"split", "csplit"}},
		{fallocate, []string{"fallocate"}},
		{sed, []string{"sed"}},
		{shred, []string{"shred"}},

		// Disks: formatting, wiping, partitioning (mkfs and mkfs.*: see lookup).
		{mkfs, []string{"mke2fs", "mkswap"}},
		{destroys("formats or erases a disk"), []string{"blkdiscard", "wipe"}},
		{wipefs, []string{"wipefs"}},
		{fdisk, []string{"fdisk", "sfdisk", "parted", "gdisk", "sgdisk", "cfdisk"}},
		{qemuImg, []string{"qemu-img"}},

		// Git, and what rewrites a repository's history.
		{git, []string{"git"}},
		{gitProgram, []string{"git-filter-repo", "git-filter-branch"}},
		{bfg, []string{"bfg"}},

		// Databases.
		{sqlClient([]string{"-c", "--command"}, false), []string{"psql"}},
		{sqlClient([]string{"-e", "--execute", "--init-command"}, false), []string{"mysql", "mariadb"}},
		{sqlClient([]string{"-c", "--command", "-cmd"}, true), []string{"sqlite3", "sqlite", "duckdb"}},
		{sqlClient([]string{"-q", "--query"}, false), []string{"clickhouse-client", "cockroach"}},
		{sqlClient([]string{"-Q", "-q"}, false), []string{"sqlcmd", "osql"}},
		{sparkSQL, []string{"spark-sql"}},
		{mongo, []string{"mongosh", "mongo"}},
		{dropdb, []string{"dropdb", "dropdb.exe"}},
		{destroys("deletes a database user"), []string{"dropuser"}},
		{redis, []string{"redis-cli", "valkey-cli"}},
		{pgCtl, []string{"pg_ctl"}},
		{minioClient, []string{"mc", "mcli"}},

		// Other version control, and environments outside the project.
		{vcsDiscard, []string{"svn", "hg", "sl", "fossil", "jj", "darcs", "bzr", "brz", "cvs", "pijul"}},
		{condaEnv, []string{"conda", "mamba", "micromamba"}},

		// Infrastructure: clusters, containers, clouds.
		{kubectl, []string{"kubectl", "oc", "k"}},
		{docker, []string{"docker", "podman", "nerdctl"}},
		{dockerCompose, []string{"docker-compose", "podman-compose"}},
		{composeWrapper, []string{"sail", "ddev", "lando"}},
		{flashrom, []string{"flashrom"}},
		{localCluster, []string{"kind", "k3d", "minikube"}},
		{terraform, []string{"terraform", "tofu", "terragrunt"}},
		{aws, []string{"aws"}},
		{cloudVerb, []string{"gcloud", "az", "gh", "doctl", "heroku", "flyctl", "fly", "vercel", "netlify", "gsutil", "firebase", "supabase"}},
		{verbClass("helm", []string{"-n", "--namespace", "--kube-context", "-f", "--values", "--set"},
			[]string{"list", "ls", "status", "get", "show", "template", "search", "history", "version", "lint", "env"},
			map[string]string{"uninstall": "removes a release", "delete": "removes a release", "del": "removes a release", "un": "removes a release"}),
			[]string{"helm"}},
		{verbClass("pulumi", []string{"-s", "--stack", "-C", "--cwd"},
			[]string{"preview", "stack", "whoami", "version", "about", "logs"},
			map[string]string{"destroy": "deletes infrastructure"}),
			[]string{"pulumi"}},

		// The machine: processes, services, firewall, cron, power, users.
		{machineTool, []string{"sysctl", "setenforce", "kexec", "timedatectl", "hwclock", "modprobe", "insmod", "update-rc.d",
			"chkconfig", "useradd", "adduser", "visudo", "tc", "ip", "ifconfig", "nmcli", "rfkill", "wg-quick", "badblocks",
			"cryptsetup", "mdadm", "losetup", "swapon"}},
		{mount, []string{"mount", "umount"}},
		{signals, []string{"kill", "pkill", "killall", "killall5", "skill", "slay", "fuser"}},
		{service, []string{"service"}},
		{passwd, []string{"passwd"}},
		{destroys("changes or locks user accounts"), []string{"usermod", "chpasswd", "chage", "groupdel", "delgroup", "gpasswd", "chsh", "chfn"}},
		{dbus, []string{"busctl", "dbus-send", "gdbus", "qdbus"}},
		{destroys("removes storage volumes"), []string{"lvremove", "vgremove", "pvremove", "lvreduce"}},
		{destroys("unloads kernel modules"), []string{"rmmod"}},
		{destroys("turns swap off"), []string{"swapoff"}},
		{pkgManager, []string{"apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman", "apk", "snap", "flatpak", "dpkg", "rpm", "port", "nix-env", "emerge", "pkg", "brew"}},
		{nixGC, []string{"nix-collect-garbage"}},
		{cp, []string{"cp", "install"}},
		{cmake, []string{"cmake"}},
		{ln, []string{"ln", "link"}},
		{stow, []string{"stow", "xstow"}},
		{tar, []string{"tar", "bsdtar", "gtar"}},
		{extractor, []string{"unzip", "7z", "7za", "7zr", "7zz", "unrar", "unar", "cpio", "pax", "ditto", "unsquashfs"}},
		{zip, []string{"zip"}},
		{patch, []string{"patch"}},
		{rewritesInPlace, rewriterNames()},
		{writesOutput, converterNames()},
		{launchctl, []string{"launchctl"}},
		{windowsPackages, []string{"choco", "winget", "scoop"}},
		{systemctl, []string{"systemctl"}},
		{iptables, []string{"iptables", "ip6tables", "iptables-legacy", "iptables-nft"}},
		{nft, []string{"nft"}},
		{ufw, []string{"ufw"}},
		{crontab, []string{"crontab"}},
		{destroys("stops the machine"), []string{"shutdown", "reboot", "halt", "poweroff"}},
		{telinit, []string{"init", "telinit"}},
		{destroys("deletes a user account"), []string{"userdel", "deluser"}},
		{cancelsJobs, []string{"scancel", "qdel", "bkill", "condor_rm"}},
		{simctl, []string{"simctl"}},

		// Interpreters: their inline code is looked at (other python* and pypy*
		// names: see lookup).
		{interp("-c"), []string{"python", "python2", "python3", "pypy", "pypy3"}},
		{interp("-e", "--eval", "-p", "--print"), []string{"node", "nodejs", "bun"}},
		{interp("-e", "-E"), []string{"perl"}},
		{interp("-e"), []string{"ruby"}},
		{interp("-r"), []string{"php"}},
		{interp("eval"), []string{"deno"}},
		{interp("-e"), []string{"lua", "luajit", "Rscript", "R", "julia"}},
		{interp("-c", "-Command", "-command"), []string{"pwsh", "powershell"}},
		{cmdExe, []string{"cmd"}},
		{wsl, []string{"wsl"}},
		{wslconfig, []string{"wslconfig"}},
		{interp(), []string{"tclsh", "wish", "jimsh"}},
		{interp("-e"), []string{"osascript"}},
		{nmap, []string{"nmap"}},
		{adb, []string{"adb"}},
		{tcpdump, []string{"tcpdump"}},
		// Other languages' interpreters and toplevels: code given inline, or
		// read from stdin when no script is named (echo '…' | ocaml -stdin).
		{interp("-e", "--eval", "-eval"), []string{"ocaml", "utop", "racket", "elixir", "iex", "erl", "groovy", "scala", "ghc", "ghci",
			"raku", "perl6", "janet", "bb", "clojure", "clj", "qjs", "d8", "rhino", "sbcl", "ecl", "gosh", "csi", "fennel", "jshell", "kotlin"}},
		{interp("-c"), []string{"guile", "gjs"}},
		{interp("-x"), []string{"clisp"}},
		{interp("-r", "-batch", "--eval"), []string{"matlab", "octave", "octave-cli"}},
		{interp("-g", "-t"), []string{"swipl"}},
		{awk, []string{"awk", "gawk", "mawk", "nawk", "busybox-awk"}},

		// Network: downloads and senders.
		{curl, []string{"curl", "wget", "http", "https", "xh", "aria2c"}},
		{netSend, []string{"nc", "ncat", "netcat", "socat", "telnet", "openssl"}},
		{mqttPub, []string{"mosquitto_pub"}},

		// Shells and the builtins that run code: the code is re-parsed.
		{shellCmd, shellNames},
		{eval, []string{"eval"}},
		{source_, []string{"source", "."}},
		{trap, []string{"trap"}},
		{alias, []string{"alias"}},
		{unset, []string{"unset"}},
		{ssh, []string{"ssh"}},
		{sshKeygen, []string{"ssh-keygen"}},
		{editor, []string{"vi", "vim", "nvim", "ex", "view", "emacs", "nano", "pico", "joe", "micro"}},
		{atCmd, []string{"at", "batch"}},
		{ed, []string{"ed", "red"}},

		// Wrappers: the command they run is classified as usual.
		{sudo, []string{"sudo", "doas", "run0", "pkexec"}},
		{env, []string{"env"}},
		{timeout, []string{"timeout", "gtimeout"}},
		{command, []string{"command"}},
		{wrapper(), []string{"builtin", "nohup", "unbuffer", "caffeinate"}},
		{wrapper("-n", "--adjustment"), []string{"nice", "renice-run"}},
		{wrapper("-c", "-n", "--class", "--classdata"), []string{"ionice"}},
		{wrapper("-i", "-o", "-e", "--input", "--output", "--error"), []string{"stdbuf"}},
		{wrapper(), []string{"setsid"}},
		{taskset, []string{"taskset", "chrt"}},
		{xargs, []string{"xargs"}},
		{parallel, []string{"parallel"}},
		{execBuiltin, []string{"exec"}},
		{timeCmd, []string{"time"}},
		{watch, []string{"watch"}},
		{tendRun, []string{"tend"}},
		{flock, []string{"flock"}},
		{busybox, []string{"busybox", "toybox"}},
		{chrootCmd, []string{"chroot"}},
		{npx, []string{"npx", "bunx", "pnpx"}},
		{su, []string{"su", "runuser"}},
		{scriptCmd, []string{"script"}},
		{wrapper("-o", "-e", "-p", "-s", "-u", "-E", "-a", "-I", "-b", "-X", "-P", "-n", "-l", "-L", "-S", "-O"), []string{"strace", "ltrace"}},
		{systemdRun, []string{"systemd-run"}},
		{wrapper("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-w", "--wd", "-r", "--root"), []string{"nsenter"}},
		{wrapper("-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file"), []string{"xvfb-run"}},
		{wrapper("-f", "-q"), []string{"proxychains", "proxychains4", "torsocks", "tsocks"}},
		{wrapper("--sdk", "-sdk", "--toolchain", "-toolchain"), []string{"xcrun"}},
		{wrapper(), []string{"unshare", "firejail", "dbus-run-session", "fakeroot", "valgrind", "chronic", "catchsegv"}},
	} {
		for _, n := range e.names {
			if _, dup := catalogue[n]; dup {
				panic("policy: " + n + " is in the catalogue twice")
			}
			catalogue[n] = e.h
		}
	}
}

// shellNames are the shells, which run code given with -c.
var shellNames = []string{"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "fish", "tcsh", "csh", "rbash"}

// shells is shellNames as a set.
var shells = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range shellNames {
		m[n] = true
	}
	return m
}()
