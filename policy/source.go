package policy

import (
	"bufio"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// The working tree holds the user's own work next to what tools make of
// it. Deleting or writing over a build output, a cache or installed
// dependencies inside the tree is ordinary work: the next build makes
// them again. Deleting the user's source, or writing over it in bulk,
// loses whatever is not committed, which no command gives back. So a
// recursive delete (rm -r, find -delete, rmtree, rsync --delete) or a
// bulk overwrite (an extractor that writes over what is there, cp -r or
// rsync into a directory, a generator told to write its output into
// one) is held when its target holds the user's work (ownWork):
//
//   - the tree's root itself;
//   - a source root, at any depth: src, lib, app, cmd, pkg, internal,
//     include, source(s), test(s), spec(s), __tests__, migrations (src,
//     packages/web/src, prisma/migrations);
//   - for a delete, any other directory at the top of the tree (docs,
//     scripts, infra, the package of a Python project), or at any depth
//     where no directory of its path from the root is a name tools make
//     (game/assets, docs/images, apps/mobile/assets): its name says
//     nothing, and nothing makes it again; and any directory in the
//     project's data or the results of its runs (data/raw, results/exp1:
//     dataNames), gathered or computed once;
//   - for a delete, at any depth and even where .gitignore names it, a
//     directory of trained models' checkpoints or experiments' records
//     (checkpoints, mlruns, wandb, runs: keptNames), and the files in it
//     picked by a glob: only training made them.
//
// Nothing at or under what tools make is the user's work: a hidden
// directory (.next, .venv, .cache), a name of build outputs, caches,
// installed dependencies, scratch, reports, generated code, or files
// brought in from elsewhere (madeNames, madeWords: cmake-build-debug,
// test-results), a name with an extension (dist.old,
// foo.egg-info: a file, or a copy), and what the repository's .gitignore
// names. For a delete, a directory at any depth inside a source root
// (src/components, app/models/concerns, tests/e2e) holds the user's
// work as the root does: it is hand-written source, and what it holds
// that is not committed no command gives back; a made name in it
// (src/__pycache__, src/generated, lib/.cache) is ordinary. Deeper
// directories outside source roots are ordinary only under a name tools
// make (apps/web/node_modules, docs/_build, e2e/test-results), and so is
// git rm, which deletes only what git keeps.
//
// Files are judged as the directories are: deleting or emptying many of
// the user's files at once (a glob or find over a source extension, every
// file of a source root, what git ls-files lists, a glob in the project's
// data or results) is held, while compiled
// and scratch files (*.pyc, *.o, *.orig, *.log) and whatever lies under
// what tools make are not (ownFiles). A plain rm of one or two named
// files is a refactor; emptying one source file (truncate -s0, cp
// /dev/null) never is.

// sourceRoots are the directories that hold a project's own source, at
// whatever depth they stand.
var sourceRoots = map[string]bool{
	"src": true, "source": true, "sources": true, "Sources": true, "lib": true, "app": true, "cmd": true, "pkg": true,
	"internal": true, "include": true, "test": true, "tests": true, "Tests": true, "spec": true, "specs": true,
	"__tests__": true, "migrations": true, "migrate": true,
}

// madeNames are the names of directories that tools make or fill: build
// outputs, caches, installed dependencies, virtual environments,
// scratch, logs and reports, generated code (mockery's and gomock's
// mocks; not jest's hand-written __mocks__), and files brought in from
// elsewhere (vendored code, static files a site generator fills). Not
// testdata, fixtures or assets: people write those by hand.
var madeNames = map[string]bool{
	"build": true, "builds": true, "dist": true, "out": true, "output": true, "outputs": true, "target": true, "bin": true, "obj": true,
	"release": true, "debug": true, "artifacts": true, "site": true, "coverage": true, "htmlcov": true, "lcov": true,
	"cache": true, "caches": true, "tmp": true, "temp": true, "scratch": true, "log": true, "logs": true, "report": true, "reports": true,
	"generated": true, "gen": true, "__generated__": true, "codegen": true, "autogen": true, "processed": true, "interim": true,
	"node_modules": true, "bower_components": true, "jspm_packages": true, "vendor": true, "third_party": true, "thirdparty": true,
	"deps": true, "Pods": true, "Carthage": true, "DerivedData": true, "venv": true, "env": true, "virtualenv": true,
	"__pycache__": true, "site-packages": true, "elm-stuff": true, "dbt_packages": true, "dbt_modules": true,
	"public": true, "static": true, "__snapshots__": true, "screenshots": true, "videos": true, "wheelhouse": true, "wheels": true,
	"downloads": true, "staticfiles": true, "junit": true, "mocks": true,
	// plans and generated sites, packages and API docs written at the top of the tree: terraform plan -out tfplan,
	// Jekyll's _site, setup.py sdist, pip's pip-wheel-metadata, javadoc's and typedoc's output
	"tfplan": true, "planfile": true, "_site": true, "sdist": true, "pip-wheel-metadata": true, "lib-cov": true,
	"javadoc": true, "typedoc": true, "jsdoc": true, "apidoc": true, "apidocs": true,
	// Perl's build and its tools' outputs: MakeMaker's and Module::Build's blib, pm_to_blib and _eumm,
	// Devel::Cover's cover_db, NYTProf's nytprof, Inline's _Inline; opam's local switch _opam
	"blib": true, "pm_to_blib": true, "_eumm": true, "cover_db": true, "nytprof": true, "_Inline": true, "_opam": true,
	// what a local Spark or Hive session leaves in the directory it ran in: the default warehouse of
	// its tables and Derby's metastore of them, made again by the next local run (not a cluster's)
	"spark-warehouse": true, "metastore_db": true,
}

// madeCapitalised are the names tools write capitalised: Unity's Temp,
// Logs and Build(s), Xcode's Build, Visual Studio's Debug and Release (and
// Bin and Obj), Unreal's Binaries, Intermediate and DerivedDataCache,
// .NET's TestResults, CMake's CMakeFiles. Other names of madeNames capitalised (Public,
// Downloads, Videos, Screenshots) are a person's folders. A Unity
// project's Library, its asset import cache, is made only where the
// command shows a Unity project (unityProject).
var madeCapitalised = map[string]bool{
	"Temp": true, "Logs": true, "Build": true, "Builds": true, "Debug": true, "Release": true, "Bin": true, "Obj": true,
	"Binaries": true, "Intermediate": true, "DerivedDataCache": true, "TestResults": true, "CMakeFiles": true,
}

// unityShown is a command line that shows a Unity project: the Unity
// editor run with its options (Unity -batchmode, …/Unity.exe -quit), or
// its Assets or ProjectSettings directory named.
var unityShown = lazyRE(`(?:^|[\s;&|(/])Unity(?:\.exe)?\s+-|(?:^|[\s"'=/])(?:Assets|ProjectSettings)(?:/|\s|$)`)

// unityTemp and unityMade are the other directories a Unity editor makes
// beside Library: Temp, and obj, Logs, UserSettings or MemoryCaptures.
// Named together in one command (rm -rf Library Temp obj, or game/Library
// game/Temp game/obj), they are a
// Unity project's caches, as a person's Library never stands among them.
var (
	unityTemp = lazyRE(`(?:^|[\s"'=])(?:\./)?(?:[\w.-]+/)*Temp(?:/|\s|$)`)
	unityMade = lazyRE(`(?:^|[\s"'=])(?:\./)?(?:[\w.-]+/)*(?:obj|Logs|UserSettings|MemoryCaptures)(?:/|\s|$)`)
)

// unityProject reports whether the command shows a Unity project, whose
// Library directory is the editor's import cache: the editor run, its
// Assets or ProjectSettings named, or Library named with Temp and another
// directory the editor makes.
func (c *classifier) unityProject() bool {
	return unityShown.MatchString(c.whole) || unityTemp.MatchString(c.whole) && unityMade.MatchString(c.whole)
}

// dataNames are the directories that hold the project's data and the
// results of its runs (data/raw, datasets, results): what is in them was
// gathered or computed once, over hours, and no build makes it again.
// What a pipeline makes from the raw data (data/processed, data/interim:
// derivedData) is the project's data too, unless the command goes on to
// run the pipeline again (remade); scratch inside them (data/cache) is
// made (madeNames), and a name that only has results as one of its words
// (test-results) is a tool's.
var dataNames = map[string]bool{"data": true, "datasets": true, "results": true}

// madeWords are the words that make a name one of what tools make:
// cmake-build-debug, out-tsc, test-results, playwright-report,
// storybook-static, src-gen.
var madeWords = map[string]bool{
	"build": true, "dist": true, "out": true, "output": true, "cache": true, "tmp": true, "temp": true, "logs": true, "coverage": true,
	"generated": true, "gen": true, "report": true, "reports": true, "results": true, "artifacts": true, "static": true, "venv": true,
	"bin": true, "bazel": true,
}

// ownWork says how p, a path in the working tree, holds the user's own
// work (see above), as words for a reason ("src, which holds the
// project's source"), or "" if it does not. top says whether any
// directory at the top of the tree counts (a delete), or only the root
// and source roots (a bulk overwrite).
func (c *classifier) ownWork(p string, top bool) string {
	if !c.trustedProject() {
		return "" // danger judges it: the home directory is no project
	}
	if p == c.project {
		return "the working tree"
	}
	rel, ok := strings.CutPrefix(p, c.project+"/")
	if !ok || rel == "" {
		return ""
	}
	if top {
		if kept := keptRecords(rel); kept != "" {
			return kept
		}
	}
	if c.madePath(rel) {
		return ""
	}
	last := path.Base(rel)
	switch {
	case sourceRoots[last]:
		return rel + ", which holds the project's source"
	case top && !fileName(last) && c.toolNamed(last):
		return "" // npx elm-verify-examples && … rm -rf tests/VerifyExamples: that tool's output
	case top && !fileName(last) && sourceRootOf(rel) != "":
		return rel + ", a directory of the project's source in " + sourceRootOf(rel)
	case top && keptIn(rel) != "" && derivedData(rel):
		return rel + ", " + keptIn(rel) + " its pipeline made, which only another run of it makes again"
	case top && keptIn(rel) != "":
		return rel + ", " + keptIn(rel) + ", which no build makes again"
	case top && last == rel && !fileName(last):
		return rel + ", a directory at the top of the working tree that no build makes"
	case top && !fileName(last):
		return rel + ", a directory of the working tree that no build makes"
	}
	return ""
}

// sourceRootOf is the source root that rel, a path from the root of
// the working tree, lies in below it (src of src/components, app/src of
// app/src/ui/forms), or "" if none.
func sourceRootOf(rel string) string {
	dir := path.Dir(rel)
	for ; dir != "." && dir != "/"; dir = path.Dir(dir) {
		if sourceRoots[path.Base(dir)] {
			return dir
		}
	}
	return ""
}

// keptIn says what kept directory (dataNames) at the top of the working
// tree rel, a path from the root that lies in nothing made, is or lies
// in: "the project's data" (data/raw) or "the results of the project's
// runs" (results/exp1); "" if none. Deeper (src/data) it is a module's
// name.
func keptIn(rel string) string {
	top, rest, _ := strings.Cut(rel, "/")
	switch strings.ToLower(top) {
	case "data", "datasets":
		return "the project's data"
	case "results":
		return "the results of the project's runs"
	}
	if resultsName(top) || runDirs[strings.ToLower(top)] && resultsName(strings.Split(rest, "/")[0]) {
		return "the results of the project's runs" // bench/results, benchmark_results, experiments/results
	}
	return ""
}

// runDirs are directories at the top of a working tree that hold runs of
// the project whose results are kept: benchmarks, experiments,
// evaluations.
var runDirs = setOf("bench", "benches", "benchmark", "benchmarks", "perf", "experiments", "experiment", "exp", "exps", "eval", "evals",
	"evaluation", "evaluations", "analysis", "sweeps", "studies", "profiling", "loadtest", "loadtests")

// resultsName reports whether a directory's name says it holds results
// of runs: results, bench_results, eval-results, measurements.
func resultsName(d string) bool {
	d = strings.ToLower(d)
	return d == "results" || d == "measurements" || strings.HasSuffix(d, "_results") || strings.HasSuffix(d, "-results")
}

// keptNames are the names of directories that hold what runs of the
// project made at a cost no build repays: trained models' checkpoints
// and the records of experiments (MLflow's mlruns, W&B's wandb,
// TensorBoard's runs, Lightning's lightning_logs). No version control
// keeps them (a .gitignore often names them), and a tool wrote them
// only by training, so deleting one loses that training.
var keptNames = map[string]bool{
	"checkpoints": true, "checkpoint": true, "ckpt": true, "ckpts": true, "saved_models": true, "trained_models": true,
	"mlruns": true, "wandb": true, "runs": true, "lightning_logs": true, "mlartifacts": true,
}

// runCheckpoint reports whether a directory's name, or a glob of names,
// is one a trainer gives each checkpoint it saves: checkpoint-500
// (Hugging Face's Trainer), checkpoint_3, ckpt-1000, DeepSpeed's
// global_step500; checkpoint-*, checkpoint* pick them. Unlike keptNames,
// it counts under an output directory a tool names (outputs/,
// results/), which is where trainers put them; not under scratch.
func runCheckpoint(name string) bool {
	name = strings.ToLower(name)
	for _, p := range []string{"checkpoint-", "checkpoint_", "ckpt-", "ckpt_", "global_step"} {
		if strings.HasPrefix(name, p) && (!strings.Contains(name, ".") || strings.ContainsAny(name, "*?[")) {
			return true
		}
	}
	return name == "checkpoint*" || name == "ckpt*" || name == "checkpoints*"
}

// runCheckpointIn reports whether a directory of rel is runCheckpoint.
func runCheckpointIn(rel string) bool {
	if !strings.Contains(rel, "heckpoint") && !strings.Contains(rel, "ckpt") && !strings.Contains(rel, "global_step") {
		return false // the cheap look first
	}
	for d := range strings.SplitSeq(rel, "/") {
		if runCheckpoint(d) {
			return true
		}
	}
	return false
}

// scratchDir is a directory whose name says what it holds is thrown
// away: a temp dir, a cache, a hidden one (.cache, .ipynb_checkpoints).
func scratchDir(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, ".") || strings.Contains(n, "tmp") || strings.Contains(n, "temp") || strings.Contains(n, "cache") || strings.Contains(n, "scratch")
}

// scratchExts are the extensions of files a tool leaves while it works:
// partial downloads, locks, logs, temporaries.
var scratchExts = map[string]bool{".tmp": true, ".temp": true, ".lock": true, ".part": true, ".partial": true, ".log": true, ".swp": true, ".orig": true}

// keptRecords says how rel, a path from the root of the working tree, is
// or lies in a directory of keptNames, as words for a reason, or "" if
// it does not. One under what tools make (tmp/checkpoints,
// .cache/wandb) is scratch.
func keptRecords(rel string) string {
	last := ""
	for end := 0; end < len(rel); end += len(last) + 1 {
		last, _, _ = strings.Cut(rel[end:], "/")
		switch {
		case (keptNames[last] || runCheckpoint(last)) && end+len(last) == len(rel):
			return rel + ", which holds trained models or the records of experiments that no build makes again"
		case keptNames[last] || runCheckpoint(last):
			return rel + ", in " + rel[:end+len(last)] + ", which holds trained models or the records of experiments that no build makes again"
		case made(last) && (scratchDir(last) || !runCheckpointIn(rel[end:])):
			return ""
		}
	}
	return ""
}

// madePath reports whether rel, a path from the root of the working
// tree, is or lies in what tools make: some directory on the way down
// (src, src/app) is made or ignored.
func (c *classifier) madePath(rel string) bool {
	last, inSource, inTests := "", false, false
	for end := 0; end < len(rel); end += len(last) + 1 {
		last, _, _ = strings.Cut(rel[end:], "/")
		if derivedNames[last] && derivedData(rel[:end+len(last)]) && !c.remade(rel) {
			continue // data/processed: the project's data, unless the command goes on to make it again
		}
		if c.madeAt(rel[:end], last) {
			return true
		}
		if inSource && (madeInSource(last) || last == "mocks" && mockMakers.MatchString(c.whole) || inTests && made(last) && last != "mocks" && !strings.Contains(last, ".")) || !inSource && made(last) || last == "Library" && c.unityProject() || c.ignored(rel[:end+len(last)]) {
			return true
		}
		inSource = inSource || sourceRoots[last]
		inTests = inTests || testRoots[last]
	}
	return false
}

// madeAt reports whether name, a directory in parent (a path from the
// root of the working tree ending in /, or ""), is one a framework's tool
// makes there, though the same name elsewhere is a person's: Laravel's
// compiled views, file cache, sessions and test files in
// storage/framework (not resources/views); Symfony's and others' cache,
// logs and sessions in var; the bundles' assets Symfony's assets:install
// copies into web; Criterion's reports in a benchmarks or target
// directory; a deployment package built in a Lambda or serverless
// function's directory (lambda/package); Flutter's ephemeral files;
// Doxygen's html, latex, xml, man and rtf output in a doxygen directory,
// or in the docs when the command runs doxygen; and a directory of the
// docs an API doc generator the command runs is told to write
// (sphinx-apidoc -o docs/api, typedoc --out docs/api).
func (c *classifier) madeAt(parent, name string) bool {
	dir := strings.TrimSuffix(parent, "/")
	base := path.Base(dir)
	switch {
	case base == "framework" && path.Base(path.Dir(dir)) == "storage":
		return name == "views" || name == "cache" || name == "sessions" || name == "testing"
	case base == "var":
		return name == "cache" || name == "log" || name == "logs" || name == "sessions"
	case base == "web" && name == "bundles":
		return true
	case name == "criterion":
		return base == "target" || strings.HasPrefix(strings.ToLower(base), "bench")
	case name == "package" || name == "ephemeral":
		return nameWords(dir, name)
	}
	if dir == "" {
		return false
	}
	if doxygenOut[name] && (nameWords(dir, "doxygen") || docsDirs[strings.ToLower(base)] && doxygenRun.MatchString(c.whole)) {
		return true
	}
	if !docsPath(dir) {
		return false
	}
	rel := parent + name
	for _, m := range apiDocGens.FindAllStringIndex(c.whole, -1) {
		seg := c.whole[m[1]:]
		if e := strings.IndexAny(seg, ";&|\n"); e >= 0 {
			seg = seg[:e]
		}
		for _, f := range strings.Fields(seg) {
			f = strings.Trim(f, `"'`)
			if _, v, ok := strings.Cut(f, "="); ok && strings.HasPrefix(f, "-") {
				f = v
			}
			if strings.TrimSuffix(strings.TrimPrefix(f, "./"), "/") == rel {
				return true
			}
		}
	}
	return false
}

// nameWords reports whether some directory of dir, a path, has a word
// that says what makes name there: a Lambda or serverless function's
// directory (lambda, functions, serverless, sam) for a deployment
// package, Flutter's platform directories for its ephemeral files,
// doxygen for its output.
func nameWords(dir, name string) bool {
	for _, d := range strings.Split(dir, "/") {
		for _, w := range strings.FieldsFunc(strings.ToLower(d), func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
			switch name {
			case "package":
				if w == "lambda" || w == "lambdas" || w == "serverless" || w == "sam" {
					return true
				}
			case "ephemeral":
				if w == "flutter" {
					return true
				}
			default:
				if w == name {
					return true
				}
			}
		}
	}
	return false
}

// docsDirs are the names of a project's directory of documentation.
var docsDirs = setOf("docs", "doc", "documentation")

// docsPath reports whether dir, a path from the root of the working
// tree, is or lies in a directory of documentation.
func docsPath(dir string) bool {
	for _, d := range strings.Split(dir, "/") {
		if docsDirs[strings.ToLower(d)] {
			return true
		}
	}
	return false
}

// doxygenOut are the directories Doxygen writes its output in.
var doxygenOut = setOf("html", "latex", "xml", "man", "rtf", "docbook")

// doxygenRun is doxygen run as a command.
var doxygenRun = lazyRE(`(?:^|[\s;&|(])doxygen(?:\s|$)`)

// apiDocGens are the generators of API documentation run as commands,
// up to where their arguments begin.
var apiDocGens = lazyRE(`(?:^|[\s;&|(/])(?:sphinx-apidoc|sphinx-build|typedoc|jsdoc|pdoc3?|javadoc|dokka\w*|dartdoc|compodoc|esdoc|api-documenter|yard(?:\s+doc)?|rdoc|swag\s+init|redoc-cli\s+bundle|widdershins)(?:\s|$)`)

// testRoots are the source roots of tests, where test runs write their
// output (tests/output, spec/reports, test/tmp): there every name tools
// use at the top of the tree is theirs too.
var testRoots = setOf("test", "tests", "Tests", "spec", "specs", "__tests__", "e2e")

// mockMakers are the tools that generate mocks into a source tree.
var mockMakers = lazyRE(`\b(?:mockery|mockgen|counterfeiter|moq|pegomock)\b`)

// madeInSource reports whether a directory's name inside a source root
// says a tool makes it there: hidden (src/.cache), compiled code
// (__pycache__, generated, node_modules, a .NET project's bin, obj,
// Debug, Release), or an installed package's metadata (.egg-info). Other
// names that tools use at the top of the tree are, inside a source root,
// the user's own: src/mocks (Mock Service Worker's handlers),
// internal/cache (a Go package), src/components/Logs (a component),
// src/main/resources/static (Spring Boot's web assets), and a dotted name
// whose last part is capitalised (src/Acme.Orders.Api, a .NET project);
// mocks are made only where the command runs a mock generator (mockery,
// mockgen).
func madeInSource(name string) bool {
	switch {
	case strings.HasPrefix(name, "."), strings.HasSuffix(name, ".egg-info"), strings.HasSuffix(name, ".dist-info"):
		return true
	case strings.Contains(name, "."):
		ext := name[strings.LastIndexByte(name, '.')+1:]
		return ext == "" || !unicode.IsUpper(rune(ext[0])) // src/main.go, src/app.old: a file or a copy; src/Acme.Orders.Api: a project
	}
	switch name {
	case "__pycache__", "generated", "gen", "__generated__", "codegen", "autogen", "node_modules", "__snapshots__",
		"build", "dist", "out", "target", "bin", "obj", "coverage", "htmlcov", "Debug", "Release", "Bin", "Obj",
		"TestResults", "CMakeFiles", "Intermediate", "Binaries", "DerivedData", "Pods", "site-packages", "venv", "elm-stuff",
		"tmp", "temp", "builds", "screenshots", "videos", "junit", "artifacts":
		return true
	}
	ws := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' })
	return len(ws) > 1 && slices.ContainsFunc(ws, func(w string) bool { return madeWords[w] }) // cmake-build-debug, test-results
}

// derivedNames are the directories in which a pipeline keeps what it
// made from the raw data (data/processed, data/interim).
var derivedNames = map[string]bool{"processed": true, "interim": true}

// derivedData reports whether rel, a path from the root of the working
// tree, is a directory of derivedNames right in the project's data
// directory (data/processed, datasets/interim): what the pipeline made
// from the raw data, over hours, which only running it again makes
// again. Anywhere else (build/processed) the name is a tool's.
func derivedData(rel string) bool {
	top, rest, ok := strings.Cut(rel, "/")
	d, _, _ := strings.Cut(rest, "/")
	return ok && (top == "data" || top == "datasets") && derivedNames[d]
}

// remakes is a step of a command line that runs the project's pipeline
// or build (make data, dvc repro, snakemake, python src/prepare.py): a
// build tool given a target (or none) other than a check's, a pipeline
// runner's run verb, or an interpreter given a script or a module, by
// any runner (uv run, poetry run …); group 1 is the target, script or
// module. A test run, a linter or code given inline (python -m pytest,
// python -c 'print(…)') makes nothing again.
var remakes = lazyRE(`(?:&&|;|\n)\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:(?:uv|poetry|pdm|pipenv|hatch|rye)\s+run\s+)?(?:(?:make|gmake|just|task)(?:\s+-\S+)*(?:\s+([\w:.-]+))?\s*(?:$|[;&|\n])|dvc\s+(?:repro|exp\s+run)\b|snakemake\b|kedro\s+run\b|nextflow\s+run\b|dbt\s+(?:run|build|seed)\b|(?:python3?|Rscript|julia)\s+(?:-u\s+)?(?:-m\s+)?([\w./-]+)|(?:npm|pnpm|yarn)\s+(?:run\s+)?([\w:.-]+))`)

// checks are the names of targets, modules and scripts that test, lint
// or format, and so make nothing again.
var checks = lazyRE(`(?i)^(?:test|tests|check|checks|lint|fmt|format|clean|help|docs|install|typecheck|pytest|unittest|doctest|tox|nox|pip|mypy|ruff|black|flake8|pylint|isort|coverage|http\.server|jest|vitest|eslint|prettier|-c|-)$|test`)

// toolNamed reports whether name, a directory of two words or more
// (VerifyExamples), is what the name of a tool the command ran earlier
// ends with (elm-verify-examples): the directory that tool generates.
// Not a single word (npx react-scripts … rm -rf scripts: the user's).
func (c *classifier) toolNamed(name string) bool {
	parts := 1
	for i := 1; i < len(name); i++ {
		if strings.IndexByte("-_", name[i]) >= 0 || name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z' {
			parts++
		}
	}
	n := strings.Join(words(name), "")
	if parts < 2 || len(n) < 8 || strings.ContainsAny(name, "*?[.") {
		return false
	}
	for _, cmd := range c.cmds {
		for _, w := range cmd.Argv[:min(len(cmd.Argv), 3)] {
			if t := strings.Join(words(path.Base(w)), ""); len(t) > len(n) && strings.HasSuffix(t, n) {
				return true
			}
		}
	}
	return false
}

// remade reports whether the command line, after it names rel, goes on
// to run the project's pipeline or build (remakes), which makes what is
// deleted there again: rm -rf data/processed && make data.
func (c *classifier) remade(rel string) bool {
	at := strings.Index(c.whole, rel)
	if at < 0 {
		return false
	}
	for _, m := range remakes.FindAllStringSubmatch(c.whole[at:], -1) {
		if name := m[1] + m[2] + m[3]; name == "" || !checks.MatchString(path.Base(name)) {
			return true
		}
	}
	return false
}

// ownFiles says how the files a delete or an emptying reaches hold the
// user's own work, as words for a reason, or "" if they do not. t is
// what s, the path or glob as expanded, resolves to. The files are the
// user's when they are
//
//   - every file of a directory that holds the user's work (src/*,
//     src/**/*, and so what git ls-files lists: ownWork);
//   - the project's source files picked by their extension (**/*.py,
//     migrations/versions/*.py, src/*.c), not compiled or scratch ones
//     (*.pyc, *.o, *.orig, *.log), anywhere tools do not make;
//   - with one set, a single source file (truncate -s0 src/app.py,
//     cp /dev/null src/index.ts): emptying one is never a refactor.
//
// A plain rm of one or two named files is a refactor, and so not asked
// about with one set.
func (c *classifier) ownFiles(t target, s string, one bool) string {
	if t.path == "" || !c.trustedProject() || t.path != c.project && !isUnder(t.path, c.project) {
		return ""
	}
	dir := t.path // the directory the files are in
	if !t.children {
		dir = path.Dir(t.path)
	}
	if t.children && runCheckpoint(path.Base(s)) {
		rel := path.Base(s)
		if dir != c.project {
			rel = strings.TrimPrefix(dir, c.project+"/") + "/" + rel
		}
		if kept := keptRecords(rel); kept != "" {
			return "the checkpoints " + kept // rm -rf outputs/checkpoint-*
		}
	}
	if rel := strings.TrimPrefix(strings.TrimPrefix(dir, c.project), "/"); rel != "" && c.madePath(rel) {
		return ""
	}
	name := path.Base(s)
	if !t.children {
		if one && sourceName(name) && !strings.ContainsAny(name, "*?[") {
			return "a source file"
		}
		return ""
	}
	if t.all {
		if own := c.ownWork(t.path, true); own != "" {
			return "every file of " + own
		}
		return ""
	}
	if rel := strings.TrimPrefix(strings.TrimPrefix(dir, c.project), "/"); rel != "" && (!strings.Contains(name, ".") || !madeFiles(name)) && !scratchExts[strings.ToLower(path.Ext(name))] {
		if kept := keptRecords(rel); kept != "" { // rm checkpoints/*.pt
			return "the files " + name + " of " + kept
		}
	}
	if sourceName(name) && !madeFiles(name) {
		return "the project's source files " + name
	}
	if rel := strings.TrimPrefix(dir, c.project+"/"); dir != c.project && keptIn(rel) != "" {
		return "files " + name + " in " + keptIn(rel) // rm data/raw/*.csv
	}
	if rel := strings.TrimPrefix(dir, c.project+"/"); dir != c.project && dataName(name) && !madeFiles(name) {
		return "the data files " + name + " in " + rel + ", which no build makes" // glob.glob('exports/*.csv') … os.remove
	}
	return ""
}

// dataExts are the extensions of files that hold data rather than code
// or settings: tables, records, arrays, spreadsheets.
var dataExts = map[string]bool{
	"csv": true, "tsv": true, "parquet": true, "jsonl": true, "ndjson": true, "xlsx": true, "xls": true, "ods": true,
	"feather": true, "arrow": true, "avro": true, "orc": true, "h5": true, "hdf5": true, "npy": true, "npz": true,
	"rds": true, "rdata": true, "dta": true, "sav": true,
}

// dataName reports whether a file's name, or a glob of names, picks files
// by the extension of a data file (*.csv, *.parquet); a name ending in a
// wildcard (*.cs*) picks more than data.
func dataName(name string) bool {
	i := strings.LastIndexByte(name, '.')
	return i >= 0 && dataExts[strings.ToLower(name[i+1:])]
}

// emptied says how emptying the files t names (truncate -s0, cp
// /dev/null, a bare > f, dd from /dev/null, ed's ,d then w) loses the
// user's work, as words for a reason, or "" if it does not. s is the
// path or glob as expanded. Beyond ownFiles, two kinds of file are kept
// records that nothing makes again, wherever they lie in the tree:
//
//   - an audit, transaction or ledger log (logs/audit.log): what it
//     recorded happened once;
//   - the project's data, under a data or datasets directory that is
//     not scratch (data/raw/*.csv);
//   - settings files (config/database.yml, config/local.yaml: YAML,
//     TOML, INI …) outside directories tools make.
func (c *classifier) emptied(t target, s string) string {
	if own := c.ownFiles(t, s, true); own != "" {
		return own
	}
	if t.path == "" || !c.trustedProject() || !isUnder(t.path, c.project) || c.scratch(t.path+"/x") {
		return ""
	}
	if recordLog.MatchString(path.Base(s)) {
		return "a log of records kept, which nothing makes again"
	}
	if b := strings.ToLower(path.Base(s)); localSettings(b) || strings.HasPrefix(b, "local.") && settingsName(b) { // config/local.yaml
		return "the project's local settings, which version control does not keep"
	}
	if d := path.Dir(strings.TrimPrefix(t.path, c.project+"/")); !t.children && settingsFile(t.path) && (d == "." || !c.madePath(d)) { // ex -sc '%d|x' config/database.yml
		return "a settings file of the project"
	}
	if d := strings.TrimPrefix(t.path, c.project+"/"); t.children && !t.all && settingsFile(path.Base(s)) && (t.path == c.project || !c.madePath(d)) { // truncate -s0 config/*.yaml
		return "the project's settings files " + path.Base(s)
	}
	dir := strings.TrimPrefix(t.path, c.project+"/")
	if !t.children {
		dir = path.Dir(dir)
	}
	if c.madePath(dir) {
		return ""
	}
	for _, d := range strings.Split(dir, "/") {
		if d == "data" || d == "datasets" {
			return "the project's data"
		}
	}
	return ""
}

// recordLog is the name of a log that keeps records rather than what a
// program printed: an audit trail, transactions, a ledger.
var recordLog = lazyRE(`(?i)(?:^|[-_.])(?:audit|transactions?|ledger)(?:[-_.]|$)`)

// madeFiles reports whether a name pattern picks files a tool writes
// (*_mock.go, *.pb.go, *_generated.ts, *.min.js): their words say so.
func madeFiles(name string) bool {
	stem := name[:strings.LastIndexByte(name, '.')]
	for _, w := range strings.FieldsFunc(strings.ToLower(stem), func(r rune) bool { return strings.ContainsRune("-_.*?", r) }) {
		if madeWords[w] || w == "mock" || w == "mocks" || w == "pb" || w == "min" || w == "snap" || w == "g" || w == "freezed" {
			return true
		}
	}
	return false
}

// sourceName reports whether a file's name, or a glob of names, ends in
// the extension of a source file people write (*.py, app.ts).
func sourceName(name string) bool {
	i := strings.LastIndexByte(name, '.')
	return i >= 0 && (sourceExts[name[i+1:]] || sourceExts[strings.TrimRight(name[i+1:], "*")]) // *.cs* matches *.cs
}

// fileName reports whether a name without an extension is a file's: all
// capitals (LICENSE, README) or ending in file (Makefile, Dockerfile).
func fileName(name string) bool {
	return name == strings.ToUpper(name) || strings.HasSuffix(strings.ToLower(name), "file")
}

// made reports whether a directory's name says a tool makes or fills it:
// hidden (.next, .venv), one of madeNames or madeCapitalised (Temp,
// Build) or with one of madeWords
// (madeWords: cmake-build-debug, out-tsc), or with an extension (a file, or a copy:
// dist.old, app.egg-info).
func made(name string) bool {
	if strings.HasPrefix(name, ".") || madeNames[name] || madeCapitalised[name] || strings.Contains(name, ".") {
		return true
	}
	if dataNames[strings.ToLower(name)] {
		return false // results alone, though test-results is a tool's
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' }) {
		if madeWords[w] {
			return true
		}
	}
	return false
}

// ignored reports whether the repository's .gitignore, at the root of the
// working tree, names rel, a path from the root (whose directories the
// caller asks about first): git keeps none of it, so a tool made it.
func (c *classifier) ignored(rel string) bool {
	if c.ignore == nil {
		c.ignore = gitignoreOf(c.project)
	}
	return c.ignore.match(rel)
}

// ignoreRule is one pattern of a .gitignore.
type ignoreRule struct {
	pattern  string // a glob, without its leading / or ! and trailing /
	anchored bool   // it holds a /: matched against the path from the root, else against each name
	negated  bool   // !pattern: what an earlier rule ignored is kept
}

// gitignore is the rules of one .gitignore file.
type gitignore struct {
	rules []ignoreRule
}

// match reports whether the last rule that matches rel, a path from the
// root, ignores it: git's rule.
func (g *gitignore) match(rel string) bool {
	if g == nil || len(g.rules) == 0 {
		return false
	}
	last := path.Base(rel)
	ignored := false
	for _, r := range g.rules {
		name := last
		if r.anchored {
			name = rel
		}
		if ok, _ := path.Match(r.pattern, name); ok {
			ignored = !r.negated
		}
	}
	return ignored
}

// Bounds on reading a .gitignore: past them the rest is not read.
const (
	maxIgnoreBytes = 64 << 10
	maxIgnoreRules = 1024
)

// gitignores caches the .gitignore of each working tree by its path,
// with the modification time and size it was read at.
var gitignores sync.Map // string → *cachedIgnore

type cachedIgnore struct {
	mod  time.Time
	size int64
	g    *gitignore
}

// gitignoreOf reads (once, while it is unchanged) the .gitignore at the
// root of the working tree dir; an empty one when there is none.
func gitignoreOf(dir string) *gitignore {
	if !path.IsAbs(dir) || strings.Contains(dir, "\x00") {
		return &gitignore{}
	}
	file := path.Join(dir, ".gitignore")
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() {
		return &gitignore{}
	}
	if v, ok := gitignores.Load(file); ok {
		if ci := v.(*cachedIgnore); ci.mod.Equal(fi.ModTime()) && ci.size == fi.Size() {
			return ci.g
		}
	}
	f, err := os.Open(file)
	if err != nil {
		return &gitignore{}
	}
	defer f.Close()
	g := parseGitignore(io.LimitReader(f, maxIgnoreBytes))
	gitignores.Store(file, &cachedIgnore{mod: fi.ModTime(), size: fi.Size(), g: g})
	return g
}

// parseGitignore reads a .gitignore's patterns: blank lines and comments
// aside, ! negates, a leading or inner / anchors a pattern at the root,
// a trailing / (directories only) and a trailing /** (what is under) are
// dropped, and a leading **/ matches at any depth, as a name does.
func parseGitignore(r io.Reader) *gitignore {
	g := &gitignore{}
	sc := bufio.NewScanner(r)
	for sc.Scan() && len(g.rules) < maxIgnoreRules {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var r ignoreRule
		if p, ok := strings.CutPrefix(line, "!"); ok {
			r.negated, line = true, p
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "/**"), "/")
		line = strings.TrimPrefix(line, "**/")
		if p, ok := strings.CutPrefix(line, "/"); ok {
			r.anchored, line = true, p
		}
		if strings.Contains(line, "/") {
			r.anchored = true
		}
		if line == "" || strings.Contains(line, "**") {
			continue // a pattern path.Match cannot read: left out
		}
		r.pattern = line
		g.rules = append(g.rules, r)
	}
	return g
}
