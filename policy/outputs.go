package policy

import (
	"path"
	"slices"
	"strings"
)

// Converters and encoders write the file they are told to: ffmpeg, sox,
// ImageMagick's convert, Ghostscript, pandoc, qpdf, pdftk, LibreOffice's
// --convert-to, cwebp, pngquant, HandBrakeCLI … Their output is judged as
// cp's destination is (writeTarget): in the working directory or a temp
// dir it is ordinary work; outside it, a file that is there already is
// written over, and nothing gives it back. One whose output is its own
// input (gs -o a.pdf a.pdf, pandoc {} -o {}) loses the input whatever
// it finds there.

// converter is how one such tool names its output.
type converter struct {
	out     []string // options whose value is the output file (-o, --output)
	outJoin []string // prefixes of one word that holds it (-sOutputFile=, -o…)
	outDir  []string // options whose value is the output directory (libreoffice --outdir)
	last    bool     // the last operand is the output (convert in out, qpdf in out)
	all     bool     // every operand is an output and every option takes a value, but flags (ffmpeg: inputs follow -i)
	word    string   // a word the output follows (pdftk … output out)
	values  []string // options that take the next word as their value
	flags   []string // with all: the options that take none
	asks    bool     // leaves a file that is there alone unless forced
	force   []string // options that make it write over what is there
	looks   []string // options with which it writes nothing
	convert string   // the option whose value is the format converted to, the output named for the input (--convert-to)
	ext     string   // the option whose value replaces each input's extension in its output's name (pngquant --ext)
	suffix  string   // what replaces it by default
}

var converters = map[string]converter{
	"ffmpeg": {all: true, asks: true, force: []string{"-y"},
		flags: []string{"-y", "-n", "-hide_banner", "-nostdin", "-stdin", "-stats", "-nostats", "-shortest", "-vn", "-an", "-sn", "-dn",
			"-re", "-copyts", "-start_at_zero", "-benchmark", "-benchmark_all", "-report", "-xerror", "-ignore_unknown", "-noautorotate",
			"-autorotate", "-accurate_seek", "-noaccurate_seek", "-dump", "-hex", "-debug_ts", "-copyinkf", "-version", "-h", "-help", "--help"},
		looks: []string{"-version", "-h", "-help", "--help", "-formats", "-codecs", "-encoders", "-decoders", "-filters", "-pix_fmts"}},
	"sox":     {last: true, values: []string{"-b", "--bits", "-c", "--channels", "-e", "--encoding", "-r", "--rate", "-t", "--type", "-C", "--compression", "-v", "--volume", "--buffer", "--comment", "--add-comment"}},
	"convert": {last: true, looks: []string{"-version", "-list", "--version", "--help", "-help"}},
	"magick":  {last: true, looks: []string{"-version", "-list", "--version", "--help", "-help", "identify"}},
	"gs":      {out: []string{"-o"}, outJoin: []string{"-sOutputFile=", "-dOutputFile="}},
	"pandoc": {out: []string{"-o", "--output"}, outJoin: []string{"--output="},
		values: []string{"-f", "-r", "--from", "--read", "-t", "-w", "--to", "--write", "--template", "--metadata", "-M", "-V", "--variable",
			"--css", "-c", "--filter", "-F", "--lua-filter", "-L", "--resource-path", "--bibliography", "--csl", "--reference-doc", "--pdf-engine", "-H", "-B", "-A"}},
	"qpdf":          {last: true, values: []string{"--password", "--pages", "--rotate", "--split-pages", "--encrypt", "--overlay", "--underlay"}, looks: []string{"--check", "--show-npages", "--json", "--is-encrypted", "--requires-password", "--show-encryption"}},
	"pdftk":         {word: "output"},
	"libreoffice":   {outDir: []string{"--outdir"}, convert: "--convert-to"},
	"soffice":       {outDir: []string{"--outdir"}, convert: "--convert-to"},
	"cwebp":         {out: []string{"-o"}},
	"dwebp":         {out: []string{"-o"}},
	"gif2webp":      {out: []string{"-o"}},
	"img2webp":      {out: []string{"-o"}},
	"avifenc":       {last: true, values: []string{"-j", "--jobs", "-q", "--qcolor", "-s", "--speed", "-y", "--yuv", "-d", "--depth"}},
	"pngquant":      {out: []string{"-o", "--output"}, asks: true, force: []string{"-f", "--force"}, values: []string{"--quality", "--speed", "--posterize"}, ext: "--ext", suffix: "-fs8.png"},
	"HandBrakeCLI":  {out: []string{"-o", "--output"}},
	"gifsicle":      {out: []string{"-o", "--output"}, outJoin: []string{"--output="}},
	"svgo":          {out: []string{"-o", "--output"}},
	"optipng":       {out: []string{"-out"}},
	"jpegtran":      {out: []string{"-outfile"}},
	"cjpeg":         {out: []string{"-outfile"}},
	"djpeg":         {out: []string{"-outfile"}},
	"rsvg-convert":  {out: []string{"-o", "--output"}, outJoin: []string{"--output="}},
	"inkscape":      {out: []string{"-o", "--export-filename"}, outJoin: []string{"--export-filename="}},
	"mutool":        {out: []string{"-o"}},
	"pdfjam":        {out: []string{"-o", "--outfile"}},
	"pdfunite":      {last: true},
	"ps2pdf":        {last: true},
	"pdf2ps":        {last: true},
	"wkhtmltopdf":   {last: true},
	"weasyprint":    {last: true},
	"ebook-convert": {last: true},
	"lame":          {last: true},
	"flac":          {out: []string{"-o", "--output-name"}, outJoin: []string{"--output-name="}, asks: true, force: []string{"-f", "--force"}},
	"oggenc":        {out: []string{"-o", "--output"}, outJoin: []string{"--output="}},
	"opusenc":       {last: true},
	"asciidoctor":   {out: []string{"-o", "--out-file"}, outJoin: []string{"--out-file="}},
	"vips":          {last: true},
	"base64":        {out: []string{"-o", "--output"}, outJoin: []string{"--output="}, values: []string{"-b", "--break", "-w", "--wrap"}},
	"iconv":         {out: []string{"-o", "--output"}, outJoin: []string{"--output="}, values: []string{"-f", "-t", "--from-code", "--to-code"}, looks: []string{"-l", "--list"}},
}

// converterNames are the names in converters, for the catalogue.
func converterNames() []string {
	names := make([]string, 0, len(converters))
	for n := range converters {
		names = append(names, n)
	}
	return names
}

// writesOutput judges a converter by the files it writes, after what it
// edits in place (rewritesInPlace: svgo, gifsicle -b, magick mogrify). A
// tool is first judged by its words as any other.
func writesOutput(iv *inv) {
	args := iv.rest(1)
	if _, ok := rewriters[iv.name]; ok || iv.name == "magick" {
		rewritesInPlace(iv) // svgo a.svg, gifsicle -b, magick mogrify
		if iv.name == "magick" && at(strs0(args), 0) == "mogrify" {
			return
		}
	} else {
		unknownTool(iv)
	}
	cv := converters[iv.name]
	var outs, ins []arg
	var outDir arg
	forced, named, suffix := false, "", cv.suffix
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			if a.item {
				ins = append(ins, a)
			}
			continue
		}
		next := func() (arg, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return arg{}, false
		}
		opt, val, eq := strings.Cut(a.s, "=")
		switch {
		case contains(cv.looks, a.s):
			return
		case contains(cv.force, a.s):
			forced = true
		case contains(cv.out, a.s):
			if o, ok := next(); ok {
				outs = append(outs, o)
			}
		case contains(cv.outDir, a.s):
			outDir, _ = next()
		case eq && contains(cv.outDir, opt):
			outDir = arg{s: val, ok: true, src: val}
		case a.s == cv.convert && cv.convert != "":
			if o, ok := next(); ok {
				named = o.s
			}
		case eq && opt == cv.convert && cv.convert != "":
			named = val
		case a.s == cv.ext && cv.ext != "":
			if o, ok := next(); ok {
				suffix = o.s
			}
		case eq && opt == cv.ext && cv.ext != "":
			suffix = val
		case joinedOut(cv.outJoin, a.s) != "":
			o := joinedOut(cv.outJoin, a.s)
			outs = append(outs, arg{s: o, ok: true, src: o})
		case a.s == cv.word && cv.word != "":
			if o, ok := next(); ok {
				outs = append(outs, o)
			}
		case contains(cv.values, a.s):
			next()
		case cv.all && strings.HasPrefix(a.s, "-") && len(a.s) > 1:
			if !contains(cv.flags, a.s) {
				next() // ffmpeg -i IN, -c:v libx264
			}
		case strings.HasPrefix(a.s, "-") && len(a.s) > 1:
		case cv.all && a.s != "-":
			outs = append(outs, a)
		default:
			ins = append(ins, a)
		}
	}
	if cv.last && len(outs) == 0 {
		if files := fileLike(ins); len(files) > 1 {
			o := files[len(files)-1]
			outs = append(outs, o)
			ins = removeLast(ins, o)
		}
	}
	if named != "" { // soffice --convert-to pdf a.docx: a.pdf, in --outdir or here
		ext, _, _ := strings.Cut(named, ":")
		for _, in := range ins {
			base := strings.TrimSuffix(path.Base(in.s), path.Ext(in.s)) + "." + ext
			dir := outDir
			if !dir.ok && outDir.src == "" {
				dir = arg{s: ".", ok: true, src: "."}
			}
			if !dir.ok {
				outs = append(outs, dir)
				continue
			}
			o := path.Join(dir.s, base)
			outs = append(outs, arg{s: o, ok: true, src: o})
		}
	}
	if suffix != "" && len(outs) == 0 { // pngquant a.png: a-fs8.png beside it; --ext .png: over it
		for _, in := range ins {
			if in.ok {
				o := strings.TrimSuffix(in.s, path.Ext(in.s)) + suffix
				outs = append(outs, arg{s: o, ok: true, src: o})
			}
		}
	}
	iv.flag(Write, "")
	truncating := !cv.asks || forced
	for _, o := range outs {
		if !o.ok {
			continue
		}
		t := iv.c.resolve(iv.sc, o)
		if iv.ownInput(t, ins) {
			continue
		}
		class, why := iv.c.writeTarget(iv.sc, o, truncating)
		if class >= Destructive {
			iv.flagWrite(t, iv.name+" "+why)
		}
		if truncating && !cv.all { // iconv -o src/app.py /dev/null
			iv.fillsNothing(o, ins)
		}
	}
}

// ownInput holds an output t that is one of the inputs, outside the
// working directory: what was there is read and written over at once.
func (iv *inv) ownInput(t target, ins []arg) bool {
	if iv.sc.remote || t.path == "" {
		return false
	}
	for _, in := range ins {
		if u := iv.c.resolve(iv.sc, in); in.ok && u.path == t.path && u.children == t.children {
			if why := iv.c.danger(t); why != "" && why != "unresolved" {
				iv.flagWrite(t, phrase(iv.name+" writes its output over its own input", why)+": "+iv.c.show(t))
				return true
			}
		}
	}
	return false
}

// joinedOut is the output named in one word (-sOutputFile=out.pdf), "".
func joinedOut(prefixes []string, s string) string {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) && len(s) > len(p) {
			return s[len(p):]
		}
	}
	return ""
}

// fileLike are the operands that name files (a path, or a name with an
// extension), not words such as sox's effects (trim 0 10, rate 44.1k).
func fileLike(ops []arg) []arg {
	var out []arg
	for _, a := range ops {
		if !a.ok || a.item || strings.Contains(a.s, "/") || fileExt.MatchString(a.s) {
			out = append(out, a)
		}
	}
	return out
}

// fileExt is a file name's extension: a dot and letters, at its end.
var fileExt = lazyRE(`\.[A-Za-z][A-Za-z0-9]{0,5}$`)

// removeLast is args without the last x in it.
func removeLast(args []arg, x arg) []arg {
	for i := len(args) - 1; i >= 0; i-- {
		if args[i] == x {
			return append(args[:i:i], args[i+1:]...)
		}
	}
	return args
}

// generatesInto holds a code generator told to write its output into
// the tree's root or a source root (openapi-generator-cli generate -o
// src/, swagger-codegen generate -o .): it writes whole files of its own
// over those there, the user's edits to them with them. A generator is a
// tool whose name or verb says so (generate, gen, codegen); its output
// directory is the value of -o, --output, --out, --output-dir or the
// like that names no file.
func generatesInto(iv *inv) {
	args := iv.rest(1)
	if !slices.ContainsFunc(args, func(a arg) bool { opt, _, _ := strings.Cut(a.s, "="); return a.ok && outputDirOpts[opt] }) {
		return
	}
	gen := false
	pos := positionals(args)
	for _, w := range append(words(strings.ToLower(iv.name)), at(pos, 0), at(pos, 1)) {
		gen = gen || w == "generate" || w == "gen" || w == "codegen" || w == "generator"
	}
	if !gen {
		return
	}
	for i, a := range args {
		var out arg
		opt, val, eq := strings.Cut(a.s, "=")
		switch {
		case !a.ok || !outputDirOpts[opt]:
			continue
		case eq:
			out = arg{s: val, ok: true, src: val}
		case i+1 < len(args):
			out = args[i+1]
		}
		if out.ok && !fileExt.MatchString(strings.TrimSuffix(out.s, "/")) {
			t := iv.c.resolve(iv.sc, out)
			if !t.children {
				iv.writesOver(t, iv.name+" writes its output into", "over the files there")
			}
		}
	}
}

// outputDirOpts are the options by which generators are told where to
// write.
var outputDirOpts = map[string]bool{
	"-o": true, "--output": true, "--out": true, "--output-dir": true, "--outdir": true, "--out-dir": true, "--output-directory": true,
	"--output-path": true, "--outDir": true,
}

// scaffoldsOver holds a project generator told to write over what is
// there (rails new . --force, degit user/repo . --force, cookiecutter -f,
// copier copy --overwrite, create-vite . --force) when it writes into
// the tree's root: the template's files replace the user's, as a bulk
// overwrite does (writesOver). Without the force it refuses or asks.
func scaffoldsOver(iv *inv) {
	args := iv.rest(1)
	w := strs0(args)
	verb := at(positionals(args), 0)
	scaffold := strings.HasPrefix(iv.name, "create-") || scaffolders[iv.name] || verb == "new" || verb == "init" || verb == "create" ||
		verb == "copy" || verb == "recopy"
	if !scaffold || !hasWord(args, "--force", "-f", "--overwrite", "--force-overwrite", "--overwrite-if-exists", "-y", "--init") || iv.sc.remote {
		return
	}
	if hasWord(args, "-y") && !hasWord(args, "--force", "-f", "--overwrite", "--init") {
		return // copier -y answers yes: only with --overwrite does it write over
	}
	into := iv.name == "cookiecutter" && !slices.ContainsFunc(w, func(s string) bool { return s == "-o" || strings.HasPrefix(s, "--output-dir") })
	into = into || hasWord(args, "--init") // cargo generate --init: into the directory it is run in
	for _, a := range positionals(args) {
		if t := iv.c.resolve(iv.sc, arg{s: a, ok: true, src: a}); t.path == iv.c.project && !t.children {
			into = true
		}
	}
	if into && iv.sc.cwd != "" {
		iv.writesOver(target{path: iv.sc.cwd, src: "."}, iv.name+" writes a new project over", "replacing the files its template also holds")
	}
}

// cleanRegens are the generators whose "clean" run deletes the
// directories they generate and makes them again from the template
// (expo prebuild --clean: ios/ and android/, by platform): in a project
// that keeps hand-written native code there, that code goes with them.
var cleanRegens = map[string]struct {
	verb string
	dirs map[string][]string // by --platform value; "" for all
}{
	"expo": {"prebuild", map[string][]string{"": {"ios", "android"}, "ios": {"ios"}, "android": {"android"}}},
}

// regeneratesClean judges a generator's clean run (cleanRegens) as rm -rf
// of each directory it makes again: ordinary work when they are build
// outputs (ignored by git), destructive when no build makes them.
func regeneratesClean(iv *inv) {
	g, ok := cleanRegens[iv.name]
	args := iv.rest(1)
	if !ok || at(positionals(args), 0) != g.verb || !hasWord(args, "--clean") || iv.sc.remote {
		return
	}
	platform := ""
	for i, a := range args {
		if !a.ok {
			continue
		}
		if (a.s == "--platform" || a.s == "-p") && i+1 < len(args) {
			platform = args[i+1].s
		} else if v, ok := strings.CutPrefix(a.s, "--platform="); ok {
			platform = v
		}
	}
	dirs, ok := g.dirs[platform]
	if !ok {
		dirs = g.dirs[""]
	}
	for _, d := range dirs {
		t := iv.c.resolve(iv.sc, arg{s: d, ok: true, src: d})
		if why := iv.c.danger(t); why != "" {
			iv.flag(Destructive, phrase(iv.name+" "+g.verb+" --clean, which deletes and makes again", why)+": "+iv.c.show(t))
			return
		}
		if iv.c.ownWork(t.path, true) != "" {
			iv.flag(Destructive, iv.name+" "+g.verb+" --clean deletes "+d+", which the working tree keeps rather than ignores as a build output, and makes it again from the template: what was written or changed there by hand goes: "+iv.c.show(t))
			return
		}
	}
}

// scaffolders are tools that make a new project from a template.
var scaffolders = map[string]bool{
	"degit": true, "tiged": true, "cookiecutter": true, "copier": true, "yo": true, "giget": true, "cruft": true,
}
