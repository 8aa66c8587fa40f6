package policy

import (
	"regexp"
	"strings"
)

// Interpreter one-liners (python -c, node -e, perl -e, ruby -e, awk
// programs) are not parsed; they are scanned for the obvious: shell-outs
// with a literal command (re-parsed as shell) and recursive-delete APIs
// (judged by their literal path, destructive when it is not literal).

var (
	// shellOut matches a call that runs a shell command; the argument
	// follows the match.
	shellOut = regexp.MustCompile(`(?:\bos\.execute|\bsystem2|\bos\.system|\bos\.popen|\bsubprocess\.(?:run|call|Popen|check_call|check_output|getoutput|getstatusoutput)|\bexecSync|\bspawnSync|\bexec|\bspawn|\bsystem|\bpopen|\bqx|%x|\bIO\.popen|\bOpen3\.\w+|\bshell_exec|\bpassthru|\bproc_open)\s*\(\s*`)
	// treeDelete matches a recursive delete; its path argument follows.
	treeDelete = regexp.MustCompile(`(?:\bshutil\.rmtree|\brmtree|\bremove_tree|\brmSync|\bfs\.rm|\bfs\.promises\.rm|\bfsPromises\.rm|\brimraf(?:\.sync)?|\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)|\bDir\.rmdir|\bDeno\.remove|\bBun\.\$)\s*\(\s*`)
	// fileDelete matches deleting or emptying one file; its path follows.
	fileDelete = regexp.MustCompile(`(?:\bos\.(?:remove|unlink|rmdir|removedirs)|\bfs\.(?:unlinkSync|unlink|rmdirSync|rmdir|truncateSync|truncate|writeFileSync)|\bFile\.(?:delete|unlink)|\bFileUtils\.rm(?:_f)?|\bFiles\.delete(?:IfExists)?|\bfile\.remove|\bunlink|\brmdir|\btruncate)(?:\s*\(\s*|\s+)(?:glob\s*\(?\s*)?`)
	// homeRef is a path computed from the home directory.
	homeRef = regexp.MustCompile(`^(?:os\.path\.expanduser|os\.homedir|Path\.home|path\.join\(\s*os\.homedir|Dir\.home|ENV\[.HOME.\]|\$ENV\{.?HOME.?\}|os\.environ\[.HOME.\]|Sys\.getenv\(.HOME.\)|os\.getenv\(.HOME.\)|getenv\(.HOME.\)|process\.env\.HOME|File\.expand_path|glob\()`)
	// secretRef is a secrets file named in code, and netRef a way to send it.
	secretRef = regexp.MustCompile(`\.ssh/|\bid_(?:rsa|ed25519|ecdsa)|\.aws/credentials|\.aws/config|\.gnupg|\.kube/config|\.netrc|\.git-credentials|\.docker/config\.json|\.config/gh/hosts|\.npmrc|\.pypirc|/etc/shadow|['"/]\.env\b|\bos\.environ\b|\bprocess\.env\b|\bENV\.to_h|%ENV\b`)
	netRef    = regexp.MustCompile(`\burllib|\brequests\.|\bhttp\.client|\bhttpx|\bsocket\b|\bfetch\s*\(|\baxios|\bhttps?\.request|\bNet::HTTP|\bLWP|\bHTTP::Tiny|\bIO::Socket|\bcurl|\bsmtplib|\bftplib|\bparamiko|https?://`)
	// pipeToShell is awk's print | "sh" and the like.
	pipeToShell = regexp.MustCompile(`\|\s*"(?:/bin/)?(?:ba|z|da)?sh\b`)
)

// interpCode checks interpreter code.
func (iv *inv) interpCode(code arg) {
	iv.flag(Write, "")
	if !code.ok {
		iv.flag(Unparseable, iv.name+" runs code computed at run time: "+code.shown())
		return
	}
	s := code.s
	for _, m := range shellOut.FindAllStringIndex(s, 8) {
		rest := s[m[1]:]
		if lit, ok := stringLit(rest); ok {
			iv.shell(arg{s: lit, ok: true, src: lit}, iv.sc)
			continue
		}
		if list, ok := stringList(rest); ok {
			iv.c.run(argsOf(list...), iv.sc, source{}, iv.depth+1)
			continue
		}
		iv.flag(Unparseable, iv.name+" one-liner runs a command computed at run time")
	}
	if pipeToShell.MatchString(s) {
		iv.flag(Unparseable, iv.name+" program pipes its output into a shell")
	}
	if secretRef.MatchString(s) && netRef.MatchString(s) {
		iv.flag(Destructive, iv.name+" one-liner reads a secrets file or the environment and opens a network connection")
	}
	for _, m := range fileDelete.FindAllStringIndex(s, 8) {
		fn := strings.TrimRight(s[m[0]:m[1]], "( \t")
		rest := s[m[1]:]
		lit, ok := stringLit(rest)
		if !ok {
			if homeRef.MatchString(rest) {
				iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes a file under the home directory")
			}
			continue
		}
		t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(lit), ok: true, src: lit})
		if why := iv.c.danger(t); why != "" {
			iv.flag(Destructive, phrase(iv.name+" one-liner "+fn, why)+": "+iv.c.show(t))
		}
	}
	for _, m := range treeDelete.FindAllStringIndex(s, 8) {
		fn := strings.TrimRight(s[m[0]:m[1]], "( \t")
		rest := s[m[1]:]
		lit, ok := stringLit(rest)
		if !ok {
			iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes a directory tree computed at run time")
			continue
		}
		t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(lit), ok: true, src: lit})
		if why := iv.c.danger(t); why != "" {
			iv.flag(Destructive, phrase(iv.name+" one-liner "+fn, why)+": "+iv.c.show(t))
		}
	}
}

// stringLit reads a quoted string literal at the start of s.
func stringLit(s string) (string, bool) {
	lit, _, ok := stringLitN(s)
	return lit, ok
}

// stringLitN is stringLit that also returns the length consumed.
func stringLitN(s string) (string, int, bool) {
	if s == "" || !strings.ContainsRune(`'"`+"`", rune(s[0])) {
		return "", 0, false
	}
	q := s[0]
	var sb strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			default:
				sb.WriteByte(s[i])
			}
		case c == q:
			return sb.String(), i + 1, true
		default:
			sb.WriteByte(c)
		}
	}
	return "", 0, false
}

// stringList reads ["a", "b", …] (a Python or JS list of literals).
func stringList(s string) ([]string, bool) {
	if !strings.HasPrefix(s, "[") {
		return nil, false
	}
	s = strings.TrimSpace(s[1:])
	var out []string
	for {
		lit, n, ok := stringLitN(s)
		if !ok {
			return nil, false
		}
		out = append(out, lit)
		s = strings.TrimSpace(s[n:])
		switch {
		case strings.HasPrefix(s, ","):
			s = strings.TrimSpace(s[1:])
		case strings.HasPrefix(s, "]"):
			return out, true
		default:
			return nil, false
		}
	}
}

// interp builds a handler for an interpreter whose code options are listed;
// clustered short options ending in e (perl -pe, -ne) also take code.
func interp(codeOpts ...string) handler {
	return func(iv *inv) {
		iv.flag(Write, "")
		args := iv.rest(1)
		for i := 0; i < len(args); i++ {
			a := args[i]
			if !a.ok {
				continue
			}
			isCode := contains(codeOpts, a.s) ||
				(iv.name == "perl" && strings.HasPrefix(a.s, "-") && !strings.HasPrefix(a.s, "--") && strings.ContainsAny(a.s[len(a.s)-1:], "eE"))
			if isCode && i+1 < len(args) {
				iv.interpCode(args[i+1])
				return
			}
			for _, o := range codeOpts {
				if strings.HasPrefix(o, "--") && strings.HasPrefix(a.s, o+"=") {
					iv.interpCode(arg{s: strings.TrimPrefix(a.s, o+"="), ok: true})
					return
				}
			}
			if a.s == "-" || !strings.HasPrefix(a.s, "-") {
				if a.s != "-" { // a script file: ordinary work, unless this command wrote it or its words say otherwise (manage.py flush)
					if !iv.runsWritten(a, iv.interpCode) {
						verbEffect(iv)
					}
					return
				}
				break
			}
			if a.s == "-m" { // python -m module
				verbEffect(iv)
				return
			}
		}
		// No code and no script: the interpreter runs its stdin.
		iv.runStdin(iv.interpCode, "code")
	}
}

// awk's program is its first operand unless -f gives a file.
func awk(iv *inv) {
	args := iv.rest(1)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			iv.flag(Unparseable, "awk program computed at run time: "+a.shown())
			return
		}
		switch {
		case a.s == "-f" || a.s == "--file":
			iv.flag(Write, "")
			return
		case a.s == "-v" || a.s == "-F" || a.s == "--assign" || a.s == "--field-separator":
			i++
		case a.s == "--":
		case strings.HasPrefix(a.s, "-"):
		default:
			if strings.Contains(a.s, "system") || pipeToShell.MatchString(a.s) || strings.Contains(a.s, "getline") {
				iv.interpCode(a)
			}
			if regexp.MustCompile(`print[^;}]*>`).MatchString(a.s) {
				iv.flag(Write, "")
			}
			return
		}
	}
}

// tilde expands a leading ~ in a path written in code (R, Ruby and Perl's
// glob expand it; Python and Node do not, but a path under a directory
// named ~ is no better).
func (c *classifier) tilde(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		return c.home + p[1:]
	}
	return p
}
