package policy

import (
	"slices"
	"strings"
)

// Tools that rewrite the files they are given in place, keeping no copy:
// image optimisers and converters (mogrify, jpegoptim, a lossy resize is
// for good), metadata strippers, line-ending converters, code formatters
// told to write, bulk renamers. Inside the working directory that is
// ordinary work; outside it nothing gives the old files back, as with
// sed -i (see inPlace).

// rewriter is how one such tool is told to edit in place: whether it
// does, given its arguments, and which of its operands are the files.
type rewriter struct {
	always  bool     // edits in place unless told otherwise (mogrify, dos2unix)
	when    []string // options that make it edit in place (-i, --write, -overwrite_original)
	unless  []string // options that make it write elsewhere or only look (-path, --check, -n)
	values  []string // options that take the next word as their value
	skipOps int      // leading operands that are not files (rename's expression)
	renames bool     // it renames the files rather than rewriting them
	edits   []string // prefixes of options that make it edit in place (metaflac --remove-all, --set-tag=)
	assigns bool     // an option that sets a value makes it edit in place (exiftool -all=, -Artist=x)
	keeps   string   // the copy it keeps of each file it edits, unless an option of when says not to (exiftool's x_original)
	runs    string   // the option giving it commands, which edit unless each is one of reads (kid3-cli -c)
	reads   []string // the commands of runs that only look
}

var rewriters = map[string]rewriter{
	"mogrify":   {always: true, unless: []string{"-path"}, values: mogrifyValues},
	"jpegoptim": {always: true, unless: []string{"-d", "--dest", "--stdout", "-n", "--noaction"}, values: []string{"-m", "--max", "-S", "--size", "-d", "--dest"}},
	"optipng":   {always: true, unless: []string{"-out", "-dir", "-simulate", "-keep", "-backup"}, values: []string{"-o", "-out", "-dir"}},
	"gifsicle":  {when: []string{"-b", "--batch"}, values: []string{"-O", "--colors", "--lossy", "--resize", "--scale"}},
	"exiftool": {when: []string{"-overwrite_original", "-overwrite_original_in_place", "-delete_original", "-delete_original!"},
		assigns: true, keeps: "_original", unless: []string{"-o", "-out", "-w", "-textOut", "-p", "-printFormat"},
		values: []string{"-ext", "--ext", "-extension", "-if", "-d", "-c", "-charset", "-lang", "-api", "-tagsFromFile", "-srcfile", "-geotag", "-x", "-exclude", "-fileOrder", "-i", "-ignore"}},
	// tag editors: each writes the tags into the audio file itself
	"metaflac":      {edits: []string{"--remove", "--set-", "--import-", "--add-", "--append", "--dont-use-padding", "--sort-padding"}},
	"id3v2":         {always: true, unless: []string{"-l", "--list", "-L", "--list-genres", "-f", "--list-frames", "-R", "--list-rfc822", "-h", "--help", "-v", "--version"}, values: id3Values},
	"mid3v2":        {always: true, unless: []string{"-l", "--list", "-L", "--list-genres", "-f", "--list-frames", "--list-raw", "-h", "--help", "--version"}, values: id3Values},
	"eyeD3":         {edits: []string{"--remove", "--add-", "--set-", "--to-v", "--rename", "--write", "--artist", "--album", "--title", "--track", "--genre", "--comment", "--lyrics", "--release-year", "--recording-date", "--publisher", "-a", "-A", "-t", "-n", "-N", "-G", "-Y", "-c", "-b", "-d"}, values: []string{"-P", "--plugin", "-l", "--log-level", "-a", "--artist", "-A", "--album", "-b", "--album-artist", "-t", "--title", "-n", "--track", "-N", "--track-total", "-G", "--genre", "-Y", "--release-year", "-c", "--comment", "-d", "--disc-num"}},
	"kid3-cli":      {runs: "-c", reads: []string{"get", "ls", "help", "select", "cd", "pwd", "exit", "timeout", "execute"}},
	"vorbiscomment": {when: []string{"-w", "--write", "-a", "--append"}, values: []string{"-t", "--tag", "-c", "--commentfile"}},
	"dos2unix":      {always: true, unless: []string{"-n", "--newfile", "-O", "--to-stdout", "-i", "--info"}},
	"unix2dos":      {always: true, unless: []string{"-n", "--newfile", "-O", "--to-stdout", "-i", "--info"}},
	"mac2unix":      {always: true, unless: []string{"-n", "--newfile", "-O", "--to-stdout", "-i", "--info"}},
	"unix2mac":      {always: true, unless: []string{"-n", "--newfile", "-O", "--to-stdout", "-i", "--info"}},
	"svgo":          {always: true, unless: []string{"-o", "--output", "--show-plugins"}, values: []string{"-p", "--precision", "--config"}},
	"mat2":          {when: []string{"--inplace"}},
	"qpdf":          {when: []string{"--replace-input"}},
	"clang-format":  {when: []string{"-i"}, values: []string{"--style", "-style"}},
	"prettier":      {when: []string{"--write", "-w"}, values: []string{"--config", "--parser"}},
	"black":         {always: true, unless: []string{"--check", "--diff", "--code", "-c"}, values: []string{"-l", "--line-length", "-t", "--target-version", "--config"}},
	"gofmt":         {when: []string{"-w"}},
	"goimports":     {when: []string{"-w"}},
	"shfmt":         {when: []string{"-w", "--write"}, values: []string{"-i", "--indent", "-ln", "--language-dialect"}},
	"yapf":          {when: []string{"-i", "--in-place"}, values: []string{"--style"}},
	"autopep8":      {when: []string{"-i", "--in-place"}},
	"rustfmt":       {always: true, unless: []string{"--check", "--emit"}, values: []string{"--edition", "--config-path"}},
	"rename":        {always: true, unless: []string{"-n", "--nono", "--dry-run", "--just-print", "-h", "--help"}, skipOps: 1, renames: true},
	"perl-rename":   {always: true, unless: []string{"-n", "--nono", "--dry-run", "--just-print"}, skipOps: 1, renames: true},
	"prename":       {always: true, unless: []string{"-n", "--nono", "--dry-run", "--just-print"}, skipOps: 1, renames: true},
	"file-rename":   {always: true, unless: []string{"-n", "--nono", "--dry-run", "--just-print"}, skipOps: 1, renames: true},
	"detox":         {always: true, unless: []string{"-n", "--dry-run"}, renames: true},
	"convmv":        {when: []string{"--notest"}, values: []string{"-f", "-t"}, renames: true},
}

// id3Values are the options of id3v2 and mid3v2 that take a value.
var id3Values = []string{"-a", "--artist", "-A", "--album", "-t", "--song", "-c", "--comment", "-g", "--genre", "-y", "--year", "-T", "--track", "--date"}

// mogrifyValues are ImageMagick's options that take a value (the common
// ones: -resize 10%, -quality 40); its other operands are the files.
var mogrifyValues = []string{"-resize", "-quality", "-format", "-path", "-rotate", "-crop", "-scale", "-thumbnail",
	"-colorspace", "-density", "-sampling-factor", "-interlace", "-gravity", "-extent", "-background", "-define", "-colors",
	"-depth", "-sharpen", "-blur", "-fill", "-draw", "-geometry", "-sample", "-type", "-compress"}

// rewritesInPlace judges a tool of rewriters by the files it rewrites
// (magick mogrify as mogrify); a tool the catalogue does not know is first
// judged by its words as any other.
func rewritesInPlace(iv *inv) {
	unknownTool(iv)
	args := iv.rest(1)
	name := iv.name
	if name == "magick" {
		if at(strs0(args), 0) != "mogrify" {
			return
		}
		name, args = "mogrify", args[1:]
	}
	rw := rewriters[name]
	edits, copies := rw.always, rw.keeps
	var files []arg
	skip := rw.skipOps
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			continue
		}
		opt, _, assigns := strings.Cut(a.s, "=")
		switch {
		case contains(rw.unless, opt):
			return
		case contains(rw.when, opt):
			edits, copies = true, ""
		case a.s == rw.runs && rw.runs != "" && i+1 < len(args):
			i++
			if word, _, _ := strings.Cut(strings.TrimSpace(args[i].s), " "); !args[i].ok || !contains(rw.reads, word) {
				edits = true // kid3-cli -c 'remove 2'
			}
		case strings.HasPrefix(a.s, "-") && slices.ContainsFunc(rw.edits, func(p string) bool { return strings.HasPrefix(opt, p) }):
			edits = true
			if contains(rw.values, a.s) {
				i++
			}
		case contains(rw.values, a.s):
			i++
		case rw.assigns && assigns && strings.HasPrefix(a.s, "-"): // exiftool -all= -Artist=x
			edits = true
		case strings.HasPrefix(a.s, "-") || strings.HasPrefix(a.s, "+") && name == "mogrify":
		case skip > 0:
			skip--
		default:
			files = append(files, a)
		}
	}
	if !edits {
		return
	}
	if copies != "" {
		iv.rewrites(files, name+" rewrites files in place, keeping each as a copy named with "+copies+" after it,")
		return
	}
	iv.inPlace(files)
}

// rewriterNames are the names in rewriters that converters does not
// have (writesOutput judges those), for the catalogue.
func rewriterNames() []string {
	names := make([]string, 0, len(rewriters))
	for n := range rewriters {
		if _, ok := converters[n]; !ok {
			names = append(names, n)
		}
	}
	return names
}
