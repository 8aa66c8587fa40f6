package policy

import "strings"

// redactSubsts returns src with each command substitution whose output is
// a redacted read of secrets — names, a count or a fingerprint, never a
// value — put out of sight: "$(env | cut -d= -f1)" (the variables'
// names), "$(grep -c KEY .env)" (a count), "$(ssh-keygen -lf key)" (a
// fingerprint), "$(printenv | wc -l)". Words with no substitution come
// back as they are, at the cost of two byte searches.
func redactSubsts(src string) string {
	if !strings.Contains(src, "$(") && !strings.Contains(src, "`") {
		return src
	}
	var b strings.Builder
	for i := 0; i < len(src); {
		open, close := "", ""
		switch {
		case strings.HasPrefix(src[i:], "$("):
			open, close = "$(", ")"
		case src[i] == '`':
			open, close = "`", "`"
		default:
			b.WriteByte(src[i])
			i++
			continue
		}
		end := substEnd(src, i+len(open), close)
		if end < 0 || !redactingCode(src[i+len(open):end]) {
			b.WriteString(open)
			i += len(open)
			continue
		}
		b.WriteString("_")
		i = end + len(close)
	}
	return b.String()
}

// substEnd is the index of the close of a substitution whose text starts
// at i, or -1: the matching ) for $(…), the next ` for `…`.
func substEnd(src string, i int, close string) int {
	if close == "`" {
		if j := strings.IndexByte(src[i:], '`'); j >= 0 {
			return i + j
		}
		return -1
	}
	depth := 1
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// redactingCode reports whether a substitution's code is one pipeline
// whose last command prints no value of what it reads: wc's counts,
// grep -c, -l, -L or -q, cut -d= -f1's names, a digest, ssh-keygen -l's
// fingerprint. What comes before it (env, cat .env) is read but not
// passed on.
func redactingCode(code string) bool {
	if strings.ContainsAny(code, ";&\n$`<>") {
		return false // more than one pipeline, a redirection or a nested substitution: not judged
	}
	stages := strings.Split(code, "|")
	f := strings.Fields(stages[len(stages)-1])
	if len(f) == 0 {
		return false
	}
	flags := func(letters string) bool {
		for _, w := range f[1:] {
			if len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.ContainsAny(w[1:], letters) {
				return true
			}
		}
		return false
	}
	switch f[0] {
	case "wc", "sha256sum", "sha1sum", "sha512sum", "md5sum", "b2sum", "cksum":
		return true
	case "grep", "egrep", "fgrep", "rg":
		return flags("clLq") || hasWord(argsOf(f[1:]...), "--count", "--files-with-matches", "--files-without-match", "--quiet")
	case "cut":
		d, f1 := false, false
		for i := 1; i < len(f); i++ {
			w, next := strings.Trim(f[i], `"'`), ""
			if i+1 < len(f) {
				next = strings.Trim(f[i+1], `"'`)
			}
			switch {
			case w == "-d=" || w == "--delimiter==" || w == "-d" && next == "=":
				d = true
			case w == "-f1" || w == "--fields=1" || w == "-f" && next == "1":
				f1 = true
			case strings.HasPrefix(w, "-f") || strings.HasPrefix(w, "--fields") || w == "--complement":
				return false
			}
		}
		return d && f1
	case "ssh-keygen":
		return flags("l") && !flags("yep")
	}
	return false
}
