package policy

import (
	"path"
	"slices"
	"strings"
)

// Installing packages by name from the distribution's configured
// repositories, as root (sudo apt-get install -y ripgrep), is a change to
// the machine of the kind every setup makes, and it removes nothing: it
// is not held. What stays held, as any change made as another user is:
// removing or purging, upgrading everything, options that allow a
// downgrade, the removal of essential or held packages, or unsigned
// packages, and a package file or URL (apt install ./x.deb, dnf install
// https://…/x.rpm, snap install --dangerous): the maintainer scripts of a
// package of unknown origin run as root. So does a server package
// (openssh-server, mysql-server): Debian's family starts the service it
// installs at once, listening on the network. And so, run as root or
// not, does a package that replaces what the machine itself runs on: a
// kernel, drivers built for it, firmware, a boot loader (nvidia-driver-550,
// linux-image-generic, grub-efi-amd64: machinePackage).

// repoInstaller is how one package manager installs from its repositories.
type repoInstaller struct {
	install map[string]bool // the verbs that install the packages named after them
	refresh map[string]bool // the verbs that only refresh the repositories' indexes, named nothing
	flags   map[string]bool // options that change neither what is installed nor from where
	values  map[string]bool // options of that kind that take a value (as the next word, or after =)
	short   string          // the letters of flags that may be joined (-qy)
}

var aptInstaller = repoInstaller{
	install: setOf("install"),
	refresh: setOf("update"),
	flags: setOf("-y", "--yes", "--assume-yes", "-q", "-qq", "--quiet", "--no-install-recommends", "--no-install-suggests",
		"--install-recommends", "--install-suggests", "-V", "--verbose-versions", "--no-upgrade", "--only-upgrade"),
	values: setOf("-t", "--target-release", "--default-release"),
	short:  "yqV",
}

var dnfInstaller = repoInstaller{
	install: setOf("install", "in"),
	refresh: setOf("makecache"),
	flags:   setOf("-y", "--assumeyes", "-q", "--quiet", "--refresh", "--best", "--skip-broken", "--setopt=install_weak_deps=False", "--nodocs"),
	values:  setOf("--enablerepo"),
	short:   "yq",
}

// repoInstallers are the package managers that install from the
// distribution's repositories.
var repoInstallers = map[string]repoInstaller{
	"apt": aptInstaller, "apt-get": aptInstaller, "aptitude": aptInstaller,
	"dnf": dnfInstaller, "yum": dnfInstaller, "microdnf": dnfInstaller,
	"zypper": {
		install: setOf("install", "in"),
		refresh: setOf("refresh", "ref"),
		flags: setOf("-n", "--non-interactive", "-q", "--quiet", "-y", "--no-confirm", "--no-recommends",
			"-l", "--auto-agree-with-licenses"),
		short: "nqyl",
	},
	"pacman": {
		install: setOf("-S", "--sync"),
		flags:   setOf("--needed", "--noconfirm", "-q", "--quiet", "--asdeps", "--asexplicit"),
	},
	"apk": {
		install: setOf("add"),
		refresh: setOf("update"),
		flags:   setOf("--no-cache", "-q", "--quiet", "-U", "--update-cache", "--no-progress"),
		values:  setOf("-t", "--virtual"),
		short:   "qU",
	},
	"snap": {
		install: setOf("install"),
		flags:   setOf("--classic", "--edge", "--beta", "--candidate", "--stable"),
		values:  setOf("--channel"),
	},
}

// quietEnv are the variables a package install is commonly given in front
// of it under sudo, which only keep it from asking questions.
var quietEnv = setOf("DEBIAN_FRONTEND", "NEEDRESTART_MODE", "NEEDRESTART_SUSPEND", "DEBCONF_NONINTERACTIVE_SEEN", "APT_LISTCHANGES_FRONTEND")

// repoPackage is a package named for the repositories: a name, perhaps
// with a version or an architecture, never a path or a URL.
var repoPackage = lazyRE(`^[A-Za-z0-9@][A-Za-z0-9.+_:=~@-]*$`)

// installsFromRepos reports whether a command run as another user only
// installs packages by name from the distribution's configured
// repositories (apt-get install -y ripgrep, dnf install jq, pacman -S
// --needed git, zypper in make, apk add curl, snap install code
// --classic) or refreshes their indexes (apt-get update).
func installsFromRepos(cmd Command) bool {
	if !cmd.Resolved || len(cmd.Argv) < 2 {
		return false
	}
	argv := cmd.Argv
	for len(argv) > 0 {
		name, _, ok := strings.Cut(argv[0], "=")
		if !ok || !quietEnv[name] {
			break
		}
		argv = argv[1:]
	}
	if len(argv) < 2 {
		return false
	}
	ri, ok := repoInstallers[path.Base(argv[0])]
	if !ok {
		return false
	}
	verb, named := "", 0
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case verb == "" && (ri.install[a] || ri.refresh[a]):
			verb = a
		case strings.HasPrefix(a, "-") && len(a) > 1:
			opt, _, inline := strings.Cut(a, "=")
			switch {
			case ri.flags[a]:
			case ri.values[opt]:
				if !inline {
					i++
				}
			case (a == "-o" || a == "--option") && i+1 < len(argv) && quietDpkg(argv[i+1]),
				strings.HasPrefix(a, "-o") && quietDpkg(a[2:]):
				if len(a) == 2 || a == "--option" {
					i++
				}
			case a[1] != '-' && ri.short != "" && strings.Trim(a[1:], ri.short) == "":
			default:
				return false
			}
		case verb == "" || ri.refresh[verb] || !repoPackage.MatchString(a) || strings.ContainsAny(a[len(a)-1:], "-_:=") || packageFile(a):
			return false // a verb of another kind, a package file, or apt's pkg- (remove it)
		case contains(words(a), "server"):
			return false // openssh-server: a service the install starts at once, listening on the network
		case machinePackage(a):
			return false // nvidia-driver-550, linux-image-generic: the machine's own kernel, drivers or boot loader
		default:
			named++
		}
	}
	return ri.refresh[verb] || ri.install[verb] && named > 0
}

// machinePackage reports whether a package of the repositories replaces
// what the machine itself runs on: a kernel (linux-image-*, linux-generic,
// pacman's linux-lts, dnf's kernel-core), kernel modules built for it
// (nvidia-driver-550, nvidia-dkms, zfs-dkms, akmod-nvidia, kmod-*),
// firmware and microcode, or a boot loader (grub-efi-amd64, shim-signed,
// systemd-boot). A bad one leaves the machine without a display, a
// network or a boot. Headers and tools for the kernel (linux-headers-*,
// linux-tools-*, kernel-devel) change none of it.
func machinePackage(name string) bool {
	name = strings.ToLower(name)
	if i := strings.IndexAny(name, "=:"); i > 0 {
		name = name[:i] // nvidia-driver-550=550.54.14-0ubuntu1, linux-image-generic:amd64
	}
	ws := words(name)
	if slices.ContainsFunc(ws, func(w string) bool { return auxWords[w] }) {
		return false // u-boot-tools, grub-common, linux-headers-generic, kernel-devel: tools, headers and docs for it
	}
	switch {
	case name == "linux" || name == "kernel" || name == "nvidia":
		return true
	case ws[0] == "linux" && len(ws) > 1:
		switch ws[1] {
		case "image", "modules", "generic", "signed", "oem", "hwe", "lowlatency", "kernel", "virtual", "firmware", "lts", "zen", "hardened", "rt", "aws", "azure", "gcp", "raspi":
			return true
		}
	case ws[0] == "kernel" && len(ws) > 1:
		switch ws[1] {
		case "core", "modules", "default", "lt", "ml", "rt", "uek", "image":
			return true
		}
	case ws[0] == "grub" || ws[0] == "grub2" || ws[0] == "shim" || ws[0] == "akmod" || ws[0] == "kmod" || ws[0] == "firmware" || name == "systemd-boot" || ws[0] == "u" && at(ws, 1) == "boot":
		return true
	}
	last := ws[len(ws)-1]
	return last == "dkms" || last == "firmware" || last == "microcode" ||
		contains(ws, "nvidia") && (contains(ws, "driver") || contains(ws, "drivers") || contains(ws, "kernel") || contains(ws, "open") || contains(ws, "dkms")) ||
		contains(ws, "cuda") && contains(ws, "drivers")
}

// installsMachine is the first package of machinePackage a package
// manager of repoInstallers is told to install, or "".
func installsMachine(name string, args []arg) string {
	ri, ok := repoInstallers[name]
	if !ok {
		return ""
	}
	installs := false
	for _, a := range args {
		switch {
		case !a.ok:
		case ri.install[a.s] || name == "pacman" && strings.HasPrefix(a.s, "-S") && !strings.ContainsAny(a.s[2:], "sicgpl"):
			installs = true
		case installs && !strings.HasPrefix(a.s, "-") && machinePackage(a.s):
			return a.s
		}
	}
	return ""
}

// auxWords are the words of a package's name that make it tools,
// headers, sources or documents for a kernel, a driver or a boot loader,
// not one.
var auxWords = setOf("tools", "utils", "doc", "docs", "dev", "devel", "headers", "source", "common", "libs")

// quietDpkg reports whether an apt -o option only tells dpkg which copy of
// a changed configuration file to keep.
func quietDpkg(s string) bool {
	switch strings.Trim(s, `"'`) {
	case "Dpkg::Options::=--force-confdef", "Dpkg::Options::=--force-confold", "Dpkg::Options::=--force-confnew", "Dpkg::Options::=--force-confmiss":
		return true
	}
	return false
}

// packageFile reports whether an operand names a package file, not a
// package of the repositories.
func packageFile(s string) bool {
	for _, ext := range []string{".deb", ".rpm", ".apk", ".snap", ".pkg.tar.zst", ".pkg.tar.xz", ".pkg.tar.gz"} {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}
