package policy

import (
	"regexp"
	"strings"
)

// curl and wget: upload of the environment or a secrets file is
// exfiltration (env | curl -d @- …).
func curl(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	dataOpts := []string{"-d", "--data", "--data-binary", "--data-raw", "--data-urlencode", "--data-ascii",
		"-F", "--form", "-T", "--upload-file", "--json", "--post-file", "--body-file"}
	for i, a := range args {
		if !a.ok {
			continue
		}
		if (a.s == "-o" || a.s == "--output" || (iv.name == "wget" && a.s == "-O")) && i+1 < len(args) {
			iv.c.wrote(iv.sc, args[i+1], source{kind: srcDownload}, false)
		} else if f, ok := strings.CutPrefix(a.s, "--output-document="); ok {
			iv.c.wrote(iv.sc, arg{s: f, ok: true, src: f}, source{kind: srcDownload}, false)
		}
		val, isData := "", false
		for _, o := range dataOpts {
			if a.s == o && i+1 < len(args) {
				val, isData = args[i+1].s, true
			} else if strings.HasPrefix(o, "--") && strings.HasPrefix(a.s, o+"=") {
				val, isData = strings.TrimPrefix(a.s, o+"="), true
			}
		}
		if !isData {
			continue
		}
		if i+1 < len(args) && !args[i+1].ok && secretSubst.MatchString(args[i+1].src) {
			iv.flag(Destructive, iv.name+" uploads the environment or a secrets file: "+args[i+1].shown())
			continue
		}
		_, file, hasAt := strings.Cut(val, "@")
		if !hasAt && (a.s == "-T" || a.s == "--upload-file" || strings.HasPrefix(a.s, "--post-file") || strings.HasPrefix(a.s, "--body-file")) {
			file, hasAt = val, true
		}
		file, _, _ = strings.Cut(file, ";")
		switch {
		case hasAt && file == "-" && iv.in.kind == srcSecret:
			iv.flag(Destructive, iv.name+" uploads the environment or a secrets file")
		case hasAt && file == "-" && iv.in.kind == srcPipe:
			// Unknown data from a pipe: ordinary upload.
		case hasAt && isSecretPath(file):
			iv.flag(Destructive, iv.name+" uploads a secrets file: "+file)
		}
	}
}

// secretSubst matches a command substitution that reads the environment
// or a secrets file: curl -d "$(env)".
var secretSubst = regexp.MustCompile(`\$\(\s*(env|printenv|set|export -p|declare -x)\s*\)|(\$\(|\x60)\s*(cat|base64|head|tail|tar|gpg|xxd|od|gzip|sed|awk|grep|<)\b?[^)]*(\.env\b|\.ssh/|\.aws/|\.netrc|credentials|id_rsa|id_ed25519|id_ecdsa|\.gnupg|\.kube/config|\.git-credentials|\.npmrc|\.pypirc|/etc/shadow|\.docker/config|hosts\.yml)|\$\(\s*(gh auth token|aws configure export-credentials|gcloud auth print-access-token|gcloud auth print-identity-token|az account get-access-token|kubectl config view --raw)`)

// netcat-like senders forward stdin.
func netSend(iv *inv) {
	iv.flag(Write, "")
	if iv.in.kind == srcSecret {
		iv.flag(Destructive, iv.name+" sends the environment or a secrets file over the network")
	}
}
