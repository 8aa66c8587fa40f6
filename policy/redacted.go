package policy

import (
	"slices"
	"strings"
)

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

// tokenVendors are the hosts a command's token is made for: the token
// it prints, sent in an Authorization header to one of them, signs in to
// the service that issued it.
func tokenVendor(f []string) []string {
	switch {
	case len(f) == 3 && f[0] == "gh" && f[1] == "auth" && f[2] == "token":
		return []string{"github.com", "githubusercontent.com", "ghcr.io"}
	case len(f) >= 3 && f[0] == "gcloud" && f[1] == "auth" && (f[2] == "print-access-token" || f[2] == "application-default" && len(f) >= 4 && f[3] == "print-access-token"):
		return []string{"googleapis.com", "pkg.dev", "gcr.io"}
	case len(f) >= 3 && f[0] == "gcloud" && f[1] == "auth" && f[2] == "print-identity-token":
		return []string{"run.app", "cloudfunctions.net", "googleapis.com"}
	case len(f) >= 3 && f[0] == "az" && f[1] == "account" && f[2] == "get-access-token":
		return []string{"azure.com", "azure.net", "windows.net", "microsoft.com", "azurecr.io"}
	}
	return nil
}

// authClients are HTTP clients ownVendorAuth judges.
var authClients = map[string]bool{"curl": true, "http": true, "https": true, "xh": true, "xhs": true, "wget": true}

// clientHosts are the hosts an HTTP client's words send to, or nil when
// one is computed at run time or an option sends the request elsewhere
// (a proxy, --resolve, --connect-to, a config file, a second request).
func clientHosts(words []string, known []bool) []string {
	var hosts []string
	for i, s := range words {
		switch {
		case !known[i] && strings.Contains(s, "://"):
			return nil
		case !known[i]:
		case s == "-x" || s == "-K" || s == "-:" || strings.HasPrefix(s, "--proxy") || strings.HasPrefix(s, "--resolve") ||
			strings.HasPrefix(s, "--connect-to") || strings.HasPrefix(s, "--config") || s == "--next" || strings.HasPrefix(s, "--location-trusted"):
			return nil
		case strings.Contains(s, "://"):
			_, rest, _ := strings.Cut(s, "://")
			if i := strings.IndexAny(rest, "/?#"); i >= 0 {
				rest = rest[:i]
			}
			if i := strings.LastIndexByte(rest, '@'); i >= 0 {
				rest = rest[i+1:]
			}
			if i := strings.IndexByte(rest, ':'); i >= 0 {
				rest = rest[:i]
			}
			if rest == "" {
				return nil
			}
			hosts = append(hosts, strings.ToLower(rest))
		}
	}
	return hosts
}

// ownVendorAuth reports whether a word of an HTTP client is an
// Authorization header (or -u's, --oauth2-bearer's value) whose one
// substitution prints a token (tokenVendor) and every host the client
// sends to is that token's issuer's: curl -H "Authorization: Bearer $(gh
// auth token)" https://api.github.com/user signs in, and sends the token
// nowhere else. A token for host A sent to host B, or to a host computed
// at run time, is not this.
func ownVendorAuth(text, prev string, hosts []string) bool {
	if len(hosts) == 0 {
		return false
	}
	h := strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(text, `"'`), "--header="), `"'`)
	if !(len(h) > 14 && strings.EqualFold(h[:14], "Authorization:") || prev == "-u" || prev == "--user" || prev == "--oauth2-bearer") {
		return false
	}
	i := strings.Index(text, "$(")
	if i < 0 || strings.Count(text, "$(") != 1 || strings.Contains(text, "`") {
		return false
	}
	end := substEnd(text, i+2, ")")
	if end < 0 || strings.ContainsAny(text[i+2:end], "|;&<>$") {
		return false
	}
	vendor := tokenVendor(strings.Fields(text[i+2 : end]))
	if vendor == nil {
		return false
	}
	for _, host := range hosts {
		if !slices.ContainsFunc(vendor, func(v string) bool { return host == v || strings.HasSuffix(host, "."+v) }) {
			return false
		}
	}
	return true
}
