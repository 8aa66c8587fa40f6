package policy

import (
	"fmt"
	"strings"
	"testing"
)

// The grid of round r48b: code that reaches an interpreter and does the
// damage, LANGUAGE × API × TARGET × the road the code arrives by. Every
// destructive combination must be held and every safe counterpart (the
// same API on a temp dir the code made, on rebuildable output, a read, a
// client on loopback) must not be.

// interpTarget is a path as one language names it: pre is code that comes
// first (an import, an assignment), expr the expression.
type interpTarget struct {
	pre, expr string
	bad       bool
}

type gridLang struct {
	name    string
	roads   []func(code string) string
	header  string
	dirAPIs []string // %s is the target expression (a directory)
	fileAPI []string // %s is the target expression (a file); W: marks emptying it, C: writing text over it
	readAPI []string // %s is the target expression (a file): always safe
	shell   []string // PATH is a path as a shell reads it
	dirs    []interpTarget
	files   []interpTarget
	remote  []interpTarget // whole code; bad says whether it is destructive
	loops   []interpTarget // whole code deleting what a glob or listing finds
}

// Paths as literals, quoted by each language with q.
var (
	gridBadDirs   = []string{"/etc/nginx", "/var/lib/postgresql", "../sibling", "src", ".git", ".", "/home/user/.config", "/opt/app"}
	gridSafeDirs  = []string{"build", "dist", "node_modules", "__pycache__", ".pytest_cache", "target", "coverage"}
	gridBadFiles  = []string{"/etc/hosts", "src/app.py", ".git/HEAD", "../notes.txt", "/var/log/syslog", "/home/user/.bashrc"}
	gridSafeFiles = []string{"build/app.o", "dist/index.js", "coverage/lcov.info", "out/report.json"}
	gridReadFiles = []string{"/etc/hosts", "src/app.py", "../notes.txt", "package.json"}
	gridBadShell  = []string{"/etc/nginx", "~/.config", "$HOME/.ssh", "../sibling", "src", ".git", ".", "/var/lib/mysql"}
	gridSafeShell = []string{"build", "dist", "node_modules", "__pycache__", ".pytest_cache", "target/debug", "coverage"}
)

func gridLits(paths []string, bad bool, q func(string) string) []interpTarget {
	var out []interpTarget
	for _, p := range paths {
		out = append(out, interpTarget{expr: q(p), bad: bad})
	}
	return out
}

func dq(s string) string { return `"` + s + `"` }

// sq puts code in single quotes for bash; the code must hold none.
func sq(code string) string { return "'" + code + "'" }

func heredoc(cmd string) func(string) string {
	return func(code string) string { return cmd + " <<'EOF'\n" + code + "\nEOF" }
}

func opt(cmd string) func(string) string {
	return func(code string) string { return cmd + " " + sq(code) }
}

func written(file, run string) func(string) string {
	return func(code string) string { return "cat > " + file + " <<'EOF'\n" + code + "\nEOF\n" + run + " " + file }
}

func gridLanguages() []gridLang {
	var ls []gridLang
	pyDirs := append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...)
	pyDirs = append(pyDirs,
		interpTarget{expr: `os.path.expanduser("~/.config")`, bad: true},
		interpTarget{expr: `Path.home() / ".ssh"`, bad: true},
		interpTarget{expr: `os.path.join(os.environ["HOME"], "projects")`, bad: true},
		interpTarget{pre: `p = os.path.join("..", "data")` + "\n", expr: "p", bad: true},
		interpTarget{pre: `target = "src"` + "\n", expr: "target", bad: true},
		interpTarget{pre: "d = tempfile.mkdtemp()\n", expr: `os.path.join(d, "x")`, bad: false},
		interpTarget{pre: "d = tempfile.mkdtemp()\n", expr: "d", bad: false},
	)
	pyFiles := append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...)
	pyFiles = append(pyFiles,
		interpTarget{expr: `os.path.expanduser("~/.bashrc")`, bad: true},
		interpTarget{expr: `Path.home() / ".gitconfig"`, bad: true},
		interpTarget{pre: "d = tempfile.mkdtemp()\n", expr: `os.path.join(d, "x.txt")`, bad: false},
	)
	ls = append(ls, gridLang{
		name:    "python",
		roads:   []func(string) string{opt("python3 -c"), heredoc("python3 -"), opt("uv run python -c"), written("x.py", "python3"), opt("poetry run python -c"), opt("python -c")},
		header:  "import os, shutil, subprocess, tempfile, json\nfrom pathlib import Path\n",
		dirAPIs: []string{"shutil.rmtree(%s)", "shutil.rmtree(%s, ignore_errors=True)"},
		fileAPI: []string{"os.remove(%s)", "os.unlink(%s)", "Path(%s).unlink()", `W:Path(%s).write_text("")`, `W:open(%s, "w").close()`, `C:open(%s, "w").write("{}")`},
		readAPI: []string{"print(open(%s).read())", "print(Path(%s).read_text())", "print(len(open(%s).readlines()))"},
		shell:   []string{`os.system("rm -rf PATH")`, `subprocess.run("rm -rf PATH", shell=True)`, `subprocess.run(["rm", "-rf", "PATH"])`, `subprocess.call("rm -rf PATH", shell=True)`, `subprocess.check_output(["rm", "-r", "PATH"])`, `subprocess.Popen("rm -rf PATH", shell=True).wait()`},
		dirs:    pyDirs,
		files:   pyFiles,
		remote: []interpTarget{
			{expr: "import boto3\nboto3.client(\"s3\").delete_object(Bucket=\"acme-prod-assets\", Key=\"index.html\")", bad: true},
			{expr: "import boto3\nboto3.client(\"s3\", endpoint_url=\"http://localhost:4566\").delete_object(Bucket=\"acme-assets\", Key=\"index.html\")", bad: false},
			{expr: "import boto3\nboto3.resource(\"s3\").Bucket(\"acme-prod-assets\").objects.all().delete()", bad: true},
			{expr: "import boto3\nboto3.client(\"s3\").delete_bucket(Bucket=\"acme-prod-assets\")", bad: true},
			{expr: "import boto3\nprint(boto3.client(\"s3\").list_objects_v2(Bucket=\"acme-prod-assets\"))", bad: false},
			{expr: "from google.cloud import storage\nstorage.Client().bucket(\"acme-prod\").delete(force=True)", bad: true},
			{expr: "from google.cloud import storage\nstorage.Client().bucket(\"acme-prod\").blob(\"a.txt\").delete()", bad: true},
			{expr: "import redis\nredis.Redis(host=\"cache.prod.acme.internal\").flushall()", bad: true},
			{expr: "import redis\nredis.Redis(host=\"localhost\").flushall()", bad: true}, // database 0 on this machine: as redis-cli -h localhost flushall
			{expr: "import redis\nredis.from_url(\"redis://localhost:6379/15\").flushdb()", bad: false},
			{expr: "import redis\nredis.Redis(host=\"cache.prod.acme.internal\").delete(\"sessions\")", bad: true},
			{expr: "import redis\nprint(redis.Redis(host=\"cache.prod.acme.internal\").get(\"k\"))", bad: false},
			{expr: "import pymongo\npymongo.MongoClient(\"mongodb://db.prod.acme.internal:27017\").app.users.delete_many({})", bad: true},
			{expr: "import pymongo\npymongo.MongoClient(\"mongodb://db.prod.acme.internal:27017\").drop_database(\"app\")", bad: true},
			{expr: "import pymongo\npymongo.MongoClient(\"mongodb://localhost:27017\").drop_database(\"app_test\")", bad: false},
			{expr: "import pymongo\nprint(pymongo.MongoClient(\"mongodb://db.prod.acme.internal:27017\").app.users.count_documents({}))", bad: false},
			{expr: "import psycopg\npsycopg.connect(\"postgresql://app@db.prod.acme.internal/app\").execute(\"DROP TABLE users\")", bad: true},
			{expr: "import psycopg2\nc = psycopg2.connect(host=\"db.prod.acme.internal\", dbname=\"app\")\nc.cursor().execute(\"TRUNCATE orders\")\nc.commit()", bad: true},
			{expr: "import psycopg\npsycopg.connect(\"postgresql://app@localhost/app_test\").execute(\"DROP TABLE users\")", bad: false},
			{expr: "import psycopg\nprint(psycopg.connect(\"postgresql://app@db.prod.acme.internal/app\").execute(\"SELECT count(*) FROM users\").fetchone())", bad: false},
			{expr: "from sqlalchemy import create_engine, text\ne = create_engine(\"postgresql://app@db.prod.acme.internal/app\")\nwith e.begin() as c:\n    c.execute(text(\"DELETE FROM sessions\"))", bad: true},
			{expr: "from sqlalchemy import create_engine, MetaData\ne = create_engine(\"postgresql://app@db.prod.acme.internal/app\")\nm = MetaData()\nm.reflect(e)\nm.drop_all(e)", bad: true},
			{expr: "import requests\nrequests.delete(\"https://api.acme.com/v1/users/42\")", bad: true},
			{expr: "import httpx\nhttpx.delete(\"https://api.acme.com/v1/projects/7\")", bad: true},
			{expr: "import requests\nrequests.delete(\"http://localhost:8000/v1/users/42\")", bad: false},
			{expr: "import requests\nprint(requests.get(\"https://api.acme.com/v1/users/42\").json())", bad: false},
			{expr: "from kubernetes import client, config\nconfig.load_kube_config()\nclient.CoreV1Api().delete_namespaced_pod(\"web-0\", \"prod\")", bad: true},
			{expr: "from kubernetes import client, config\nconfig.load_kube_config()\nprint(client.CoreV1Api().list_namespaced_pod(\"prod\"))", bad: false},
			{expr: "import glob\nfor f in glob.glob(\"src/**/*.py\", recursive=True):\n    os.remove(f)", bad: true},
			{expr: "import glob\nfor f in glob.glob(\"build/**/*.o\", recursive=True):\n    os.remove(f)", bad: false},
			{expr: "import glob\n[shutil.rmtree(d) for d in glob.glob(\"/var/lib/app/*\")]", bad: true},
			{expr: "import glob\n[shutil.rmtree(d) for d in glob.glob(\"**/__pycache__\", recursive=True)]", bad: false},
			{expr: "[p.unlink() for p in Path(\"src\").rglob(\"*.py\")]", bad: true},
			{expr: "from azure.storage.blob import BlobServiceClient\nBlobServiceClient.from_connection_string(os.environ[\"AZ\"]).delete_container(\"prod-data\")", bad: true},
		},
	})

	jsDirs := append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...)
	jsDirs = append(jsDirs,
		interpTarget{expr: `path.join(os.homedir(), ".config")`, bad: true},
		interpTarget{expr: `process.env.HOME + "/.ssh"`, bad: true},
		interpTarget{expr: `path.resolve("..")`, bad: true},
		interpTarget{pre: `const p = path.join("..", "data");` + "\n", expr: "p", bad: true},
		interpTarget{pre: "const d = fs.mkdtempSync(path.join(os.tmpdir(), \"t-\"));\n", expr: "d", bad: false},
		interpTarget{pre: "const d = fs.mkdtempSync(path.join(os.tmpdir(), \"t-\"));\n", expr: `path.join(d, "x")`, bad: false},
	)
	jsFiles := append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...)
	jsFiles = append(jsFiles,
		interpTarget{expr: `path.join(os.homedir(), ".bashrc")`, bad: true},
		interpTarget{expr: `process.env.HOME + "/.npmrc"`, bad: true},
	)
	ls = append(ls, gridLang{
		name:    "node",
		roads:   []func(string) string{opt("node -e"), opt("node --eval"), heredoc("node"), opt("bun -e"), written("x.js", "node"), opt("npx tsx -e")},
		header:  "const fs = require(\"fs\"); const path = require(\"path\"); const os = require(\"os\"); const cp = require(\"child_process\");\n",
		dirAPIs: []string{"fs.rmSync(%s, { recursive: true, force: true });", "fs.rmdirSync(%s, { recursive: true });", "fs.promises.rm(%s, { recursive: true });", "require(\"fs-extra\").removeSync(%s);", "require(\"fs-extra\").emptyDirSync(%s);"},
		fileAPI: []string{"fs.unlinkSync(%s);", "W:fs.writeFileSync(%s, \"\");", "W:fs.truncateSync(%s);", "fs.rmSync(%s);"},
		readAPI: []string{"console.log(fs.readFileSync(%s, \"utf8\"));", "console.log(fs.statSync(%s).size);"},
		shell:   []string{`cp.execSync("rm -rf PATH");`, `cp.spawnSync("rm", ["-rf", "PATH"]);`, `require("child_process").exec("rm -rf PATH");`, `cp.execSync("rm -rf PATH", { stdio: "inherit" });`},
		dirs:    jsDirs,
		files:   jsFiles,
		loops: []interpTarget{
			{expr: "for (const f of fs.readdirSync(\"src\")) fs.unlinkSync(\"src/\" + f);", bad: true},
			{expr: "for (const f of fs.readdirSync(\"dist\")) fs.unlinkSync(\"dist/\" + f);", bad: false},
			{expr: "fs.readdirSync(\".\").forEach(f => fs.rmSync(path.join(\".\", f), { recursive: true, force: true }));", bad: true},
		},
		remote: []interpTarget{
			{expr: `fetch("https://api.acme.com/v1/users/42", { method: "DELETE" }).then(r => console.log(r.status));`, bad: true},
			{expr: `fetch("http://localhost:3000/v1/users/42", { method: "DELETE" }).then(r => console.log(r.status));`, bad: false},
			{expr: `fetch("https://api.acme.com/v1/users/42").then(r => r.json()).then(console.log);`, bad: false},
			{expr: "const { createClient } = require(\"redis\");\n(async () => { const c = createClient({ url: \"redis://cache.prod.acme.internal:6379\" }); await c.connect(); await c.flushAll(); })();", bad: true},
			{expr: "const { createClient } = require(\"redis\");\n(async () => { const c = createClient({ url: \"redis://localhost:6379/9\" }); await c.connect(); await c.flushAll(); })();", bad: false},
			{expr: "const { MongoClient } = require(\"mongodb\");\n(async () => { const c = await MongoClient.connect(\"mongodb://db.prod.acme.internal\"); await c.db(\"app\").dropDatabase(); })();", bad: true},
			{expr: "const { S3Client, DeleteBucketCommand } = require(\"@aws-sdk/client-s3\");\nnew S3Client({}).send(new DeleteBucketCommand({ Bucket: \"acme-prod\" }));", bad: true},
		},
	})

	rbDirs := append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...)
	rbDirs = append(rbDirs,
		interpTarget{expr: `File.expand_path("~/.config")`, bad: true},
		interpTarget{expr: `File.join(Dir.home, ".ssh")`, bad: true},
		interpTarget{expr: `ENV["HOME"] + "/.local"`, bad: true},
		interpTarget{pre: "d = Dir.mktmpdir\n", expr: "d", bad: false},
	)
	rbFiles := append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...)
	rbFiles = append(rbFiles, interpTarget{expr: `File.join(Dir.home, ".bashrc")`, bad: true})
	ls = append(ls, gridLang{
		name:    "ruby",
		roads:   []func(string) string{opt("ruby -e"), opt("bundle exec ruby -e"), heredoc("ruby"), written("x.rb", "ruby")},
		header:  "require \"fileutils\"; require \"tmpdir\"\n",
		dirAPIs: []string{"FileUtils.rm_rf(%s)", "FileUtils.rm_r(%s)", "FileUtils.remove_dir(%s)", "FileUtils.rm_rf(Dir.glob(File.join(%s, \"*\")))"},
		fileAPI: []string{"File.delete(%s)", "File.unlink(%s)", "W:File.write(%s, \"\")", "FileUtils.rm(%s)", "FileUtils.rm_f(%s)"},
		readAPI: []string{"puts File.read(%s)", "puts File.size(%s)"},
		shell:   []string{`system("rm -rf PATH")`, "`rm -rf PATH`", `system("rm", "-rf", "PATH")`, `Kernel.system("rm -rf PATH")`, `%x(rm -rf PATH)`},
		dirs:    rbDirs,
		files:   rbFiles,
		loops: []interpTarget{
			{expr: "Dir.glob(\"lib/**/*.rb\").each { |f| File.delete(f) }", bad: true},
			{expr: "Dir.glob(\"tmp/cache/**/*\").each { |f| File.delete(f) if File.file?(f) }", bad: false},
			{expr: "Dir[File.join(Dir.home, \".config\", \"*\")].each { |d| FileUtils.rm_rf(d) }", bad: true},
		},
		remote: []interpTarget{
			{expr: "require \"redis\"\nRedis.new(url: \"redis://cache.prod.acme.internal:6379\").flushall", bad: true},
			{expr: "require \"redis\"\nRedis.new(url: \"redis://localhost:6379\").flushall", bad: true},
			{expr: "require \"redis\"\nRedis.new(url: \"redis://127.0.0.1:6379/3\").flushdb", bad: false},
			{expr: "require \"pg\"\nPG.connect(\"postgres://app@localhost/app_test\").exec(\"TRUNCATE users\")", bad: false},
			{expr: "require \"pg\"\nPG.connect(\"postgres://app@db.prod.acme.internal/app\").exec(\"TRUNCATE users\")", bad: true},
			{expr: "require \"aws-sdk-s3\"\nAws::S3::Client.new.delete_bucket(bucket: \"acme-prod\")", bad: true},
		},
	})

	plDirs := append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...)
	plDirs = append(plDirs,
		interpTarget{expr: `"$ENV{HOME}/.config"`, bad: true},
		interpTarget{pre: "my $d = tempdir(CLEANUP => 1);\n", expr: "$d", bad: false},
	)
	plFiles := append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...)
	plFiles = append(plFiles, interpTarget{expr: `"$ENV{HOME}/.bashrc"`, bad: true})
	ls = append(ls, gridLang{
		name:    "perl",
		roads:   []func(string) string{opt("perl -e"), opt("perl -E"), heredoc("perl"), written("x.pl", "perl")},
		header:  "use File::Path qw(rmtree remove_tree); use File::Temp qw(tempdir);\n",
		dirAPIs: []string{"rmtree(%s);", "remove_tree(%s);", "File::Path::rmtree(%s);"},
		fileAPI: []string{"unlink(%s);", "unlink %s;", "W:open(my $f, \">\", %s) or die; close $f;", "W:truncate(%s, 0);"},
		readAPI: []string{"open(my $f, \"<\", %s) or die; print while <$f>;"},
		shell:   []string{`system("rm -rf PATH");`, "`rm -rf PATH`;", `system("rm", "-rf", "PATH");`, `qx(rm -rf PATH);`},
		dirs:    plDirs,
		files:   plFiles,
		loops: []interpTarget{
			{expr: "unlink glob(\"src/*.c\");", bad: true},
			{expr: "unlink glob(\"build/*.o\");", bad: false},
		},
	})

	phpQ := func(s string) string { return `"` + s + `"` }
	phpDirs := append(gridLits(gridBadDirs, true, phpQ), gridLits(gridSafeDirs, false, phpQ)...)
	phpDirs = append(phpDirs, interpTarget{expr: `getenv("HOME") . "/.config"`, bad: true})
	phpFiles := append(gridLits(gridBadFiles, true, phpQ), gridLits(gridSafeFiles, false, phpQ)...)
	phpFiles = append(phpFiles, interpTarget{expr: `getenv("HOME") . "/.bashrc"`, bad: true})
	ls = append(ls, gridLang{
		name:    "php",
		roads:   []func(string) string{opt("php -r"), func(code string) string { return "php <<'EOF'\n<?php\n" + code + "\nEOF" }},
		dirAPIs: []string{"array_map(\"unlink\", glob(%s . \"/*\"));"},
		fileAPI: []string{"unlink(%s);", "W:file_put_contents(%s, \"\");"},
		readAPI: []string{"echo file_get_contents(%s);"},
		shell:   []string{`system("rm -rf PATH");`, `shell_exec("rm -rf PATH");`, `exec("rm -rf PATH");`, `passthru("rm -rf PATH");`},
		dirs:    phpDirs,
		files:   phpFiles,
		loops: []interpTarget{
			{expr: "foreach (glob(\"src/*.php\") as $f) unlink($f);", bad: true},
			{expr: "foreach (glob(\"dist/*.js\") as $f) unlink($f);", bad: false},
		},
	})

	rDirs := append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...)
	rDirs = append(rDirs,
		interpTarget{expr: `path.expand("~/.config")`, bad: true},
		interpTarget{expr: `file.path(Sys.getenv("HOME"), ".ssh")`, bad: true},
		interpTarget{expr: `file.path(tempdir(), "x")`, bad: false},
	)
	rFiles := append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...)
	ls = append(ls, gridLang{
		name:    "R",
		roads:   []func(string) string{opt("Rscript -e")},
		dirAPIs: []string{"unlink(%s, recursive = TRUE)", "unlink(%s, recursive=TRUE, force=TRUE)"},
		fileAPI: []string{"file.remove(%s)", "unlink(%s)", "W:writeLines(character(0), %s)"},
		readAPI: []string{"print(readLines(%s))"},
		shell:   []string{`system("rm -rf PATH")`, `system2("rm", c("-rf", "PATH"))`},
		dirs:    rDirs,
		files:   rFiles,
	})

	luaDirs := append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...)
	luaDirs = append(luaDirs, interpTarget{expr: `os.getenv("HOME") .. "/.bashrc"`, bad: true})
	ls = append(ls, gridLang{
		name:    "lua",
		roads:   []func(string) string{opt("lua -e")},
		fileAPI: []string{"os.remove(%s)", "W:io.open(%s, \"w\"):close()"},
		readAPI: []string{"print(io.open(%s):read(\"a\"))"},
		shell:   []string{`os.execute("rm -rf PATH")`, `io.popen("rm -rf PATH"):read("a")`},
		files:   luaDirs,
	})

	jlDirs := append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...)
	jlDirs = append(jlDirs,
		interpTarget{expr: `joinpath(homedir(), ".julia")`, bad: true},
		interpTarget{expr: "homedir()", bad: true},
		interpTarget{pre: "d = mktempdir()\n", expr: "d", bad: false},
	)
	ls = append(ls, gridLang{
		name:    "julia",
		roads:   []func(string) string{opt("julia -e")},
		dirAPIs: []string{"rm(%s, recursive=true)", "rm(%s; recursive=true, force=true)"},
		fileAPI: []string{"rm(%s)", "W:write(%s, \"\")"},
		readAPI: []string{"println(read(%s, String))"},
		shell:   []string{"run(`rm -rf PATH`)"},
		dirs:    jlDirs,
		files:   append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...),
	})

	ls = append(ls, gridLang{
		name:    "deno",
		roads:   []func(string) string{opt("deno eval"), opt("deno eval --unstable")},
		dirAPIs: []string{"Deno.removeSync(%s, { recursive: true });", "await Deno.remove(%s, { recursive: true });"},
		fileAPI: []string{"Deno.removeSync(%s);", "W:Deno.writeTextFileSync(%s, \"\");", "W:Deno.truncateSync(%s);"},
		readAPI: []string{"console.log(Deno.readTextFileSync(%s));"},
		shell:   []string{`new Deno.Command("rm", { args: ["-rf", "PATH"] }).outputSync();`},
		dirs: append(append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...),
			interpTarget{expr: `Deno.env.get("HOME") + "/.config"`, bad: true}),
		files: append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...),
	})

	ls = append(ls, gridLang{
		name:    "groovy",
		roads:   []func(string) string{opt("groovy -e")},
		dirAPIs: []string{"new File(%s).deleteDir()"},
		fileAPI: []string{"new File(%s).delete()", "W:new File(%s).text = \"\""},
		readAPI: []string{"println new File(%s).text"},
		shell:   []string{`"rm -rf PATH".execute().waitFor()`, `["rm", "-rf", "PATH"].execute().waitFor()`},
		dirs:    append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...),
		files:   append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...),
	})

	ls = append(ls, gridLang{
		name:    "pwsh",
		roads:   []func(string) string{opt("pwsh -c"), opt("pwsh -Command")},
		dirAPIs: []string{"Remove-Item -Recurse -Force %s", "Remove-Item %s -Recurse", "Get-ChildItem %s | Remove-Item -Recurse -Force"},
		fileAPI: []string{"Remove-Item %s", "W:Clear-Content %s", "W:Set-Content -Path %s -Value \"\""},
		readAPI: []string{"Get-Content %s"},
		dirs: append(append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...),
			interpTarget{expr: "$HOME/.config", bad: true}, interpTarget{expr: "$env:HOME/.ssh", bad: true}),
		files: append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...),
	})

	ls = append(ls, gridLang{
		name:    "tcl",
		roads:   []func(string) string{func(code string) string { return "echo " + sq(code) + " | tclsh" }, heredoc("tclsh")},
		dirAPIs: []string{"file delete -force %s"},
		fileAPI: []string{"file delete %s"},
		readAPI: []string{"puts [read [open %s]]"},
		shell:   []string{"exec rm -rf PATH"},
		dirs: append(append(gridLits(gridBadDirs, true, dq), gridLits(gridSafeDirs, false, dq)...),
			interpTarget{expr: "$env(HOME)/.config", bad: true}),
		files: append(gridLits(gridBadFiles, true, dq), gridLits(gridSafeFiles, false, dq)...),
	})

	ls = append(ls, gridLang{
		name:  "awk",
		roads: []func(string) string{func(code string) string { return "awk " + sq("BEGIN { "+code+" }") }, func(code string) string { return "gawk " + sq("BEGIN { "+code+" }") }},
		shell: []string{`system("rm -rf PATH")`, `print "rm -rf PATH" | "sh"`, `cmd = "rm -rf PATH"; system(cmd)`},
	})
	return ls
}

type gridCell struct {
	cmd string
	bad bool
}

func gridCells() []gridCell {
	var cells []gridCell
	for _, l := range gridLanguages() {
		var codes []gridCell
		for _, api := range l.dirAPIs {
			for _, t := range l.dirs {
				codes = append(codes, gridCell{t.pre + fmt.Sprintf(api, t.expr), t.bad})
			}
		}
		for _, api := range l.fileAPI {
			// Deleting one file of the tree is ordinary work (as rm
			// src/app.py); emptying or writing over it is not.
			api, over := strings.CutPrefix(api, "W:")
			api, _ = strings.CutPrefix(api, "C:") // writes text: as echo x > src/app.py, an edit
			for _, t := range l.files {
				bad := t.bad && (over || t.expr != dq("src/app.py"))
				codes = append(codes, gridCell{t.pre + fmt.Sprintf(api, t.expr), bad})
			}
		}
		for _, api := range l.readAPI {
			for _, p := range gridReadFiles {
				codes = append(codes, gridCell{fmt.Sprintf(api, dq(p)), false})
			}
		}
		for _, api := range l.shell {
			for _, p := range gridBadShell {
				codes = append(codes, gridCell{strings.ReplaceAll(api, "PATH", p), true})
			}
			for _, p := range gridSafeShell {
				codes = append(codes, gridCell{strings.ReplaceAll(api, "PATH", p), false})
			}
		}
		for _, t := range append(l.remote, l.loops...) {
			codes = append(codes, gridCell{t.expr, t.bad})
		}
		for i, c := range codes {
			code := l.header + c.cmd
			// The roads take turns, the API and target moving on
			// faster than the road, so that each road meets each API.
			cmd := l.roads[(i+i/len(l.roads))%len(l.roads)](code)
			if strings.Contains(code, "'") && !strings.Contains(cmd, "<<'EOF'") {
				cmd = heredoc(strings.Fields(cmd)[0])(code) // would not be valid bash in single quotes
			}
			cells = append(cells, gridCell{cmd, c.bad})
		}
	}
	return cells
}

func TestGridInterp(t *testing.T) {
	cells := gridCells()
	var nBad, nSafe, heldBad, heldSafe int
	var fails []string
	for i, c := range cells {
		if raceEnabled && i%10 != 0 {
			continue // a tenth of the cells, every API and road among them: the race detector slows the classifier twentyfold
		}
		r := classifyT(t, c.cmd)
		held := r.Class.Held()
		if c.bad {
			nBad++
			if held {
				heldBad++
			} else {
				fails = append(fails, fmt.Sprintf("MISS %q → %v %q", c.cmd, r.Class, r.Reasons))
			}
		} else {
			nSafe++
			if held {
				heldSafe++
				fails = append(fails, fmt.Sprintf("FP   %q → %v %q", c.cmd, r.Class, r.Reasons))
			}
		}
	}
	t.Logf("grid: held %d of %d destructive, %d of %d safe", heldBad, nBad, heldSafe, nSafe)
	for _, f := range fails {
		t.Error(f)
	}
}
