package policy

import (
	"cmp"
	"encoding/base64"
	"net"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Interpreter one-liners (python -c, node -e, perl -e, ruby -e, awk
// programs) are not parsed; they are scanned for the obvious: shell-outs
// with a literal command (re-parsed as shell) and recursive-delete APIs
// (judged by their literal path, destructive when it is not literal).

var (
	// shellOut matches a call that runs a shell command; the argument
	// follows the match.
	shellOut = lazyRE(`(?:\bos[:.]cmd|\bSystem\.cmd|\bSys\.command|\bUnix\.(?:system|open_process\w*)|\bdo shell script\s*|\bos\.exec[lv]p?e?|\bos\.execute|\bsystem2|\bos\.system|\bos\.popen|\bsubprocess\.(?:run|call|Popen|check_call|check_output|getoutput|getstatusoutput)|\bexecSync|\bspawnSync|\bexec|\bspawn|\bsystem|\bpopen|\bqx|%x|\bIO\.popen|\bOpen3\.\w+|\bshell_exec|\bpassthru|\bproc_open)\s*\(\s*`)
	// treeDelete matches a recursive delete; its path argument follows.
	// Libraries' helpers count as their language's own: fs-extra's
	// remove, del's deleteSync, Apache Commons' FileUtils, Symfony's
	// Filesystem->remove, Laravel's File::deleteDirectory.
	treeDelete = lazyRE(`(?:\bos\.RemoveAll|(?:\)\.)rmSync|\bshutil\.rmtree|\brmtree|\bremove_tree|\brmSync|\bfs\.rm|\bfs\.promises\.rm|\bfsPromises\.rm|\brimraf(?:\.sync)?|\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)|\bDir\.rmdir|\bDeno\.remove(?:Sync)?|\bFile\.rm_rf!?|\bBun\.\$|\.deleteDir|\.deleteRecursively|FileUtils\.deleteDirectory|FileUtils\.cleanDirectory|FileUtils\.forceDelete|\b(?:removeSync|emptyDirSync|emptyDir)|\bfse\.remove|\b(?:deleteSync|deleteAsync)|(?:Filesystem\(\)\)|\$(?:fs|filesystem|fileSystem|files))->remove|\bFile::(?:deleteDirectory|cleanDirectory))\s*\(\s*\[?\s*`)
	// fileDelete matches deleting or emptying one file; its path follows.
	fileDelete = lazyRE(`(?:(?i:\bRemove-Item|\bClear-Content|\bfile\s+delete(?:\s+-force)?)|\bos\.(?:remove|unlink|rmdir|removedirs|Remove|Truncate)|(?:\bfs\.|\)\.)(?:unlinkSync|unlink|rmdirSync|rmdir|truncateSync|truncate|writeFileSync)|\brm|\bFile\.(?:delete|unlink|rm!?)|\bFileUtils\.rm(?:_f)?|\bFiles\.delete(?:IfExists)?|\bfile\.remove|\bDeno\.truncate(?:Sync)?|\bunlink|\brmdir|\btruncate)(?:\s*\(\s*|\s+)(?:glob\s*\(?\s*)?`)
	// homeRef is a path computed from the home directory (a glob of one
	// written from ~: a relative glob is the working directory's).
	homeRef = lazyRE(`(?:\$HOME\b|(?i:\$env:(?:HOME|USERPROFILE))|\$ENV\{HOME\}|ENVIRON\[.HOME.\]|\$(?:::)?env\(HOME\)|homedir\(\)|path\.expand\(|os\.path\.expanduser|os\.homedir|Path\.home|path\.join\(\s*os\.homedir|Dir\.home|ENV\[.HOME.\]|\$ENV\{.?HOME.?\}|os\.environ\[.HOME.\]|Sys\.getenv\(.HOME.\)|os\.getenv\(.HOME.\)|getenv\(.HOME.\)|process\.env\.HOME|File\.expand_path|glob\(\s*['"]~)`)
	// secretRef is a secrets file named in code, and netRef a way to send it.
	secretRef = lazyRE(`browser_cookie|\.ssh/|\bid_(?:rsa|ed25519|ecdsa)|\.aws/credentials|\.aws/config|\.gnupg|\.kube/config|\.netrc|\.git-credentials|\.docker/config\.json|\.config/gh/hosts|\.npmrc|\.pypirc|/etc/shadow|['"/]\.env\b|\bos\.environ\b|\bprocess\.env\b|\bENV\.to_h|%ENV\b|(?i:getenv)\(\s*["'][A-Z0-9_]*(?:TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)|(?i:(?:Get-ChildItem|gci|dir|ls|Get-Item|gi)\s+(?:-Path\s+|-LiteralPath\s+)?Env:)\\*(?:\s|$|\*|[;|])`)
	netRef    = lazyRE(`\burllib|\brequests\.|\bhttp\.client|\bhttpx|\bsocket\b|\bfetch\s*\(|\baxios|\bhttps?\.request|\bNet::HTTP|\bLWP|\bHTTP::Tiny|\bIO::Socket|\bcurl|\bsmtplib|\bftplib|\bparamiko|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|DownloadString|WebClient|https?://`)
	// perlCluster is a cluster of Perl's short switches (-pe, -lne, -pi).
	perlCluster = lazyRE(`^-[a-zA-Z0-9]{1,5}$`)
	// shList is a shell run with -c from an argument list: "sh", "-c", "code".
	shList = lazyRE(`["'](?:/bin/)?(?:ba|z|da)?sh["']\s*,\s*\[?\s*["']-c["']\s*,\s*["']([^"']+)["']`)
	// interpolation is text computed inside a string literal: Ruby's,
	// Crystal's and Elixir's #{…}.
	interpolation = lazyRE(`#\{[^}]*\}`)
	// awkPrint is awk's print … | cmd (or |&, a coprocess): cmd, a string
	// or a variable, is run by sh -c with what print prints on its stdin.
	awkPrint = lazyRE(`\bprintf?\b((?:[^;}|\n>"]|"(?:[^"\\]|\\.)*")*)\|&?\s*("(?:[^"\\]|\\.)*"|[A-Za-z_]\w*)`)
	// awkGetline is awk's cmd | getline (or |&): cmd, a string or a
	// variable, is run by sh -c.
	awkGetline = lazyRE(`("(?:[^"\\]|\\.)*"|[A-Za-z_]\w*)\s*\|&?\s*getline`)
	// backticks is a command run by Perl, Ruby or PHP's `…` (Julia's is
	// a command too); in JavaScript, Go or PowerShell they are a string.
	backticks = lazyRE("`([^`]+)`")
	// templateField is a field of a JavaScript template literal, ${expr}:
	// text computed at run time.
	templateField = lazyRE(`\$\{[^}]*\}`)
	// listCall is a call that runs its string arguments as a command.
	listCall = lazyRE(`\b(?:system|exec|spawn)\s+`)
	// evalRef runs text as code: eval and exec, Lua's load, R's source,
	// Julia's include, Lisp's read-from-string.
	evalRef = lazyRE(`\beval\b|\bexec\s*\(|new Function|\.then\(eval\)|(?i)\biex\b|Invoke-Expression|(?:^|[^.\w])(?:load|loadstring|dofile|source|include|include_string)\s*\(|read-from-string|instance_eval|(?i:scriptblock\]::Create)`)
	// evalComputed runs code that is not a literal: eval(Buffer.from(…)),
	// exec(base64.b64decode(…)), new Function(process.env.X).
	evalComputed = lazyRE(`\beval\s+(?:decode\w*|pack|unpack|reverse|\$\w+|MIME::Base64::decode\w*)\b|(?:(?:^|[^.\w$])(?:eval|exec|Function|loadstring|load)|new Function|\.runInThisContext|\.runInNewContext|\bvm\.runIn\w+)\s*\(\s*(?:[A-Za-z_$][\w$.]*\s*\(|process\.env|os\.environ|ENV\[|getenv|atob|\w+\.decode)`)
	// shellWords runs the literal that follows as a shell command, without
	// parentheses: AppleScript's do shell script, Emacs Lisp's (shell-command.
	shellWords = lazyRE(`\bdo shell script\s+|\b(?:Sys\.command|Unix\.system|callCommand|spawnCommand)\s+|\((?:shell-command(?:-to-string)?|call-process-shell-command|async-shell-command)\s+`)
	// processCall runs an argument vector of literals: Emacs Lisp's
	// (call-process "prog" nil nil nil "arg" …), (process-lines "prog" …),
	// Scheme's (system* "prog" "arg" …).
	processCall = lazyRE(`\((?:call-process|process-lines|process-file|system\*|process\*)\s+`)
	// argvCall runs an argument vector given as a list, on any receiver
	// (import subprocess as s; s.run([…])); the list follows.
	argvCall = lazyRE(`\b\w+\.(?:run|call|Popen|check_call|check_output|spawn|spawnSync|execFile|execFileSync)\s*\(\s*\[`)
	// windowsPath is a Windows path: a drive (C:\), a registry hive
	// (HKLM:\), a share (\\host), a variable of Windows's (%USERPROFILE%,
	// $env:USERPROFILE).
	windowsPath = lazyRE(`^(?:[A-Za-z]:[\\/]|(?i:HK(?:LM|CU|CR|U|CC)|Registry)::?\\|\\\\|%\w+%|(?i:\$env:))`)
	// windowsMachine is PowerShell changing the machine: disks, power,
	// processes, services, the registry, the firewall, accounts.
	windowsMachine = lazyRE(`(?i)\b(?:Format-Volume|Clear-Disk|Initialize-Disk|Remove-Partition|Stop-Computer|Restart-Computer|Stop-Process|Stop-Service|Remove-Service|Set-Service|Remove-ItemProperty|Set-ItemProperty|New-ItemProperty|Remove-LocalUser|Set-ExecutionPolicy|Set-NetFirewallProfile|Disable-NetAdapter|Unregister-ScheduledTask|Register-ScheduledTask|Clear-EventLog|Remove-AppxPackage)\b`)
	// whatIf is PowerShell's dry run.
	whatIf = lazyRE(`(?i)\s-WhatIf\b`)
	// emptyTrash is AppleScript's and PowerShell's emptying of the trash.
	emptyTrash = lazyRE(`(?i)\bempty\s+(?:the\s+)?trash\b|Clear-RecycleBin`)
	// killCall signals processes from code: os.kill, process.kill,
	// Process.kill, Perl's kill 9, -1.
	killCall = lazyRE(`\bos\.kill(?:pg)?\s*\(|\bprocess\.kill\s*\(|\bProcess\.kill\b|\bsyscall\.Kill\b|(?:^|[;{(\s])kill\s*\(?\s*['"]?-?\w+['"]?\s*,|\(signal-process\s`)
	// fetched is a process substitution that downloads: <(curl …).
	fetched = lazyRE(`^<\(\s*(?:curl|wget|fetch|https?|xh|xhs|aria2c|w3m|lynx|links|elinks|lwp-request|GET|lwp-download)\b`)
	// codeDeletes is any language's way to delete or overwrite files.
	// Beyond the calls of languages tend knows, the words other languages
	// name them with: removeFile, removeDirectoryRecursive, remove_dir_all,
	// deleteSync, emptyDir, Sys.remove, file.remove, and writing over a
	// file (spit, :supersede).
	codeDeletes = lazyRE(`(?i)\bos\.remove\b|put_?contents|deletedir|delete-directory|delete-file|deleterecursively|rm_?rf|rmtree|remove_?tree|del_?dir|delete_?sync|removeitem|removeall|\.delete\b|\bdelete\(|unlink|\brm\b|rmdir|writetext|\.text\s*=|write_?file|truncate|\bwipe|shred|remove-item|(?:remove|delete|erase)[-_]?(?:file|dir|path|recursive|forcibl|sync)|emptydir|rmsync|(?:remove|delete|erase)[-_]?tree|\b(?:sys|file|fs)\.remove\b|\bspit\b|:supersede`)
	// envPath is a path read from the environment, leading a call's
	// arguments: unlink(Sys.getenv("R_LIBS_USER")), rmtree(os.environ["X"]).
	envPath = lazyRE(`^(?:\w+\.)*(?:getenv|Getenv|environ|env)\b|^\$ENV\{|^ENV\[|^process\.env`)
	// pathOpt is PowerShell's naming of the path a cmdlet acts on.
	pathOpt = lazyRE(`^(?i)-(?:Literal)?Path\s+`)
	// recursiveArg is a delete told to recurse: recursive = TRUE, rmdir(d, 's').
	recursiveArg = lazyRE(`(?i)\brecursive\s*[=:]\s*(?:true|t)\b|^\s*['"][^'"]*['"]\s*,\s*['"]s['"]\s*\)`) // and MATLAB's and Octave's rmdir(d, 's')
	// methodDelete is a client call that deletes what it names:
	// HfApi().delete_repo(…), s3.deleteBucket(…), drop_database(…),
	// bucket.delete(force=True), a rewrite of a remote repository's history
	// (HfApi().super_squash_history(…)), and an SDK's request object for it (new
	// DeleteBucketCommand(…), TerminateInstancesRequest(…)).
	methodDelete = lazyRE(`\.(?:(?:delete|drop|destroy|purge|wipe|terminate|truncate)_\w+|(?:delete|drop|destroy|purge|wipe|terminate)[A-Z]\w*|super_squash_history|squash_history|superSquashHistory)\s*\(|\.(?:delete|drop|destroy|purge)\s*\(\s*(?:force|recursive)|\.(?:delete|destroy|purge)\s*\(\s*\w+\s*=[^=]|\b(?:new\s+)?(?:Delete|Drop|Destroy|Purge|Wipe|Terminate|Empty|Truncate|Flush)[A-Z]\w*(?:Command|Request|Input)\s*\(`)
	// computedName calls a function or loads a module whose name the code
	// builds at run time, so what it calls cannot be read: require('child'
	// + '_process'), obj['exec'+'Sync'](…), PHP's $f(…) after $f = "sys" .
	// "tem", getattr(os, 'sys'+'tem'), a name decoded or reversed.
	computedName = lazyRE(`\b(?:require|__import__|import_module|import)\s*\(\s*(?:['"][^'"]*['"]\s*\+|[\w.]*(?:decode|atob|Buffer\.from|reverse|fromhex|strrev)\b)|\[\s*['"][^'"]*['"]\s*\+\s*['"][^'"]*['"]\s*\]\s*\(|\bgetattr\s*\(\s*[\w.]+\s*,\s*(?:['"][^'"]*['"]\s*\+|['"][^'"]*['"]\s*\[::-1\]|[\w.]*(?:decode|fromhex)\b)|(?:\]|\)|\$\w+)\s*\(\s*(?:Buffer\.from|atob|base64_decode|strrev|str_rot13|gzinflate|codecs\.decode|bytes\.fromhex|b64decode|base64\.b64decode|pack)\s*\(`)
	// phpDynamicCall is PHP's call of a function named by a variable,
	// set from something other than one literal: $f = "sys" . "tem"; $f(…).
	phpDynamicCall = lazyRE(`(?:^|[^\w>:$])\$(\w+)\s*\(`)
	// wholeEnv is code that takes the whole environment, every token in
	// it, as one value; uploader is a library that sends what it is given
	// to a service (an experiment tracker, an error reporter, a bucket).
	wholeEnv = lazyRE(`\bdict\(\s*os\.environ\s*\)|\bos\.environ\.(?:copy|items)\(\)|\*\*os\.environ\b|dumps\(\s*(?:dict\()?os\.environ|JSON\.stringify\(\s*process\.env\s*\)|\.\.\.process\.env\b|\bObject\.(?:entries|keys|assign|values)\([^)]*process\.env\s*\)|\bENV\.to_h\b|\bENV\.to_a\b|%ENV\b|\bos\.Environ\(\)|System\.getenv\(\)`)
	uploader = lazyRE(`\bwandb\.|\bmlflow\.|\bneptune\b|\bcomet_ml\b|\bclearml\b|\bboto3\b|\bsentry_sdk\b|\bposthog\b|\.upload\w*\s*\(|\.put_object\s*\(|\.log_params?\s*\(`)
	// envPrinted is code printing the whole environment: the environment
	// itself given to a print call (print(dict(os.environ)),
	// console.log(JSON.stringify(process.env)), pp ENV, print_r($_ENV),
	// var_dump(getenv())), or the code being only that expression (node -p
	// process.env).
	envPrinted = lazyRE(`(?:\b(?:print|pprint|console\.(?:log|dir|table|info)|puts|pp|p|say|printf|print_r|var_dump|var_export|write|json\.dump|yaml\.dump|Write-Output)\b\s*\(?\s*|^\s*)(?:(?:json\.dumps|JSON\.stringify|JSON\.pretty_generate|dict|to_json)\(\s*)*(?:os\.environ|process\.env|ENV|%ENV|\$_ENV|\$_SERVER|getenv\(\s*\))(?:\.to_h|\.to_a|\.inspect|\.copy\(\)|\.items\(\))?\s*(?:[,);\n]|$)`)
	// envLoop goes over every environment variable, and envFilter picks
	// some of them: a loop that prints each, unfiltered, prints them all.
	envLoop = lazyRE(`\bos\.environ\.items\(\)|\bENV\.(?:each|map|sort)\b|Object\.entries\(\s*process\.env\s*\)|\b(?:keys|each)\s*\(?\s*%ENV|\bforeach\s*\(\s*(?:\$_ENV|getenv\(\))` +
		// The whole environment as a map, by the call with no name: Clojure's
		// (System/getenv), the JVM's System.getenv(), Elixir's
		// System.get_env(), R's Sys.getenv(), Deno.env.toObject(), Go's
		// os.Environ(), Rust's env::vars(), Julia's pairs(ENV).
		`|\(\s*System/getenv\s*\)|\bSystem\.getenv\(\s*\)|\bSystem\.get_env\(\s*\)|\bSys\.getenv\(\s*\)|\bDeno\.env\.toObject\(\s*\)|\bos\.Environ\(\s*\)|\benv::vars(?:_os)?\(\s*\)|\bpairs\(\s*ENV\s*\)`)
	envFilter = lazyRE(`\bif\b|\bfilter\b|\bselect\b|\bgrep\b|startswith|start_with|startsWith|=~|\bmatch|includes\(|\bin\s*\(|\bin\s*\[|\bin\s*\{`)
	printCall = lazyRE(`\b(?:print|pprint|console\.(?:log|dir|table|info)|puts|pp|say|printf|print_r|echo|write|println|prn|pr|IO\.(?:puts|inspect|write)|writeln|cat|message|fmt\.Print(?:ln|f)?|System\.out\.print(?:ln|f)?)\b`)
	// inMemory is a dataframe's method that drops rows or columns from the
	// frame it returns (pandas drop_duplicates, polars drop_nulls, Spark
	// dropDuplicates): nothing stored is deleted.
	inMemory = lazyRE(`^\.(?:drop|delete)_?(?:duplicates|Duplicates\w*|nulls|Nulls|nans|NaNs|na|NA|level|Level|in_place)\b`)
	// decodedCommand runs a command a function decodes: Perl's system pack
	// "H*", …; exec(base64.b64decode(…)).
	decodedCommand = lazyRE(`\b(?:system|exec|qx|popen|spawn)\s*\(?\s*(?:pack|unpack|reverse|join|sprintf|chr|decode\w*|b64decode|unhexlify|from_base64|decode_base64|atob|Buffer\.from)\b`)
	// builtShell is a shell-out whose command starts with a variable:
	// qx{$c …}, system($c, …), `$c …`, os.system(c); decodedWord is a
	// value made from character codes or decoded (join, chr, pack, b64).
	builtShell  = lazyRE("(?:\\bqx\\s*[{(\\[/|!]|\\b(?:system|exec|popen|os\\.system)\\s*\\(?\\s*|`)\\s*(\\$?[A-Za-z_]\\w*)\\b")
	decodedWord = lazyRE(`\b(?:chr|pack|unpack|fromCharCode|b64decode|decode_base64|unhexlify|fromhex|atob|reverse)\b|\[::-1\]`)
	// downloadRun saves a download and then runs it: PowerShell's
	// Invoke-WebRequest … -OutFile f; & f.
	downloadRun = lazyRE(`(?i)(?:Invoke-WebRequest|iwr|Invoke-RestMethod|curl|wget|urlretrieve)\b[^;\n]*?(?:-OutFile|-o|,)\s*['"]?([^\s'";,)]+)`)
	// homeCall finds the home directory in any language.
	homeCall = lazyRE(`(?i)user-emacs-directory|DEPOT_PATH|\.libPaths\(|expand-user-path|home_?dir|homedirectory|user\.home|expanduser|path\.expand|Dir\.home|os\.homedir|\$HOME|getenv\(\s*["']HOME|env\[\s*["']HOME|System\.getProperty`)
	// forkLoop is a fork in a loop.
	forkLoop = lazyRE(`(?s)(?:while|loop|for)\b.{0,40}\bfork\b|\bfork\b.{0,10}\bwhile\b`)
	// reverseShell hands a process's streams to a socket.
	reverseShell = lazyRE(`dup2|pty\.spawn|/bin/(?:ba)?sh|subprocess\.\w+\(\s*\[\s*["'](?:/bin/)?(?:ba)?sh`)
	// writeCall writes the file its first argument names: open(p, "w"),
	// File.write(p, …), fs.writeFileSync(p, …), file_put_contents(p, …).
	// Group 1 is the function; the argument follows.
	writeCall = lazyRE(`\b((?:File|IO)\.(?:write|binwrite|open|new)|open|fs\.(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream)|writeFileSync|appendFileSync|file_put_contents|spit|Files\.(?:write|writeString)|os\.WriteFile|write_file|writeLines|Deno\.write(?:Text)?File(?:Sync)?|Bun\.write|file\.create)\s*\(\s*`)
	// pathWrite writes the file the expression before it names:
	// Path.home().joinpath(".bashrc").write_text(…), p.open("a").
	pathWrite = lazyRE(`\.(?:write_text|write_bytes)\s*\(|\.open\s*\(\s*['"][wa]|\.text\s*=\s*`) // and Groovy's f.text = …
	// modeArg is a file mode that writes (w, a, w+, wb …); truncating ones
	// start with w.
	modeArg = lazyRE(`^\s*,\s*(?:mode\s*=\s*)?['"]([wa])`)
	// awkOut is awk's print > file (print f(x) > file too, not print (a > b));
	// the file follows.
	awkOut = lazyRE(`\bprintf?\b(?:[^;}()\n]|\([^;}()\n]*\))*?>>?\s*("[^"]*"|[^;}\s]+)`)
	// awkEmpty is an awk print that writes nothing (or a bare newline) to
	// a file it truncates: printf "" > f, print "" > f.
	awkEmpty = lazyRE(`^printf?\s*\(?\s*""\s*\)?\s*>[^>]`)
	// pipeToShell is awk's print | "sh" and the like.
	pipeToShell = lazyRE(`\|\s*"(?:/bin/)?(?:ba|z|da)?sh\b`)
)

// backtickRuns are the languages whose `…` runs a command.
var backtickRuns = map[string]bool{"perl": true, "ruby": true, "php": true, "julia": true}

// interpCode checks interpreter code.
func (iv *inv) interpCode(code arg) {
	iv.flag(Write, "")
	if !code.ok {
		iv.flag(Unparseable, iv.name+" runs code computed at run time: "+code.shown())
		return
	}
	s := printedData.ReplaceAllString(code.s, "$1''$2") // print('rm -rf /'): text shown, not run
	s = noopCalls(s)                                    // FileUtils.rm_rf(dir, noop: true): only says what it would do
	for _, m := range append(shellOut.FindAllStringIndex(s, 8), shellAliasCalls(s)...) {
		rest := s[m[1]:]
		if q := s[m[0]:min(m[0]+2, len(s))]; q == "qx" || q == "%x" { // qx(rm -rf dist), %x(make clean): the text up to the parenthesis is the command
			if end := strings.IndexAny(rest, "()"); end >= 0 && rest[end] == ')' && !strings.ContainsAny(rest[:end], "$#`@\n") {
				iv.shell(arg{s: rest[:end], ok: true, src: rest[:end]}, iv.sc)
				continue
			}
		}
		if lit, ok := literalVar(s, rest); ok { // cmd = "rm -rf build"; system(cmd): the variable holds one literal
			iv.shell(arg{s: lit, ok: true, src: lit}, iv.sc)
			continue
		}
		if lit, n, ok := stringLitN(rest); ok {
			if joined(rest[n:]) || goesOn(rest[n:]) && !strings.HasPrefix(strings.TrimLeft(rest[n:], " \t"), ",") { // "rm -rf " .. os.getenv("HOME"), "rm -rf " $1: the command goes on, computed
				iv.builtCommand(lit)
				continue
			}
			if after := strings.TrimLeft(rest[n:], " \t"); strings.HasPrefix(after, ",") { // spawn("sh", ["-c", "…"]), execvp("rm", [...])
				if list, ok := listPrefix(strings.TrimLeft(after[1:], " \t")); ok {
					if len(list) > 0 && list[0] == lit {
						list = list[1:] // execvp's argv repeats the program
					}
					iv.c.run(argsOf(append([]string{lit}, list...)...), iv.sc, source{}, iv.depth+1)
					continue
				} else if list, ok := variadicArgs(after[1:]); ok { // system("rm", "-rf", "build"): the program's arguments, each a literal
					iv.c.run(argsOf(append([]string{lit}, list...)...), iv.sc, source{}, iv.depth+1)
					continue
				} else if !plainCallOpts(after[1:]) {
					iv.builtCommand(lit)
					continue
				}
				// execSync('npm ls', {stdio: 'inherit'}), subprocess.run('make', shell=True, check=True): the literal is the whole command
			}
			lit = interpolation.ReplaceAllString(lit, "$${interpolated}") // Ruby's "rm -rf #{dir}": text computed at run time
			if rest[0] == '`' {
				lit = templateField.ReplaceAllString(lit, "$${interpolated}") // execSync(`rm -rf ${dir}`)
			}
			iv.shell(arg{s: lit, ok: true, src: lit}, iv.sc)
			continue
		}
		if list, ok := listPrefix(rest); ok {
			iv.c.run(argsOf(list...), iv.sc, source{}, iv.depth+1)
			continue
		}
		iv.flag(Unparseable, iv.name+" one-liner runs a command computed at run time")
	}
	scratch := iv.scratchCode(s)
	if why := codeDanger(s); why != "" && !(strings.HasPrefix(why, "SQL ") && iv.scratchSQLite(s)) && !scratch {
		iv.flag(Destructive, iv.name+" one-liner: "+why)
	} else if live := liveEnv(iv); live != "" {
		if m := liveDestroy.FindStringSubmatch(s); m != nil { // MIX_ENV=prod mix run -e 'Repo.delete_all(Session)', NODE_ENV=production node -e '…'
			iv.flag(Destructive, iv.name+" runs code against production ("+live+") that calls "+m[1]+", deleting or emptying what production holds")
		}
	} else if m := liveDestroy.FindStringSubmatch(s); m != nil {
		if env := sharedEnv(iv, nil); env != "" { // MIX_ENV=staging mix run -e 'Oban.Job |> Repo.delete_all()'
			iv.flag(Destructive, iv.name+" runs code against a shared environment ("+env+") that calls "+m[1]+", deleting or emptying what it holds for everyone who uses it")
		}
	}
	for _, m := range shList.FindAllStringSubmatch(s, 8) { // ("sh", "-c", "…") in any language
		iv.shell(arg{s: m[1], ok: true, src: m[1]}, iv.sc)
	}
	piped := iv.awkPipes(s)
	if m := secretRef.FindString(s); m != "" && !strings.Contains(m, "environ") && !strings.Contains(m, "process.env") && !strings.Contains(m, "ENV") && !strings.Contains(strings.ToLower(m), "getenv") {
		if strings.HasSuffix(strings.ToLower(strings.TrimRight(m, " \t;|*\\")), "env:") {
			iv.flag(Destructive, iv.name+" one-liner lists every environment variable, tokens and keys included: "+strings.TrimSpace(m)+" (what it prints reaches the agent and its model)")
		} else {
			iv.flag(Destructive, iv.name+" one-liner reads a secrets file: "+m+" (what it prints reaches the agent and its model)")
		}
	} else {
		for _, m := range quotedPath.FindAllStringSubmatch(s, 16) { // open(expanduser('~/.config/hub'))
			if isSecretPath(m[1]) {
				iv.flag(Destructive, iv.name+" code reads a secrets file: "+m[1]+" (what it prints reaches the agent and its model)")
				break
			}
		}
	}
	if iv.name == "pwsh" || iv.name == "powershell" {
		for st := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == ';' || r == '\n' }) {
			m := psPrintsSecret.FindStringSubmatch(st)
			if m == nil {
				m = psSecretAlone.FindStringSubmatch(st)
			}
			if m != nil && !iv.sc.piped { // echo $env:OPENAI_API_KEY
				iv.flag(Destructive, iv.name+" code prints a variable named for a secret (what it prints reaches the agent and its model): $"+m[1])
				break
			}
		}
	}
	if (iv.name == "pwsh" || iv.name == "powershell") && psReads.MatchString(s) {
		for _, w := range psWords(s, "();|{}[]", 64) { // Get-Content $env:USERPROFILE\.aws\credentials
			if p := windowsHome(w); p != "" && isSecretPath(p) {
				iv.flag(Destructive, iv.name+" code reads a secrets file of the user's home: "+w+" (what it prints reaches the agent and its model)")
				break
			}
		}
	}
	if backtickRuns[strings.TrimRight(iv.name, "0123456789.")] {
		for _, m := range backticks.FindAllStringSubmatch(s, 8) { // perl and ruby run `…` in a shell
			lit := interpolation.ReplaceAllString(m[1], "$${interpolated}") // `rm -rf #{dir}`
			iv.shell(arg{s: lit, ok: true, src: lit}, iv.sc)
		}
	}
	for _, m := range listCall.FindAllStringIndex(s, 8) { // system "rm", "-rf", …; exec "/bin/sh", "-c", …
		rest := s[m[1]:]
		if list, computed := stringArgs(rest); len(list) > 0 {
			if len(list) == 1 && !computed && strings.ContainsAny(list[0], " ;|&") { // system "rm -rf ~": one string is a shell command
				iv.shell(arg{s: list[0], ok: true, src: list[0]}, iv.sc)
				continue
			}
			if computed {
				iv.builtCommand(strings.Join(list, " "))
			} else {
				iv.c.run(argsOf(list...), iv.sc, source{}, iv.depth+1)
			}
			continue
		}
		switch {
		case rest != "" && strings.ContainsRune("[$@", rune(rest[0])): // system [ARGV[0]].pack("H*"), exec @cmd
			iv.flag(Unparseable, iv.name+" one-liner runs a command computed at run time")
		case rest != "" && (rest[0] >= 'a' && rest[0] <= 'z' || rest[0] == '/'): // Tcl's exec rm -rf $env(HOME)
			line, _, _ := strings.Cut(rest, "\n")
			if i := strings.IndexAny(line, ";]}"); i >= 0 {
				line = line[:i]
			}
			if i := strings.IndexAny(line, "$["); i >= 0 {
				iv.builtCommand(line[:i])
			} else {
				iv.shell(arg{s: line, ok: true, src: line}, iv.sc)
			}
		}
	}
	for _, m := range shellWords.FindAllStringIndex(s, 8) {
		if lit, n, ok := stringLitN(s[m[1]:]); ok && !joined(s[m[1]+n:]) {
			iv.shell(arg{s: lit, ok: true, src: lit}, iv.sc)
		} else {
			iv.flag(Unparseable, iv.name+" one-liner runs a command computed at run time")
		}
	}
	for _, m := range processCall.FindAllStringIndex(s, 8) {
		if argv := lispArgs(s[m[1]:]); len(argv) > 0 {
			iv.c.run(argsOf(argv...), iv.sc, source{}, iv.depth+1)
		} else {
			iv.flag(Unparseable, iv.name+" one-liner runs a command computed at run time")
		}
	}
	for _, m := range argvCall.FindAllStringIndex(s, 8) {
		if shellOut.MatchString(s[m[0]:m[1]]) {
			continue // subprocess.run([…]): read above
		}
		if list, whole := listPrefix(s[m[1]-1:]); len(list) > 0 {
			argv := argsOf(list...)
			if !whole {
				argv = append(argv, arg{src: "<computed>"}) // ['kubectl', 'delete', 'ns', n]
			}
			iv.c.run(argv, iv.sc, source{}, iv.depth+1)
		}
	}
	if strings.Contains(s, ".execute(") || strings.Contains(s, "Deno.Command") {
		iv.commandObjects(s)
	}
	if m := windowsMachine.FindString(s); m != "" && !whatIf.MatchString(s) { // -WhatIf only says what it would do
		iv.flag(Destructive, iv.name+" one-liner changes the Windows machine: "+m)
	}
	if iv.name == "pwsh" || iv.name == "powershell" {
		iv.psCloudDestroys(s)
	}
	if iv.name == "osascript" {
		blanked := appleString.ReplaceAllStringFunc(s, func(q string) string { return `"` + strings.Repeat("x", len(q)-2) + `"` })
		if m := appleDelete.FindStringIndex(blanked); m != nil { // tell application "System Events" to delete every login item
			iv.flag(Destructive, iv.name+" code deletes what it names: "+strings.TrimSpace(s[m[0]:m[1]]))
		} else if m := appleChange.FindString(s); m != "" {
			iv.flag(Destructive, iv.name+" code changes the user's system settings through System Events: "+strings.TrimSpace(m))
		}
	}
	if emptyTrash.MatchString(s) {
		iv.flag(Destructive, iv.name+" one-liner empties the trash, deleting what is in it for good")
	}
	if m := killCall.FindString(s); m != "" {
		iv.flag(Destructive, iv.name+" one-liner signals processes: "+strings.TrimSpace(m))
	}
	if m := computedName.FindString(s); m != "" {
		iv.flag(Unparseable, iv.name+" one-liner calls a function or module whose name it computes at run time: "+strings.TrimSpace(m))
	} else if m := dispatchBuilt(iv.name, s); m != "" {
		iv.flag(Unparseable, iv.name+" one-liner calls a method whose name it builds from strings at run time: "+m)
	}
	if iv.name == "php" || strings.HasPrefix(iv.name, "php") {
		for _, m := range phpDynamicCall.FindAllStringSubmatch(s, 4) {
			if set := regexp.MustCompile(`\$` + m[1] + `\s*=\s*(['"][\w:\\]*['"])\s*;`).FindStringSubmatch(s); set != nil {
				continue // $f = 'strtoupper'; $f($x): a name the code states
			}
			iv.flag(Unparseable, iv.name+" code calls a function named by a variable it computes: $"+m[1]+"(")
			break
		}
	}
	if m := wholeEnv.FindString(s); m != "" {
		if up := uploader.FindString(s); up != "" || netRef.MatchString(s) {
			iv.flag(Destructive, iv.name+" one-liner sends the whole environment, every token in it, over the network: "+m)
		}
	}
	if !iv.sc.piped && !netRef.MatchString(s) {
		if envPrinted.MatchString(s) || envLoop.MatchString(s) && printCall.MatchString(s) && !envFilter.MatchString(s) {
			iv.flag(Destructive, iv.name+" one-liner prints every environment variable, tokens and keys included, as env does (what it prints reaches the agent and its model)")
		}
	}
	for _, m := range methodDelete.FindAllString(s, 8) {
		if !inMemory.MatchString(m) && !fileMethod.MatchString(m) && !scratch { // File(…).deleteRecursively(): a tree delete, read below
			iv.flag(Destructive, iv.name+" one-liner calls a method that deletes: "+strings.TrimRight(m, "( "))
			break
		}
	}
	if lib := netClient.FindStringSubmatch(s); lib != nil && iv.c.cmds[iv.idx].Class < Destructive && !localURLsOnly(s) && !scratch {
		if m := clientDeleteCall(s); m != nil { // stripe.Customer.delete('cus_1'), r.delete('sessions'), requests.delete(url), db.recursiveDelete(…)
			start := m[0]
			for start > 0 && (identChar(s[start-1]) || s[start-1] == '.' || s[start-1] == ':') {
				start--
			}
			iv.flag(Destructive, iv.name+" one-liner calls "+strings.TrimRight(s[start:m[1]], "( ")+" with a network client it imports ("+lib[1]+lib[2]+"): a delete of remote state, or a DELETE request")
		}
	}
	if m := deleteMethod.FindString(s); m != "" && netRef.MatchString(s) && iv.c.cmds[iv.idx].Class < Destructive && !localURLsOnly(s) { // fetch(url, {method: 'DELETE'})
		iv.flag(Destructive, iv.name+" one-liner sends a DELETE request: "+m)
	}
	if (iv.name == "clojure" || iv.name == "clj" || iv.name == "bb" || iv.name == "lein") && !localURLsOnly(s) && !strings.Contains(s, ":mem://") {
		if m := cljRemoteDelete(s); m != "" {
			iv.flag(Destructive, iv.name+" code "+m)
		}
	}
	if iv.name == "Rscript" || iv.name == "R" {
		if m := rPackageDelete(s); m != "" {
			iv.flag(Destructive, iv.name+" code calls "+m+", named for deleting or clearing what it is given, from a package that is not one of R's for local files and data: a delete of remote state")
		}
	}
	for _, m := range bareDelete.FindAllStringSubmatch(s, 8) { // from huggingface_hub import delete_repo; delete_repo('acme/x')
		if from := importedFrom(s, m[1]); from != "" && !inMemory.MatchString("."+m[1]) {
			iv.flag(Destructive, iv.name+" one-liner calls "+m[1]+", which it imports from "+from+": a function named for deleting what it is given")
			break
		}
	}
	if m := decodedCommand.FindString(s); m != "" {
		iv.flag(Unparseable, iv.name+" one-liner runs a command it decodes at run time: "+m)
	}
	for _, m := range builtShell.FindAllStringSubmatch(s, 4) { // $c=join"",map{chr}114,109; qx{$c -rf …}
		if set := regexp.MustCompile(`(?:^|[^\w.$@])` + regexp.QuoteMeta(m[1]) + `\s*=\s*([^=;\n][^;\n]*)`).FindStringSubmatch(s); set != nil && decodedWord.MatchString(set[1]) {
			iv.flag(Unparseable, iv.name+" one-liner runs a command whose name it decodes at run time: "+m[1]+" = "+cutText(set[1]))
			break
		}
	}
	for _, m := range downloadRun.FindAllStringSubmatch(s, 4) { // & /tmp/x.ps1 after saving it there
		if f := m[1]; strings.Contains(s, "& "+f) || strings.Contains(s, "&"+f) || strings.Contains(s, ". "+f) {
			iv.flag(Destructive, iv.name+" one-liner downloads a script and runs it: "+f)
		}
	}
	if m := evalComputed.FindString(s); m != "" {
		iv.flag(Unparseable, iv.name+" one-liner runs code it computes at run time: "+m)
	}
	if evalRef.MatchString(s) && netRef.MatchString(s) {
		iv.flag(Destructive, iv.name+" one-liner runs code it downloads")
	}
	if forkLoop.MatchString(s) {
		iv.flag(Destructive, iv.name+" one-liner forks in a loop: a fork bomb")
	}
	if reverseShell.MatchString(s) && (strings.Contains(s, "sock") || strings.Contains(s, "/dev/tcp")) {
		iv.flag(Destructive, iv.name+" one-liner connects a shell to the network")
	}
	iv.remoteFSDeletes(s)
	iv.eachDestroyed(s)
	iv.codeWrites(s)
	if callsDelete(s) {
		if where := iv.outsidePath(s); where != "" {
			iv.flag(Destructive, iv.name+" code deletes or overwrites files, and names "+where)
		} else if homeRef.MatchString(s) || homeCall.MatchString(s) {
			iv.flag(Destructive, iv.name+" code deletes or overwrites files under the home directory")
		} else {
			iv.deletesFound(s)
		}
	}
	if findCall.MatchString(s) {
		iv.rewritesFound(s)
	}
	if pipeToShell.MatchString(s) && !piped {
		iv.flag(Unparseable, iv.name+" program pipes its output into a shell")
	}
	if secretRef.MatchString(s) && netRef.MatchString(s) {
		iv.flag(Destructive, iv.name+" one-liner reads a secrets file or the environment and opens a network connection")
	}
	iv.sendsStdin(s)
	iv.printsSecretValue(s) // print(os.environ['OPENAI_API_KEY'])
	// The delete calls read below, with what they delete.
	var read [][2]int
	if iv.name == "pwsh" || iv.name == "powershell" {
		read = iv.psDeletes(s)
	}
	for _, m := range fileDelete.FindAllStringIndex(s, 8) {
		fn := strings.TrimRight(s[m[0]:m[1]], "( \t")
		rest := pathOpt.ReplaceAllString(s[m[1]:], "")
		if tclDelete.MatchString(fn) { // Tcl's file delete ?-force? ?--? path …: each path; -force deletes directories whole
			force := strings.Contains(fn, "-force") || strings.HasPrefix(strings.TrimSpace(rest), "-force")
			paths, computed := tclWords(rest)
			if computed && force {
				iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes a tree computed at run time")
			}
			if len(paths) > 0 || computed {
				read = append(read, [2]int{m[0], m[1]})
				iv.deletesEach(fn, paths, force)
				continue
			}
		}
		lit, ok := stringLit(rest)
		if !ok {
			lit, ok = barePath(rest) // tcl's file delete /x, PowerShell's Remove-Item ~/x
		}
		if !ok {
			lit, ok = joinedLit(rest) // unlink(file.path("build", "x.o"))
		}
		lits, isLoop := loopPaths(s, rest)
		if !ok && (joinOnTemp(s, rest) || tempDirVar(s, rest)) {
			read = append(read, [2]int{m[0], m[1]})
			continue // unlink(file.path(tempdir(), "x"), recursive = TRUE), rm(d; recursive=true) after d = mktempdir()
		}
		if ok || isLoop || tempFileVar(s, rest) || ownTempCall.MatchString(rest) {
			read = append(read, [2]int{m[0], m[1]}) // os.remove(tmp_path), fd, p = tempfile.mkstemp() … os.remove(p): the code's own scratch file
		}
		if !ok && ownTempCall.MatchString(rest) {
			continue // unlink(tempdir(), recursive = TRUE): the temp directory the interpreter made for this run
		}
		if !ok && isLoop {
			iv.deletesEach(fn, lits, false) // [os.remove(p) for p in glob.glob('*.log')]
			continue
		}
		if !ok {
			switch {
			case recursiveArg.MatchString(rest[:min(len(rest), 200)]):
				iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes a tree computed at run time")
			case envPath.MatchString(rest):
				iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes a path taken from the environment")
			case homeRef.MatchString(rest[:min(len(rest), 160)]):
				iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes a file under the home directory")
			case iv.outsidePath(s) != "":
				iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes files it finds under "+iv.outsidePath(s))
			}
			continue
		}
		if f := strings.ToLower(fn); strings.Contains(f, "truncate") || strings.Contains(f, "clear-content") { // fs.truncateSync('src/app.py'), Clear-Content: the file stays, emptied
			if t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(lit), ok: true, src: lit}); !iv.sc.remote && iv.c.emptied(t, lit) != "" {
				iv.flag(Destructive, iv.name+" one-liner "+strings.TrimLeft(fn, ").")+" empties "+iv.c.emptied(t, lit)+": "+iv.c.show(t))
				continue
			}
		}
		iv.codeDelete(fn, lit, recursiveArg.MatchString(rest[:min(len(rest), 200)])) // unlink("data", recursive = TRUE)
	}
	for _, m := range treeDelete.FindAllStringIndex(s, 8) {
		fn := strings.TrimRight(s[m[0]:m[1]], "([ \t")
		rest := s[m[1]:]
		lit, ok := stringLit(rest)
		if !ok {
			lit, ok = joinedLit(rest) // File.join("build", "*"), "dist" . "/*"
		}
		if r := fileReceiver.FindStringSubmatch(s[:m[0]]); r != nil && strings.HasPrefix(fn, ".") { // new File("src").deleteDir(), File("x").deleteRecursively()
			lit, ok = stringLit(r[1])
		}
		read = append(read, [2]int{m[0], m[1]}) // judged below, whatever its argument
		if !ok && (tempDirVar(s, rest) || ownTempCall.MatchString(rest) || joinOnTemp(s, rest)) {
			continue // d = tempfile.mkdtemp(); shutil.rmtree(d): the code's own temp dir
		}
		if lits, isLoop := loopPaths(s, rest); !ok && isLoop {
			iv.deletesEach(fn, lits, true) // for d in ('build', 'dist'): shutil.rmtree(d)
			continue
		}
		if !ok {
			iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes a directory tree computed at run time")
			continue
		}
		iv.codeDelete(fn, lit, true)
	}
	if strings.Contains(s, "unlink") || strings.Contains(s, "delete") {
		read = append(read, iv.receiverDeletes(s)...)
	}
	iv.deletesNamedWork(s, append(read, imports(s)...))
}

// importStmt is a statement that only names functions to import: Perl's
// use File::Path qw(rmtree), Python's from shutil import rmtree, and
// JavaScript's import { rmSync } from "fs" and const { rmSync } =
// require("fs"). Naming a delete function calls nothing.
var importStmt = lazyRE(`(?:^|[;\n])\s*(?:use\s+[\w:]+\s+qw[(/{\[][^)/}\]]*[)/}\]]|from\s+[\w.]+\s+import\s+[\w ,()]+|import\s+\{[^}]*\}\s+from\s+['"][^'"]+['"]|(?:const|let|var)\s+\{[^}]*\}\s*=\s*require\(\s*['"][^'"]+['"]\s*\))`)

// imports are the spans of code's import statements (importStmt).
func imports(s string) [][2]int {
	if !strings.Contains(s, "import") && !strings.Contains(s, "use ") && !strings.Contains(s, "require") {
		return nil
	}
	var out [][2]int
	for _, m := range importStmt.FindAllStringIndex(s, 16) {
		out = append(out, [2]int{m[0], m[1]})
	}
	return out
}

// callsDelete reports whether code has a delete codeDeletes finds outside
// its import statements.
func callsDelete(s string) bool {
	im := imports(s)
	for _, m := range codeDeletes.FindAllStringIndex(s, 16) {
		if !slices.ContainsFunc(im, func(r [2]int) bool { return r[0] <= m[0] && m[1] <= r[1] }) {
			return true
		}
	}
	return false
}

// netClient is the import of a library whose calls reach a service over
// the network: a cloud's, a payment or mail provider's, a model hub's, a
// hosted database's or search engine's client, an HTTP client. Group 1 or
// 2 is its name.
var netClient = lazyRE(`(?:\bimport\s+|\bfrom\s+|\brequire\s*\(?\s*['"]|\bfrom\s+['"])(?:(boto3|botocore|google\.cloud|googleapiclient|azure|stripe|openai|anthropic|huggingface_hub|redis|pymongo|motor|elasticsearch|opensearchpy|firebase_admin|supabase|twilio|sendgrid|github|gitlab|kubernetes|pinecone|qdrant_client|weaviate|algoliasearch|meilisearch|slack_sdk|requests|httpx|aiohttp|cloudflare|digitalocean|hcloud|linode_api4|shopify|contentful|sentry_sdk|wandb|mlflow)\b|(@aws-sdk/[\w-]+|@google-cloud/[\w-]+|@azure/[\w-]+|@octokit/[\w-]+|@supabase/[\w-]+|@pinecone-database/[\w-]+|@elastic/[\w-]+|@anthropic-ai/[\w-]+|@vercel/[\w-]+|@planetscale/[\w-]+|stripe|openai|ioredis|redis|mongodb|firebase-admin|axios|node-fetch|got|octokit|aws-sdk|twilio|algoliasearch|meilisearch|cloudflare)['"]|(?:Aws|Google::Cloud|Stripe|Octokit|Redis)\b)`)

// localURLsOnly reports whether code names URLs and each is of this
// machine or its own network (a dev server on localhost): what it deletes
// there is the local stack's.
func localURLsOnly(code string) bool {
	urls := codeURL.FindAllString(code, 16)
	for _, u := range urls {
		host := strings.SplitN(strings.SplitN(u, "://", 2)[1], "/", 2)[0]
		if h, _, ok := strings.Cut(host, "@"); ok {
			host = strings.TrimPrefix(host, h+"@")
		}
		if i := strings.LastIndexByte(host, ':'); i > 0 && !strings.HasSuffix(host, "]") {
			host = host[:i]
		}
		if !localHost(host) {
			return false
		}
	}
	return len(urls) > 0
}

// serverURL is a database's or an HTTP endpoint's URL in code, and
// hostArg a client's host given by name (host="localhost", host: "db").
var (
	serverURL = lazyRE(`\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqp|https?)://[^\s'"\x60)]+`)
	hostArg   = lazyRE(`\b(host|hostname|endpoint_url|endpoint|server)\s*[=:]\s*['"]([^'"]+)['"]`)
)

// scratchCode reports whether code reaches only servers on this machine
// holding test or scratch data (scratchServers), gated on its naming the
// loopback at all.
func (iv *inv) scratchCode(s string) bool {
	return (strings.Contains(s, "localhost") || strings.Contains(s, "127.0.0.1") || strings.Contains(s, "[::1]")) && iv.scratchServers(s)
}

// scratchServers reports whether the servers code reaches hold only test
// or scratch data on this machine, as their shell clients are judged: it
// names at least one, every one on the loopback; a database URL naming a
// database names one for tests (testDB; Redis's a numbered one other than
// 0); and, unless it reaches only HTTP endpoints (an emulator such as
// LocalStack, a local API), a literal in it names what it acts on for
// tests (drop_database("app_test")) or its URL does.
func (iv *inv) scratchServers(s string) bool {
	urls := serverURL.FindAllString(s, 16)
	hosts := hostArg.FindAllStringSubmatch(s, 16)
	if len(urls)+len(hosts) == 0 {
		return false
	}
	named, httpOnly := false, true
	for _, h := range hosts {
		host := h[2]
		if !strings.HasPrefix(h[1], "endpoint") {
			httpOnly = false // host="localhost": a database's or cache's server
		}
		if i := strings.Index(host, "://"); i >= 0 {
			host = host[i+3:]
		}
		host, _, _ = strings.Cut(host, "/")
		if i := strings.LastIndexByte(host, ':'); i > 0 && !strings.HasSuffix(host, "]") {
			host = host[:i]
		}
		if !loopback(strings.Trim(host, "[]")) {
			return false
		}
	}
	for _, u := range urls {
		scheme, rest, _ := strings.Cut(u, "://")
		host, db, _ := strings.Cut(rest, "/")
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		if i := strings.LastIndexByte(host, ':'); i > 0 && !strings.HasSuffix(host, "]") {
			host = host[:i]
		}
		if !loopback(strings.Trim(host, "[]")) {
			return false
		}
		db, _, _ = strings.Cut(db, "?")
		switch {
		case strings.HasPrefix(scheme, "http"):
			continue
		case strings.HasPrefix(scheme, "redis"):
			if db != "" && strings.Trim(db, "0123456789") == "" && strings.Trim(db, "0") != "" {
				named = true // redis://localhost:6379/15
			} else if db != "" {
				return false
			}
		case db != "":
			if !testDB.MatchString(db) {
				return false
			}
			named = true // postgresql://…@localhost/app_test
		}
		httpOnly = false
	}
	if httpOnly || named {
		return true
	}
	for _, m := range pathLiteral.FindAllString(s, 32) {
		if testDB.MatchString(m[1 : len(m)-1]) {
			return true // MongoClient("mongodb://localhost").drop_database("app_test")
		}
	}
	return false
}

// clientDelete is a method call that deletes what its receiver or
// argument names: .delete('cus_1'), .del(…), .destroy(…), .purge(…),
// Redis's .flushall() and .unlink(…); with a network client imported, it
// deletes remote state.
var clientDelete = lazyRE(`\.(?:delete|del|destroy|purge|drop|flushall|flushdb|unlink|delete_many|delete_one)\s*\(`)

// methodCall is a call of a method by name: .recursiveDelete(, .delete_many(.
var methodCall = lazyRE(`\.([A-Za-z_]\w*)\s*\(`)

// deleteWords are the words of a method's name that say it deletes or
// empties what it is called on (recursiveDelete, deleteMany, bulk_delete,
// dropCollection, purgeQueue, flushdb, truncate).
var deleteWords = setOf("delete", "del", "destroy", "purge", "drop", "truncate", "wipe", "erase", "flushall", "flushdb", "unlink", "nuke")

// askWords are first words of a method's name that ask about a delete or
// register a handler for one rather than do it (isDeleted, onDelete,
// canDelete, handleDestroy).
var askWords = setOf("is", "on", "can", "has", "should", "handle", "get", "will", "did", "before", "after", "allow", "confirm", "mark", "soft", "undo", "cancel")

// clientDeleteCall is the first method call in s whose name's words say
// it deletes (clientDelete, or deleteWords as its first or last word:
// recursiveDelete, deleteCollection, delete_many, flush_all, purgeQueue),
// as the index pair of the call, or nil. Flushing a stream (.flush()) and
// a dataframe's in-memory drops (inMemory) are not deletes.
func clientDeleteCall(s string) []int {
	for _, m := range methodCall.FindAllStringSubmatchIndex(s, 64) {
		name := s[m[2]:m[3]]
		if inMemory.MatchString("." + name) {
			continue
		}
		if clientDelete.MatchString(s[m[0]:m[1]]) {
			return m[:2]
		}
		ws := camelWords(name)
		if len(ws) == 0 || askWords[ws[0]] {
			continue
		}
		if deleteWords[ws[0]] || deleteWords[ws[len(ws)-1]] || len(ws) > 1 && ws[0] == "flush" {
			return m[:2]
		}
	}
	return nil
}

// deleteMethod is an HTTP request given the DELETE method.
var deleteMethod = lazyRE(`(?i)\bmethod\s*[:=]\s*['"]DELETE['"]|-X\s*DELETE\b`)

// bareDelete is a call of a function, not a method, named for deleting
// what it is given (delete_repo(…), dropDatabase(…), purge_queue(…));
// group 1 is the name. Imported from a library (importedFrom), it is
// that library's: an SDK's or client's call that deletes remote state.
var bareDelete = lazyRE(`(?:^|[^\w.$>:])((?:delete|drop|destroy|purge|wipe|terminate|empty|truncate)(?:_[a-z]\w*|[A-Z]\w*))\s*\(`)

// rNamespaced is a call in R code of a package's function by its
// namespace (googledrive::drive_rm(…)): groups 1 and 2 are the package
// and the function. rAttached is a package the code attaches
// (library(googledrive)), group 1; rBareCall a call of a function by its
// bare name, group 1.
var (
	rNamespaced = lazyRE(`\b([A-Za-z][\w.]*):::?([A-Za-z][\w.]*)\s*\(`)
	rAttached   = lazyRE(`\b(?:library|require|requireNamespace|pacman::p_load)\(\s*['"]?([A-Za-z][\w.]*)`)
	rBareCall   = lazyRE(`(?:^|[^\w.$:@])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*)\s*\(`)
)

// rLocalPackages are R's packages whose deletes and drops act on local
// files, the session's data or the library of packages (base::unlink,
// fs::file_delete, dplyr and tidyr's drops, renv::remove).
var rLocalPackages = setOf("base", "stats", "utils", "tools", "methods", "fs", "withr", "dplyr", "dbplyr", "data.table", "tidyr", "purrr",
	"rlang", "renv", "pak", "remotes", "devtools", "usethis", "testthat", "R6", "tibble", "stringr", "stringi", "readr", "readxl",
	"openxlsx", "writexl", "jsonlite", "magrittr", "ggplot2", "shiny", "knitr", "rmarkdown", "lubridate", "forcats", "vctrs", "cli",
	"glue", "duckdb", "RSQLite", "memoise", "cachem", "targets", "callr", "future", "igraph", "sf", "terra", "xml2", "roxygen2",
	"pkgload", "pkgbuild", "covr", "lintr", "styler", "arrow", "Matrix", "zoo", "xts", "tm", "quanteda", "janitor", "haven", "vroom", "qs")

// rDeleteWords are the words of an R function's name that say it
// deletes or empties what it is given: drive_rm, drive_trash,
// range_clear, sheet_delete, bq_table_delete, dbRemoveTable.
var rDeleteWords = setOf("delete", "del", "rm", "remove", "trash", "clear", "drop", "purge", "truncate", "wipe", "empty", "destroy", "erase", "unlink")

// rDeletes reports whether an R function's name is named for deleting:
// a word of rDeleteWords, not after a word that asks about it
// (is_deleted, can_remove).
func rDeletes(fn string) bool {
	ws := camelWords(strings.ReplaceAll(fn, ".", "_"))
	if len(ws) < 2 || askWords[ws[0]] {
		return false // rm(), remove(): base R's, on the session's objects
	}
	return slices.ContainsFunc(ws, func(w string) bool { return rDeleteWords[w] })
}

// rPackageDelete is the first call in R code (pkg::fn( by namespace, or
// fn( of a package the code attaches) of a function named for deleting
// (rDeletes) from a package that is not one of R's local ones
// (rLocalPackages): googlesheets4::range_clear, googledrive::drive_rm,
// bigrquery::bq_table_delete, DBI::dbRemoveTable, aws.s3::delete_object.
// "" if none.
func rPackageDelete(code string) string {
	if !strings.Contains(code, "(") {
		return ""
	}
	for _, m := range rNamespaced.FindAllStringSubmatch(code, 32) {
		if !rLocalPackages[m[1]] && rDeletes(m[2]) {
			return m[1] + "::" + m[2]
		}
	}
	attached := ""
	for _, m := range rAttached.FindAllStringSubmatch(code, 16) {
		if !rLocalPackages[m[1]] {
			attached = m[1]
		}
	}
	if attached == "" {
		return ""
	}
	for _, m := range rBareCall.FindAllStringSubmatch(code, 64) {
		if rDeletes(m[1]) && !strings.Contains(m[1], ".") {
			return m[1] + " (with " + attached + " attached)"
		}
	}
	return ""
}

// importedFrom is the module code imports name from (from m import a,
// name; import { name } from 'm'; const { name } = require('m');
// use M qw(name)), or "".
func importedFrom(code, name string) string {
	q := regexp.QuoteMeta(name)
	for _, re := range []string{
		`\bfrom\s+([\w.]+)\s+import\s+\(?[^\n;]*?\b` + q + `\b`,
		`\bimport\s*\{[^}]*\b` + q + `\b[^}]*\}\s*from\s*['"]([^'"]+)['"]`,
		`\{[^}]*\b` + q + `\b[^}]*\}\s*=\s*(?:await\s+)?(?:require|import)\s*\(\s*['"]([^'"]+)['"]`,
		`\buse\s+([\w:]+)[^;\n]*\b` + q + `\b`,
	} {
		if m := regexp.MustCompile(re).FindStringSubmatch(code); m != nil {
			return m[1]
		}
	}
	return ""
}

// appleString is an AppleScript string literal: text, not a command.
// appleDelete is AppleScript's delete command and what it deletes
// (delete every login item, delete file "x" of desktop, delete (files of
// folder f)); appleChange is System Events told to make, delete or set
// what runs at login or how the machine looks and behaves.
var (
	appleString = lazyRE(`"(?:[^"\\]|\\.)*"`)
	appleDelete = lazyRE(`(?i)\bdelete\s+(?:\(|"x*"|[a-z][\w ]{0,40}?(?:\bof\b|\bin\b|"x*"|\bitems?\b|\bfiles?\b|\bfolders?\b|$|[\n\r)]))`)
	appleChange = lazyRE(`(?is)"System Events"[^\n]*?\b(?:make\s+(?:new\s+)?login item|set\s+\w[\w ]*\bof\s+(?:appearance|security|dock|desktop)\b)`)
)

// fileMethod is a method that deletes the file or tree its receiver
// names (Groovy's deleteDir, Kotlin's deleteRecursively), and
// fileReceiver that receiver at the end of the code before it: File("x"),
// new File('x'), java.io.File("x"); the literal is group 1.
var (
	fileMethod   = lazyRE(`^\.(?:deleteDir|deleteRecursively)\b`)
	fileReceiver = lazyRE(`\bFile\s*\(\s*("[^"\\]*"|'[^'\\]*')\s*\)\s*$`)
)

// unreadCode judges text a tool tend does not know is given on its stdin,
// with nothing else to work on, as an interpreter's code is judged when
// its calls cannot be read: an operation that deletes or overwrites
// files, and a path outside the working directory or of the user's own
// work named with it.
func (iv *inv) unreadCode(text string) {
	if iv.sc.remote || !codeDeletes.MatchString(text) {
		return
	}
	if where := iv.outsidePath(text); where != "" {
		iv.flag(Destructive, iv.name+" is given code on its stdin that deletes or overwrites files, and names "+where)
		return
	}
	iv.deletesNamedWork(text, nil)
}

// fileUtilsCall is a call of Ruby's FileUtils: the module it names
// (DryRun, NoWrite, Verbose) in group 1, the method in group 2; its
// arguments follow, in parentheses or not.
var fileUtilsCall = lazyRE(`\bFileUtils(?:::(\w+))?\.(\w+[!?]?)(\s*\(|[ \t]+)`)

// noopOpt is FileUtils' noop option, its value in group 1 or 2.
var noopOpt = lazyRE(`(?:\bnoop:|:noop\s*=>)\s*(\w+)`)

// noopMethods are the FileUtils methods that take the noop option; the
// others (remove_dir, remove_entry, remove_file, copy_entry …) take a
// hash given as noop: true as a positional argument (remove_dir's force)
// and do their work.
var noopMethods = setOf("mkdir", "mkdir_p", "makedirs", "mkpath", "rmdir", "ln", "link", "ln_s", "symlink", "ln_sf", "ln_sr",
	"cp", "copy", "cp_r", "cp_lr", "mv", "move", "rm", "remove", "rm_f", "safe_unlink", "rm_r", "rm_rf", "rmtree",
	"install", "chmod", "chmod_R", "chown", "chown_R", "touch")

// noopCalls renames, in Ruby code, the FileUtils calls that only say what
// they would do, so that nothing reads them as deleting or writing:
// FileUtils::DryRun and FileUtils::NoWrite's methods, and a call of a
// method that takes noop (noopMethods) given noop: true — the last noop in its arguments wins (noop: true, noop:
// false runs). The arguments stay, to be read for what they run
// (`rm -rf ~` in a backtick runs whatever the call does).
func noopCalls(s string) string {
	if !strings.Contains(s, "FileUtils") {
		return s
	}
	ms := fileUtilsCall.FindAllStringSubmatchIndex(s, 16)
	for k := len(ms) - 1; k >= 0; k-- {
		m := ms[k]
		module := ""
		if m[2] >= 0 {
			module = s[m[2]:m[3]]
		}
		args := s[m[7]:]
		if strings.Contains(s[m[6]:m[7]], "(") {
			args = callArgs(args)
		} else if end := strings.IndexAny(args, ";\n"); end >= 0 {
			args = args[:end]
		}
		noop := module == "DryRun" || module == "NoWrite"
		if vs := noopOpt.FindAllStringSubmatch(args, -1); len(vs) > 0 && !noop && noopMethods[strings.TrimSuffix(s[m[4]:m[5]], "!")] {
			noop = vs[len(vs)-1][1] == "true"
		}
		if noop {
			s = s[:m[4]] + "dry_run" + s[m[5]:] // no name that reads as deleting
		}
	}
	return s
}

// callArgs is the text of a call's arguments, from just after its
// opening parenthesis to the one that closes it (all of s when none
// does).
func callArgs(s string) string { return s[:argEnd(s, false)] }

// argEnd is where the text of a call's arguments, from just after its
// opening parenthesis, ends: at the bracket that closes it, or at the first
// comma at its own depth when atComma (len(s) when none does). Brackets in
// string literals do not count.
func argEnd(s string, atComma bool) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"', '`':
			if _, n, ok := stringLitN(s[i:]); ok {
				i += n - 1
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 && atComma {
				return i
			}
		}
	}
	return len(s)
}

// psRemove is a PowerShell statement that deletes: Remove-Item or one of
// its aliases (ri, rm, rmdir, rd, del, erase), at a statement's start;
// its arguments follow.
var psRemove = lazyRE(`(?im)(?:^|[;|{(&]|\n)\s*(Remove-Item|ri|rm|rmdir|rd|del|erase)\b`)

// psValueOpts are Remove-Item's parameters that take a value other than
// the path (any unique prefix of them, as PowerShell reads it).
var psValueOpts = []string{"-include", "-exclude", "-filter", "-erroraction", "-ea", "-credential", "-stream", "-warningaction", "-informationaction", "-pipelinevariable", "-outvariable", "-errorvariable"}

// psDeletes judges PowerShell's Remove-Item by the paths it is given,
// relative ones too (Remove-Item -Recurse -Force src, rm -r -fo ./src,
// Remove-Item ./bin, ./obj): each as rm's operand is judged, a tree with
// -Recurse; -WhatIf deletes nothing (unless -WhatIf:$false). It returns
// the spans of the statements it read.
func (iv *inv) psDeletes(s string) [][2]int {
	var read [][2]int
	for _, m := range psRemove.FindAllStringSubmatchIndex(s, 8) {
		rest := s[m[3]:]
		if end := strings.IndexAny(rest, ";|}\n"); end >= 0 {
			rest = rest[:end]
		}
		read = append(read, [2]int{m[2], m[3]})
		words := psWords(rest, "", 32)
		recurse, whatIf, computed := false, false, false
		var paths []string
		for i := 0; i < len(words); i++ {
			w := words[i]
			lw := strings.ToLower(w)
			switch {
			case strings.HasPrefix(lw, "-whatif"):
				whatIf = !strings.HasSuffix(lw, ":$false")
			case lw == "-path" || lw == "-literalpath" || lw == "-lp" || lw == "-pspath":
			case len(lw) > 1 && lw[0] == '-' && strings.HasPrefix("-recurse", lw) && len(lw) >= 2:
				recurse = true
			case strings.HasPrefix(lw, "-") && slices.ContainsFunc(psValueOpts, func(o string) bool { return strings.HasPrefix(o, lw) && len(lw) > 2 }):
				i++ // -ErrorAction SilentlyContinue, -Include *.log
			case strings.HasPrefix(lw, "-"):
			case strings.ContainsAny(w, "$(@"):
				computed = true
			default:
				paths = append(paths, w)
			}
		}
		if whatIf {
			continue
		}
		if computed && recurse {
			iv.flag(Destructive, iv.name+" one-liner Remove-Item -Recurse deletes a tree computed at run time")
		}
		if len(paths) == 0 && !computed {
			paths = psListed(s[:m[2]]) // Get-ChildItem src | Remove-Item -Recurse: what it lists, src's children
		}
		iv.deletesEach("Remove-Item", paths, recurse)
	}
	return read
}

// psLister is PowerShell's listing of a directory piped on: Get-ChildItem
// and its aliases, the text after it following.
var psLister = lazyRE(`(?i)^\s*(?:Get-ChildItem|gci|ls|dir)\b`)

// psListed is what the listing piped into a cmdlet that ends before names:
// the children of each directory Get-ChildItem is given (src/*), or of
// the working directory (./*) when it is given none; nil when no listing
// pipes into it or a path is computed.
func psListed(before string) []string {
	before = strings.TrimRight(before, " \t")
	if !strings.HasSuffix(before, "|") {
		return nil
	}
	before = before[:len(before)-1]
	stmt := before[strings.LastIndexAny(before, ";|{\n")+1:]
	m := psLister.FindStringIndex(stmt)
	if m == nil {
		return nil
	}
	var dirs []string
	words := psWords(stmt[m[1]:], "", 16)
	for i := 0; i < len(words); i++ {
		lw := strings.ToLower(words[i])
		switch {
		case lw == "-path" || lw == "-literalpath":
		case len(lw) > 2 && (strings.HasPrefix("-filter", lw) || strings.HasPrefix("-include", lw) || strings.HasPrefix("-exclude", lw)):
			return nil // -Filter *.cs~: some files, picked by name (judged as a find is)
		case strings.HasPrefix(lw, "-") && slices.ContainsFunc(psValueOpts, func(o string) bool { return strings.HasPrefix(o, lw) && len(lw) > 2 }):
			i++
		case strings.HasPrefix(lw, "-"):
		case strings.ContainsAny(words[i], "$(@*?"):
			return nil
		default:
			dirs = append(dirs, strings.TrimRight(words[i], "/\\")+"/*")
		}
	}
	if len(dirs) == 0 {
		dirs = []string{"./*"}
	}
	return dirs
}

// psSetContent is PowerShell's writing a file whole: Set-Content and
// Out-File (not Add-Content, which appends); its words follow.
var psSetContent = lazyRE(`(?im)(?:^|[;{(&]|\n)\s*(?:Set-Content|Out-File)\b`)

// psWrites are the files PowerShell code writes whole, each with whether
// it writes nothing into it (-Value "", Clear-Content's kin).
func psWrites(s string) (files []string, empty []bool) {
	for _, m := range psSetContent.FindAllStringIndex(s, 8) {
		rest := s[m[1]:]
		if end := strings.IndexAny(rest, ";|}\n"); end >= 0 {
			rest = rest[:end]
		}
		words := psWords(rest, "", 16)
		file, value, computed := "", "x", false
		for i := 0; i < len(words); i++ {
			lw := strings.ToLower(words[i])
			switch {
			case (lw == "-path" || lw == "-literalpath" || lw == "-filepath") && i+1 < len(words):
				i++
				file = words[i]
			case lw == "-value" && i+1 < len(words):
				i++
				value = words[i]
			case strings.HasPrefix(lw, "-"):
			case file == "":
				file = words[i]
			}
		}
		if strings.ContainsAny(file, "$(@") {
			computed = true
		}
		if file != "" && !computed {
			files = append(files, file)
			empty = append(empty, value == "")
		}
	}
	return files, empty
}

// psWords splits PowerShell code into words, at most max: at blanks and
// commas, and at the brackets and separators in seps; quotes are taken
// out of a word as PowerShell reads them, where a backslash is a path's
// (C:\Users\me, $env:USERPROFILE\.aws), not an escape: in '…' only ”
// is a quote, in "…" a backtick escapes the next character.
func psWords(s, seps string, max int) []string {
	var out []string
	var w strings.Builder
	in := false // a word has begun ('' is one)
	end := func() {
		if in {
			out = append(out, w.String())
		}
		w.Reset()
		in = false
	}
	for i := 0; i < len(s) && len(out) < max; i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || strings.IndexByte(seps, c) >= 0:
			end()
		case c == '\'':
			in = true
			for i++; i < len(s); i++ {
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						w.WriteByte('\'')
						i++
						continue
					}
					break
				}
				w.WriteByte(s[i])
			}
		case c == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '`' && i+1 < len(s) {
					i++
				}
				w.WriteByte(s[i])
			}
		default:
			in = true
			w.WriteByte(c)
		}
	}
	if len(out) < max {
		end()
	}
	return out
}

// tempFileAssign is a variable given a temporary file's path or handle
// the code makes: p = tempfile.mktemp(), fd, p = tempfile.mkstemp(),
// f = tempfile.NamedTemporaryFile(…), t = Tempfile.new, os.tmpdir() + …
var tempFileAssign = lazyRE(`(?:^|[^\w.$])(\w+)\s*(?:,\s*(\w+)\s*)?:?=\s*(?:\w+\.)*(?:mkstemp|mktemp|NamedTemporaryFile|TemporaryFile|tmpnam|tempnam|Tempfile\.new|tmpdir\(\)|tmpfile|CreateTemp)\b`)

// ownTempCall is a delete's argument that is a call making or naming a
// temp file or directory of this run's own: R's tempdir() (the session's
// own RtmpXXXX) and tempfile(), Python's tempfile.mkdtemp(), Julia's
// mktempdir(), Ruby's Dir.mktmpdir, Node's mkdtempSync. Not a call naming
// the shared temp directory itself (tempfile.gettempdir(), os.tmpdir()).
var ownTempCall = lazyRE(`^\s*(?:base::)?(?:tempdir\([^()]*\)|tempfile\([^()]*\)|tempfile\.mkdtemp\([^()]*\)|mktempdir\(\s*\)|Dir\.mktmpdir\b|(?:fs\.)?mkdtempSync\([^()]*\))\s*[,)]`)

// tempFileVar reports whether the argument at the start of rest is a
// variable the code set to a temporary file of its own (tempFileAssign),
// or named for one (tmp_path, tempFile): deleting it is the code tidying
// after itself.
func tempFileVar(s, rest string) bool {
	name := strings.TrimPrefix(strings.TrimSpace(rest), "$")
	if i := strings.IndexAny(name, ",) \t\n.;"); i >= 0 {
		name = name[:i]
	}
	if name == "" || !isAssignment(name+"=") {
		return false
	}
	if l := strings.ToLower(name); strings.Contains(l, "tmp") || strings.Contains(l, "temp") {
		return true
	}
	for _, m := range tempFileAssign.FindAllStringSubmatch(s, 8) {
		if m[1] == name || m[2] == name {
			return true
		}
	}
	return false
}

// tclDelete is Tcl's file delete, as fileDelete finds it.
var tclDelete = lazyRE(`(?i)^file\s+delete`)

// tclWords reads the words of a Tcl command after file delete, up to the
// command's end (; ] } or a newline): the paths, options left out; a word
// with a substitution ($x, [cmd]) is computed at run time.
func tclWords(s string) (paths []string, computed bool) {
	for len(paths) < 16 {
		s = strings.TrimLeft(s, " \t")
		if s == "" || strings.ContainsRune(";]}\n", rune(s[0])) {
			break
		}
		var w string
		switch {
		case s[0] == '"':
			lit, n, ok := stringLitN(s)
			if !ok {
				return paths, true
			}
			w, s = lit, s[n:]
			if strings.ContainsAny(w, "$[") {
				computed = true
				continue
			}
		case s[0] == '{': // braces quote without substitution
			end := strings.IndexByte(s, '}')
			if end < 0 {
				return paths, true
			}
			w, s = s[1:end], s[end+1:]
		default:
			end := strings.IndexAny(s, " \t;]}\n")
			if end < 0 {
				end = len(s)
			}
			w, s = s[:end], s[end:]
			if strings.ContainsAny(w, "$[") {
				computed = true
				continue
			}
		}
		if !strings.HasPrefix(w, "-") && w != "" {
			paths = append(paths, w)
		}
	}
	return paths, computed
}

// deletesNamedWork holds code that names a path of the user's own work
// (the tree's root, a source root, a directory at the top of the tree,
// a source, settings or data file, a Makefile) together with an
// operation that deletes, empties or writes over files which the reading
// above has not judged: a call of a language tend has no table of
// (Guile's delete-file, Erlang's file:del_dir_r, Racket's
// delete-directory/files), or a known call handed a value the code
// computes (PHP's unlink($f) in a loop over a glob). What the call acts
// on cannot be read, and what the code names is what there is to lose.
// Code that only reads names paths without such an operation; a file
// named rm.sh or unlink.c names none.
func (iv *inv) deletesNamedWork(s string, read [][2]int) {
	if iv.c.cmds[iv.idx].Class >= Destructive || iv.sc.remote {
		return
	}
	for _, m := range writeCall.FindAllStringIndex(s, 8) { // open(p, "w"), File.write: judged by codeWrites
		read = append(read, [2]int{m[0], m[1]})
	}
	for _, m := range pathWrite.FindAllStringIndex(s, 8) {
		read = append(read, [2]int{m[0], m[1]})
	}
	for _, m := range shellOut.FindAllStringIndex(s, 8) { // os.system("rm …"): the command is judged as shell
		end := m[1]
		if _, n, ok := stringLitN(s[m[1]:]); ok {
			end += n
		}
		read = append(read, [2]int{m[0], end})
	}
	ops := pathLiteral.ReplaceAllStringFunc(s, func(lit string) string {
		if !pathLike(lit[1 : len(lit)-1]) {
			return lit
		}
		return strings.Repeat(" ", len(lit)) // a file named rm.sh: no call
	})
	op, given := "", map[string]bool{}
	for _, m := range codeDeletes.FindAllStringIndex(ops, 16) {
		if !slices.ContainsFunc(read, func(r [2]int) bool { return m[0] < r[1] && r[0] < m[1] }) {
			start, end := m[0], m[1]
			for start > 0 && identChar(s[start-1]) {
				start--
			}
			for end < len(s) && identChar(s[end]) {
				end++
			}
			if op == "" {
				op = s[start:end] // removeDirectoryRecursive, not removeDir
			}
			if lit, ok := firstLiteral(s[end:]); ok {
				given[lit] = true // (delete-directory/files "src"), rmtree "lib": what the call is given, whatever its shape
			}
		}
	}
	if op == "" {
		return
	}
	for _, m := range pathLiteral.FindAllString(s, 16) {
		lit := m[1 : len(m)-1]
		if !pathLike(lit) && !given[lit] {
			continue
		}
		t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(lit), ok: true, src: lit})
		if own := iv.c.namedWork(t, lit); own != "" {
			iv.flagWrite(t, iv.name+" code deletes or overwrites files ("+strings.TrimSpace(op)+") by a call tend does not read, and names "+own+": "+iv.c.show(t))
			return
		}
	}
}

// firstLiteral is the string literal a call's text starts with, after
// the rest of its name (/files of delete-directory/files), an opening
// parenthesis or spaces, and a Lisp pathname's #p: its first argument,
// when that is a literal.
func firstLiteral(s string) (string, bool) {
	s = strings.TrimLeft(s, "/.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-!?")
	s = strings.TrimLeft(s, " \t(")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "#p"), "#P")
	lit, ok := stringLit(s)
	return lit, ok && lit != "" && !strings.ContainsAny(lit, " \t\n")
}

// identChar reports whether b may be part of a name in code, for the
// languages whose names hold - and : (delete-file, file:del_dir_r).
func identChar(b byte) bool {
	return b == '_' || b == '-' || b == ':' || b == '!' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// pathLiteral is a quoted string in code, quotes and all.
var pathLiteral = lazyRE(`"[^"\\\s]*"|'[^'\\\s]*'`)

// pathLike reports whether a string in code reads as a path: it has a
// directory in it (src/, /home/…, ~/x), or names a file by a source or
// settings extension (README.md, config.yml) or as a build file is
// named (Makefile, Dockerfile). A bare word (app, DELETE, data) is as
// likely a key or a name as a path.
func pathLike(s string) bool {
	switch {
	case s == "" || strings.Contains(s, "://") || strings.ContainsAny(s, "$%{}()<>|;,=@"):
		return false
	case strings.Contains(s, "/"):
		return true
	case sourceName(s) || settingsFile(s):
		return true
	}
	return buildFile(s)
}

// buildFile reports whether a name is one a project's own files go by
// without an extension: Makefile, Dockerfile, Gemfile, Jenkinsfile, and
// README, LICENSE and their kin.
func buildFile(name string) bool {
	switch name {
	case "README", "LICENSE", "COPYING", "CHANGELOG", "NOTICE", "AUTHORS", "CONTRIBUTING":
		return true
	}
	return len(name) > 4 && name[0] >= 'A' && name[0] <= 'Z' && strings.HasSuffix(name, "file") && !strings.ContainsAny(name, ".*?[")
}

// namedWork says how a path named in code, t as resolved from s, holds
// the user's own work in the tree, as words for a reason, or "": the
// root, a source root or a directory at the top of the tree (ownWork), a
// source, settings, data or record file, or every one of a glob of them
// (emptied), or a build file people write (Makefile); or what no version
// control gives back (unrecoverable: users' uploads, a database file, the
// repository's store). Nothing else under what tools make is.
func (c *classifier) namedWork(t target, s string) string {
	if t.path == "" || !c.trustedProject() || t.path != c.project && !isUnder(t.path, c.project) {
		return ""
	}
	if why := unrecoverable(t); why != "" && !(dataFile(t.path) && c.scratch(t.path)) {
		return why // file:del_dir_r("priv/static/uploads"), as rm -rf of it is judged
	}
	if !t.children {
		if own := c.ownWork(t.path, true); own != "" {
			return own
		}
	}
	if own := c.emptied(t, s); own != "" {
		return own
	}
	rel := strings.TrimPrefix(t.path, c.project+"/")
	if dir := path.Dir(rel); !t.children && (dir == "." || !c.madePath(dir)) {
		if buildFile(path.Base(rel)) {
			return "a file of the project's own, " + path.Base(rel)
		}
		for d := dir; d != "." && d != "/"; d = path.Dir(d) {
			if sourceRoots[path.Base(d)] && !scratchExts[strings.ToLower(path.Ext(rel))] {
				return "a file in " + d + ", which holds the project's source" // src/main.scm
			}
		}
	}
	return ""
}

// nmap runs the Lua scripts --script names (NSE): one given as a process
// substitution, or written by this command, is judged as code.
func nmap(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	for i, a := range args {
		v := a
		switch {
		case strings.HasPrefix(a.src, "--script="):
			v = arg{s: strings.TrimPrefix(a.s, "--script="), ok: a.ok, src: strings.TrimPrefix(a.src, "--script=")}
		case a.ok && a.s == "--script" && i+1 < len(args):
			v = args[i+1]
		default:
			continue
		}
		if !v.ok && strings.HasPrefix(v.src, "<(") {
			iv.substCode(v)
		} else {
			iv.runsWritten(v, iv.interpCode)
		}
	}
	verbEffect(iv)
}

// echoedCode is a process substitution that prints one quoted literal:
// <(echo 'code'), <(printf '%s' "code"); group 1 or 2 is the text.
var echoedCode = lazyRE(`^<\(\s*(?:echo|printf(?:\s+'%s'|\s+"%s")?)\s+(?:'([^']*)'|"([^"$\x60\\]*)")\s*\)$`)

// substCode judges a script given as a process substitution (lua
// <(echo '…'), nmap --script=<(…)): one that downloads runs code from the
// network, one that prints a literal is judged as that code; any other
// cannot be read.
func (iv *inv) substCode(a arg) {
	if fetched.MatchString(a.src) {
		iv.flag(Destructive, iv.name+" runs code from the network: "+a.shown())
		return
	}
	if m := echoedCode.FindStringSubmatch(a.src); m != nil {
		code := m[1] + m[2]
		iv.interpCode(arg{s: code, ok: true, src: code})
		return
	}
	iv.flag(Unparseable, iv.name+" runs a script a process substitution prints, which tend cannot read: "+a.shown())
}

// codeDelete judges code's delete of a literal path or glob, lit, as rm's
// is judged: by where it lies (danger), then, inside the tree, by whether
// it holds the user's own work (source.go): a directory deleted whole by
// a recursive delete (shutil.rmtree('src'), unlink("data", recursive =
// TRUE)), or many source files (glob('**/*.py'), Dir["db/migrate/*.rb"],
// glob("src/*.{c,h}")). It reports whether it held the delete.
func (iv *inv) codeDelete(fn, lit string, tree bool) bool {
	if m := storageURL.FindString(lit); m != "" && !localURLsOnly(lit) { // tf.io.gfile.rmtree('gs://b/runs'), dbutils.fs.rm('dbfs:/mnt/x', True)
		iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes from remote storage ("+m+"): "+cutText(lit))
		return true
	}
	if m := windowsPath.FindString(lit); m != "" { // Remove-Item C:\Users\me\src, HKLM:\…: Windows's, outside the tree
		iv.flag(Destructive, iv.name+" one-liner "+fn+" deletes on Windows, outside the working directory: "+cutText(lit))
		return true
	}
	for _, p := range braceAlts(lit) {
		t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(p), ok: true, src: lit})
		if why := iv.c.danger(t); why != "" {
			iv.flag(Destructive, phrase(iv.name+" one-liner "+fn, why)+": "+iv.c.show(t))
			return true
		}
		own := iv.c.ownFiles(t, p, false)
		if tree && (!t.children || t.all) {
			own = cmp.Or(iv.c.ownWork(t.path, true), own)
		}
		if own != "" {
			iv.flagWrite(t, iv.name+" one-liner "+fn+" deletes "+own+": "+iv.c.show(t))
			return true
		}
	}
	return false
}

// braceAlts are the paths a pattern with {a,b} alternatives names, as
// glob("src/*.{c,h}", GLOB_BRACE) and Perl's glob read them (at most 16).
func braceAlts(p string) []string {
	open := strings.IndexByte(p, '{')
	end := strings.IndexByte(p[max(open, 0):], '}') + max(open, 0)
	if open < 0 || end <= open || !strings.Contains(p[open:end], ",") {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[open+1:end], ",") {
		for _, rest := range braceAlts(p[end+1:]) {
			if len(out) < 16 {
				out = append(out, p[:open]+alt+rest)
			}
		}
	}
	return out
}

// stdinRead is code reading its standard input: sys.stdin, STDIN.read,
// $stdin, process.stdin, <STDIN>, ARGF, io.read, readFileSync(0).
var stdinRead = lazyRE(`(?i)\bstdin\b|\bARGF\b|\bio\.read\b|\bfileinput\b|readFileSync\(\s*0\b|\bwhile\s*\(\s*<>`)

// codeURL is an address written in code.
var codeURL = lazyRE(`https?://[^\s'"\x60)\]}]+`)

// sendsStdin judges code that reads its stdin and opens a network
// connection as sending what it reads, as curl -d @- does: the
// environment or a secrets file piped to it (a loop printing ${!v},
// printenv, /proc/self/environ), or another command's output sent to a
// host off the machine that the code names.
func (iv *inv) sendsStdin(s string) {
	if iv.in.kind != srcSecret && iv.in.kind != srcPipe || !stdinRead.MatchString(s) || !netRef.MatchString(s) {
		return
	}
	if iv.in.kind == srcSecret {
		iv.flag(Destructive, iv.name+" one-liner sends what it reads on stdin, the environment or a secrets file, over the network"+dumpNote(iv.in))
		return
	}
	iv.uploadsOutput(iv.in.text, argsOf(codeURL.FindAllString(s, 8)...))
}

// dispatch is a call whose target is named by a value: Ruby's send and
// method (the name follows), Python's getattr (after the object) and
// __import__, JavaScript's Reflect.get, PHP's call_user_func and
// ->{…}(, Perl's ->$name( and &{…}; subscriptCall is a call of what a
// subscript picks, obj[…](…), whose opening bracket lies before it.
var (
	dispatch      = lazyRE(`\.(?:public_send|__send__|send|public_method|instance_method|method|const_get)\b\s*\(?|\b(?:const_get|__import__|import_module|call_user_func(?:_array)?)\s*\(|\b(getattr|Reflect\.get)\s*\(|->\{|->\$(\w+)\s*\(|&\{`)
	subscriptCall = lazyRE(`\]\s*\(`)
	// rubyDispatch are the dispatch names only Ruby means so: elsewhere
	// send and method are a socket's or a response's.
	rubyDispatch = lazyRE(`^\.(?:send|method)\b`)
	// bareArg is the argument of a Ruby call without parentheses: send
	// :x, send %w[…].join, send "x".
	bareArg = lazyRE(`^[:%"'\w(\[]`)
	// symbolName is a Ruby symbol, and plainName a variable or an
	// attribute (name, opts.verb, $m): names, not built strings.
	symbolName = lazyRE(`^:\w+[?!=]?$`)
	plainName  = lazyRE(`^[A-Za-z_$@][\w$.]*$`)
	// stringWork is a string being put together: a literal, %w[…],
	// join, chr, reverse, decode, pack, format, replace …
	stringWork = lazyRE(`['"\x60]|%[wWiI][\[({<]|\bjoin\b|\bchr\b|fromCharCode|reverse|\[::-1\]|decode|atob|\bpack\b|format|concat|replace|fromhex|unhexlify|b64|rot13|sprintf|strrev|implode|<<`)
)

// dispatchBuilt finds a call whose target's name the code builds from
// strings at run time (FileUtils.send(%w[r m _ r f].join, …),
// getattr(os, "".join(["sys", "tem"])), cp[["ex", "ec"].join("") + "Sync"](…),
// a name assigned so before: m = 'rm' + '_rf'; FileUtils.send(m, …)):
// what it calls cannot be read. A name written out (send(:rm_rf),
// getattr(os, 'path')) or held in a plain variable is the code's to state;
// it returns the call as written, "" if none.
func dispatchBuilt(lang string, s string) string {
	ruby := strings.HasPrefix(lang, "ruby") || lang == "irb" || lang == "jruby"
	for _, m := range dispatch.FindAllStringSubmatchIndex(s, 8) {
		site, rest := s[m[0]:m[1]], s[m[1]:]
		var name string
		end := m[1] // of the call as shown
		switch {
		case rubyDispatch.MatchString(site) && !ruby:
			continue
		case strings.HasPrefix(site, ".") && !strings.HasSuffix(site, "(") && (strings.TrimRight(site, " \t") == site || !bareArg.MatchString(rest)):
			continue // request.method == "GET": no call
		case m[4] >= 0: // ->$m(
			name = "$" + s[m[4]:m[5]]
		case m[2] >= 0: // getattr(obj, NAME)
			_, n := firstArg(rest)
			if n >= len(rest) || rest[n] != ',' {
				continue
			}
			var k int
			name, k = firstArg(rest[n+1:])
			end += n + 1 + k
		default: // the first argument; &{…} and ->{…} up to the closing brace
			var k int
			name, k = firstArg(rest)
			end += k
		}
		if builtName(name, s, true) {
			return cutText(strings.TrimSpace(s[m[0]:end]))
		}
	}
	for _, m := range subscriptCall.FindAllStringIndex(s, 8) {
		depth := 0
		for i := m[0]; i >= 0; i-- {
			switch s[i] {
			case ']':
				depth++
			case '[':
				depth--
			}
			if depth == 0 {
				if i == 0 || !subscripted(s[i-1]) {
					break // r"sh\s+['\"](": a regex's class, a list: nothing is subscripted
				}
				if name := s[i+1 : m[0]]; builtName(name, s, true) {
					return cutText(s[i:m[1]])
				}
				break
			}
		}
	}
	return ""
}

// subscripted reports whether b, just before a [, ends what a subscript
// can follow: a name, a call, another subscript, a string.
func subscripted(b byte) bool {
	return b == '_' || b == ')' || b == ']' || b == '}' || b == '\'' || b == '"' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// builtName reports whether expr, a call's target's name in code, is a
// string put together at run time rather than written out: not a literal
// (without interpolation), a symbol or a plain name; a plain variable is
// looked up where the code assigns it (once deep, when lookup is true).
func builtName(expr, code string, lookup bool) bool {
	expr = strings.TrimSpace(expr)
	for _, conv := range []string{".to_sym", ".to_s", ".intern", ".to_str", ".toString()"} {
		expr = strings.TrimSuffix(expr, conv)
	}
	for len(expr) > 1 && expr[0] == '(' && expr[len(expr)-1] == ')' {
		expr = strings.TrimSpace(expr[1 : len(expr)-1])
	}
	if lit, n, ok := stringLitN(expr); ok && n == len(expr) {
		return expr[0] != '\'' && (strings.Contains(lit, "#{") || expr[0] == '`' && strings.Contains(lit, "${"))
	}
	switch {
	case expr == "" || symbolName.MatchString(expr):
		return false
	case plainName.MatchString(expr):
		if !lookup || strings.Contains(expr, ".") {
			return false
		}
		set := regexp.MustCompile(`(?:^|[^\w.$@])` + regexp.QuoteMeta(expr) + `\s*=\s*([^=;\n][^;\n]*)`).FindStringSubmatch(code)
		return set != nil && builtName(set[1], code, false)
	}
	return stringWork.MatchString(expr)
}

// loopVar binds a loop's variable to what it goes over: Python's for x
// in …, JavaScript's for (const x of …), and a Ruby or JavaScript block
// over a list (….each { |x| …, ….forEach(x => …); group 1 or 3 is the
// variable, 2 or 4 what it goes over; PHP's foreach (… as $x), groups 6
// and 5.
var loopVar = lazyRE(`\bfor\s*\(?\s*(?:const\s+|let\s+|var\s+)?(\w+)\s+(?:in|of)\s+([^\n:]{1,200})|((?:\[[^\]\n]*\]|%w[\[(][^\])\n]*[\])]|\b(?:glob\.i?glob|Dir\.glob|glob)\s*\([^)\n]*\)|Dir\[[^\]\n]*\]))\s*\.(?:each|forEach)\s*(?:do\s*|\{\s*|\(\s*)?\|?\(?\s*(\w+)|\bforeach\s*\(\s*([^\n]{1,200}?)\s+as\s+(?:\$\w+\s*=>\s*)?\$(\w+)\s*\)`)

// loopPaths reads the variable a delete call is given (at the start of
// rest) as a loop's variable over literal paths, and returns them: a
// literal list or tuple of strings, or a glob of one literal pattern
// (glob.glob('*.log'), Dir.glob('tmp/*')). isLoop is false when the
// variable is not such a loop's.
func loopPaths(s, rest string) (paths []string, isLoop bool) {
	name := strings.TrimPrefix(strings.TrimSpace(rest), "$") // PHP's unlink($f)
	if i := strings.IndexAny(name, ",) \t\n"); i >= 0 {
		name = name[:i]
	}
	if name == "" || !isAssignment(name+"=") {
		return nil, false
	}
	for _, m := range loopVar.FindAllStringSubmatch(s, 8) {
		v, over := m[1], m[2]
		if v == "" {
			v, over = m[4], m[3]
		}
		if v == "" {
			v, over = m[6], m[5]
		}
		if v != name {
			continue
		}
		over = strings.TrimSpace(over)
		if g := pathGlob.FindStringSubmatch(over); g != nil {
			return pathGlobPaths(g)
		}
		if g := loopGlob.FindStringSubmatch(over); g != nil {
			if lit, ok := stringLit(g[1]); ok {
				return []string{lit}, true
			}
			return nil, false
		}
		if w, ok := strings.CutPrefix(over, "%w"); ok && len(w) > 1 { // Ruby's %w[a b]
			return strings.Fields(w[1:strings.IndexAny(w, "])")]), true
		}
		if over != "" && (over[0] == '(' || over[0] == '[') {
			var out []string
			for rest := strings.TrimSpace(over[1:]); ; {
				lit, n, ok := stringLitN(rest)
				if !ok {
					return nil, false
				}
				out = append(out, lit)
				rest = strings.TrimLeft(rest[n:], " ,")
				if rest != "" && (rest[0] == ')' || rest[0] == ']') {
					return out, true
				}
			}
		}
		return nil, false
	}
	return nil, false
}

// pathGlob is pathlib's glob of a pattern under a directory:
// Path('src').glob('*.egg-info'), Path.cwd().rglob('__pycache__'),
// sorted(Path('.').glob(…)); groups: the directory's literal (none for
// Path() and Path.cwd()), home for Path.home(), the method, the pattern.
var pathGlob = lazyRE(`^(?:(?:sorted|list|set|tuple)\(\s*)?(?:pathlib\.)?(?:Pure)?(?:Posix)?Path(?:\(\s*(['"][^'"]*['"])?\s*\)|\.cwd\(\s*\)|\.(home)\(\s*\))\.(r?glob)\(\s*(['"][^'"]*['"])\s*\)`)

// pathGlobPaths are the globs, as rm would be given them, that a
// pathGlob match deletes: dir/pattern, and for rglob (or a pattern
// starting **/) the pattern at any depth, dir/**/pattern.
func pathGlobPaths(g []string) ([]string, bool) {
	dir := "."
	if g[1] != "" {
		lit, ok := stringLit(g[1])
		if !ok {
			return nil, false
		}
		dir = strings.TrimSuffix(cmp.Or(lit, "."), "/")
	}
	if g[2] != "" {
		dir = "~"
	}
	pat, ok := stringLit(g[4])
	if !ok || pat == "" || strings.HasPrefix(pat, "/") {
		return nil, false
	}
	pat = strings.TrimPrefix(pat, "./")
	out := []string{dir + "/" + pat}
	if p, deep := strings.CutPrefix(pat, "**/"); deep {
		out = append(out, dir+"/"+p)
	} else if g[3] == "rglob" {
		out = append(out, dir+"/**/"+pat)
	}
	return out, true
}

// loopGlob is a glob call of a pattern that follows: glob.glob(…), Dir[…].
var loopGlob = lazyRE(`^(?:glob\.i?glob|Dir\.glob|glob|Dir\[)\s*\(?\s*(['"][^'"]*['"])`)

// emptyContent is an empty string given as what a write call writes:
// File.write(f, ""), writeFileSync(f, ”).
var emptyContent = lazyRE(`^\s*,\s*(?:""|''|b""|b'')\s*[),]`)

// emptiesEach judges writing nothing into each literal path or glob a
// loop gives a write call, as emptying them (source.go's emptied).
func (iv *inv) emptiesEach(fn string, paths []string) {
	for _, lit := range paths {
		t := iv.c.resolve(iv.sc, arg{s: lit, ok: true, src: lit})
		if why := iv.c.danger(t); why != "" && why != "unresolved" {
			iv.flag(Destructive, phrase(iv.name+" one-liner "+fn+" empties files", why)+": "+iv.c.show(t))
			return
		}
		if own := iv.c.emptied(t, lit); own != "" {
			iv.flagWrite(t, iv.name+" one-liner "+fn+" empties "+own+": "+iv.c.show(t))
			return
		}
	}
}

// deletesEach judges a delete call on each literal path a loop gives it;
// tree is a recursive delete's (for d of ['dist', 'src'] rmSync(d, …)).
func (iv *inv) deletesEach(fn string, paths []string, tree bool) {
	for _, lit := range paths {
		if iv.codeDelete(fn, lit, tree) {
			return
		}
	}
}

// printedData is a string literal given alone to a function that only
// prints it (print, console.log, puts, echo, say): what it says is shown,
// not run. A literal that interpolates (#{…}, ${…}, `…`) is left alone.
var printedData = lazyRE(`(\b(?:print|println|printf|puts|say|echo|console\.(?:log|error|info|warn|debug)|System\.out\.println|fmt\.Print(?:ln|f)?)\s*\(?\s*)(?:'(?:[^'\\$#\x60]|\\.)*'|"(?:[^"\\$#\x60]|\\.)*")(\s*(?:\)|;|\n|$))`)

// sqliteOpen opens an SQLite database file from code; its path follows.
var sqliteOpen = lazyRE(`(?:\bsqlite3\.connect|\bsqlite3?\.Database|\bnew\s+(?:\w+\.)?Database|\bSQLite3::Database\.new|\bDatabase)\s*\(?\s*`)

// scratchSQLite reports whether code opens SQLite databases only in
// scratch places (./tmp, the temp dirs, :memory:): SQL run there drops
// nothing anyone keeps (db.go's scratchDatabase).
func (iv *inv) scratchSQLite(s string) bool {
	opens := sqliteOpen.FindAllStringIndex(s, 8)
	for _, m := range opens {
		lit, ok := stringLit(s[m[1]:])
		if !ok || lit != ":memory:" && !iv.scratchDatabase(lit) {
			return false
		}
	}
	return len(opens) > 0
}

// tempDirAssign is a variable given a new temp dir the code makes:
// d = tempfile.mkdtemp(), d = pathlib.Path(tempfile.mkdtemp()), const d =
// fs.mkdtempSync(…), d = Dir.mktmpdir; or (the second group) with
// tempfile.TemporaryDirectory() as d.
var tempDirAssign = lazyRE(`([A-Za-z_$][\w$]*)\s*:?=\s*(?:(?:pathlib\.)?Path\(\s*)?(?:tempfile\.mkdtemp|mkdtemp|fs\.mkdtempSync|mkdtempSync|Dir\.mktmpdir|os\.MkdirTemp|File::Temp->newdir|mktempdir|tempdir)\b|\bwith\s+(?:tempfile\.)?TemporaryDirectory\([^()]*\)\s+as\s+([A-Za-z_]\w*)\s*:`)

// bound finds where code binds a variable: name = …, name := …, as name,
// for name.
var bound = lazyRE(`(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*:?=[^=]|\b(?:as|for)\s+([A-Za-z_]\w*)\b`)

// tempDirVar reports whether the argument at the start of rest is a
// variable the code set to a temp dir it made, and bound nowhere else.
func tempDirVar(s, rest string) bool {
	name := strings.TrimSpace(rest)
	if i := strings.IndexAny(name, ",;) \t\n"); i >= 0 {
		name = name[:i]
	}
	made, binds := 0, 0
	for _, m := range tempDirAssign.FindAllStringSubmatch(s, 8) {
		if name != "" && (m[1] == name || m[2] == name) {
			made++
		}
	}
	for _, m := range bound.FindAllStringSubmatch(s, -1) {
		if name != "" && (m[1] == name || m[2] == name) {
			binds++
		}
	}
	return made == 1 && binds == 1
}

// pathJoin is a call that joins path parts, or a glob of what one names;
// its first argument follows.
var pathJoin = lazyRE(`^(?:os\.path\.join|path\.join|path\.resolve|File\.join|file\.path|joinpath|(?:pathlib\.)?Path|Dir\.glob|glob\.i?glob|glob)\s*\(\s*`)

// joinOnTemp reports whether the argument at the start of rest joins a
// path onto a temp dir the code made: os.path.join(d, "x") after d =
// tempfile.mkdtemp(), file.path(tempdir(), "x").
func joinOnTemp(s, rest string) bool {
	m := pathJoin.FindStringIndex(rest)
	if m == nil {
		return false
	}
	inner := rest[m[1]:]
	parts, _ := stringArgs(strings.TrimPrefix(inner[argEnd(inner, true):], ","))
	for _, p := range parts {
		if strings.Contains(p, "..") || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
			return false // file.path(tempdir(), ".."), os.path.join(d, "/etc"): out of the temp dir
		}
	}
	return tempDirVar(s, inner) || ownTempCall.MatchString(inner) || joinOnTemp(s, inner)
}

// joinedLit reads a path made only of literals at the start of s: a join
// of them (File.join("build", "*"), os.path.join("dist", "x")), a glob of
// such a path (Dir.glob(File.join("build", "*")), glob("build/*")), or
// literals concatenated ("build" . "/*", "dist" + "/x").
func joinedLit(s string) (string, bool) {
	if m := pathJoin.FindStringIndex(s); m != nil {
		inner := s[m[1]:]
		if lit, ok := joinedLit(inner); ok && strings.HasPrefix(strings.TrimSpace(inner[argEnd(inner, false):]), ")") {
			return lit, true // Dir.glob(File.join("build", "*"))
		}
		parts, computed := stringArgs(inner)
		if len(parts) == 0 || computed || !strings.HasPrefix(strings.TrimSpace(inner[argEnd(inner, false):]), ")") {
			return "", false
		}
		return path.Join(parts...), true
	}
	var out strings.Builder
	for n := 0; ; n++ {
		lit, k, ok := stringLitN(strings.TrimLeft(s, " \t"))
		if !ok {
			return "", false
		}
		out.WriteString(lit)
		s = strings.TrimLeft(strings.TrimLeft(s, " \t")[k:], " \t")
		op := ""
		for _, o := range []string{"..", ".", "+"} {
			if strings.HasPrefix(s, o) {
				op = o
				break
			}
		}
		if op == "" {
			return out.String(), n > 0 && out.Len() > 0
		}
		s = s[len(op):]
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

// listPrefix reads the literals at the start of a Python or JS list
// ["a", "b", x, …]:
// whole is false when something other than a literal follows them.
func listPrefix(s string) (out []string, whole bool) {
	closer := "]"
	switch {
	case strings.HasPrefix(s, "["):
		s = s[1:]
	case strings.HasPrefix(s, "c("): // R's vector: system2("rm", c("-rf", "build"))
		s, closer = s[2:], ")"
	default:
		return nil, false
	}
	s = strings.TrimSpace(s)
	for {
		lit, n, ok := stringLitN(s)
		if !ok {
			return out, false
		}
		out = append(out, lit)
		s = strings.TrimSpace(s[n:])
		switch {
		case strings.HasPrefix(s, ","):
			s = strings.TrimSpace(s[1:])
		case strings.HasPrefix(s, closer):
			return out, true
		default:
			return out, false
		}
	}
}

// interp builds a handler for an interpreter whose code options are listed;
// clustered short options ending in e (perl -pe, -ne) also take code.
func interp(codeOpts ...string) handler {
	return func(iv *inv) {
		iv.flag(Write, "")
		args := iv.rest(1)
		var perlLoop byte // perl's -p or -n: the code runs for each line
		for i := 0; i < len(args); i++ {
			a := args[i]
			if !a.ok {
				if strings.HasPrefix(a.src, "<(") && !fetched.MatchString(a.src) {
					iv.substCode(a) // lua <(echo 'os.execute(…)'): the script is what the substitution prints
					return
				}
				continue
			}
			isCode := contains(codeOpts, a.s) || codeCluster(iv.name, a.s, codeOpts) ||
				(iv.name == "perl" && perlCluster.MatchString(a.s) && strings.ContainsAny(a.s[len(a.s)-1:], "eE"))
			if iv.name == "perl" && perlCluster.MatchString(a.s) && strings.Contains(a.s, "i") {
				iv.perlInPlace = true
			}
			if iv.name == "perl" && perlCluster.MatchString(a.s) && strings.Contains(a.s, "p") {
				perlLoop = 'p'
			} else if iv.name == "perl" && perlCluster.MatchString(a.s) && strings.Contains(a.s, "n") && perlLoop == 0 {
				perlLoop = 'n'
			}
			if (iv.name == "pwsh" || iv.name == "powershell") && i+1 < len(args) && isEncodedCommand(a.s) {
				iv.interpCode(utf16Base64(args[i+1])) // -EncodedCommand: base64 of UTF-16LE text
				return
			}
			if isCode && !strings.HasPrefix(a.s, "-") { // deno eval --unstable-kv -T 'code': a subcommand's options come before its code
				for i+1 < len(args) && args[i+1].ok && strings.HasPrefix(args[i+1].s, "-") && len(args[i+1].s) > 1 && i+2 < len(args) {
					if subcommandValueOpts[args[i+1].s] {
						i++
					}
					i++
				}
			}
			if isCode && i+1 < len(args) {
				code, last := moreCode(iv.name, args, i+1, codeOpts)
				iv.interpCode(code)
				iv.deletesArgs(code, args[last+1:]) // xargs -I{} python3 -c 'os.remove(sys.argv[1])' {}
				if iv.perlInPlace {
					iv.inPlace(args[last+1:])
					if m := fetchRun.FindString(lineEscapes.Replace(code.s)); m != "" { // as sed -i (fs.go)
						iv.flag(Destructive, "perl -i puts code that fetches and runs code from the network into its files: "+cutText(m))
					}
					iv.perlEmpties(perlLoop, args[i+1], args[i+2:])
				}
				return
			}
			for _, o := range codeOpts {
				if strings.HasPrefix(o, "--") && strings.HasPrefix(a.s, o+"=") {
					iv.interpCode(arg{s: strings.TrimPrefix(a.s, o+"="), ok: true})
					return
				}
			}
			if a.s != "-" && !strings.HasPrefix(a.s, "-") && i > 0 && takesValue(args[i-1]) && codeFollows(iv.name, args[i+1:], codeOpts) {
				if !iv.runsWritten(a, iv.interpCode) { // python3 -W ignore -c …, racket -l racket/base -e …: the value of an option (a file it loads, judged as a script)
					iv.unseenScript(a)
				}
				continue
			}
			if a.s == "-" || !strings.HasPrefix(a.s, "-") {
				if b, ok := scriptFetched(args[i:]); ok { // deno run -A https://…: code from the network
					iv.flag(Destructive, iv.name+" runs code from the network: "+b.shown())
					return
				}
				if a.s != "-" { // a script file: ordinary work, unless this command wrote it or its words say otherwise (manage.py flush)
					if !iv.runsWritten(a, iv.interpCode) {
						iv.unseenScript(a)
						iv.destroyingScript(a, args[i+1:])
						verbEffect(iv)
					}
					return
				}
				break
			}
			if a.s == "-m" { // python -m module
				if rest := args[i+1:]; len(rest) >= 4 && (rest[0].s == "zipfile" || rest[0].s == "tarfile") && (rest[1].s == "-e" || rest[1].s == "--extract") {
					iv.extractInto(rest[3]) // python3 -m zipfile -e x.zip DIR unpacks into DIR, over what is there
				}
				if rest := args[i+1:]; len(rest) > 0 && rest[0].ok && rest[0].s != "pip" && rest[0].s != "pip3" && moduleCLIs[rest[0].s] {
					iv.exec(rest) // python3 -m keyring get svc me: the module's command line, as keyring get svc me
				}
				verbEffect(iv)
				return
			}
		}
		// No code and no script: the interpreter runs its stdin.
		iv.runStdin(iv.interpCode, "code")
	}
}

// subcommandValueOpts are options of an interpreter's code-running
// subcommand (deno eval) that take the next word as their value.
var subcommandValueOpts = setOf("--import-map", "--config", "-c", "--ext", "--lock", "--cert", "--location", "--env-file", "--seed", "--v8-flags", "--inspect")

// moduleCLIs are Python packages whose command line run as a module
// (python3 -m keyring get svc me) is the command of the same name.
var moduleCLIs = setOf("keyring", "twine", "poetry", "pipx", "uv", "ansible", "httpie", "celery", "alembic", "dvc", "mkdocs",
	"huggingface_hub", "sqlite3")

// scriptVerbs, in the name of a project's own script, say it destroys
// what it is pointed at (nameVerbs, and the registries' and clouds' own
// words: yank_old.py, teardown-env.sh).
var scriptVerbs = map[string]bool{
	"yank": true, "unpublish": true, "teardown": true, "deprovision": true, "decommission": true, "terminate": true,
	"deregister": true, "revoke": true,
}

// remoteOptWords are words of an option's name by which a script is told
// which remote account, registry or place to act on, or given the
// credential to act there with.
var remoteOptWords = map[string]bool{
	"token": true, "account": true, "region": true, "profile": true, "subscription": true, "tenant": true, "org": true,
	"organization": true, "cluster": true, "bucket": true, "registry": true, "zone": true, "prod": true, "production": true,
	"apikey": true, "api": true, "credentials": true, "creds": true,
}

// destroyingScript holds a project's own script, run by an interpreter
// or a shell, whose name says it destroys (nuke_sandbox.py, yank_old.py,
// teardown.sh) when its words point it at something remote: an account,
// region, registry or cluster, a credential, an environment other than
// a test or local one, a host not on this machine, or --all with every
// prompt answered. Without them (scripts/teardown_fixture.sh, python
// scripts/purge_tmp.py) it is the project's ordinary work; clean is no
// such word.
func (iv *inv) destroyingScript(script arg, rest []arg) {
	if !script.ok || iv.sc.remote {
		return
	}
	base := path.Base(script.s)
	verb := ""
	for _, w := range words(strings.TrimSuffix(base, path.Ext(base))) {
		if nameVerbs[w] || scriptVerbs[w] {
			verb = w
			break
		}
	}
	if verb == "" {
		return
	}
	all, yes := false, false
	for i, a := range rest {
		if !a.ok {
			if m := secretVar.FindString(a.src); m != "" {
				iv.flag(Destructive, "the project's script "+base+" ("+verb+") is given a credential to act with: "+a.src)
				return
			}
			continue
		}
		name, val, eq := strings.Cut(strings.TrimLeft(a.s, "-"), "=")
		if !strings.HasPrefix(a.s, "-") {
			continue
		}
		if !eq && i+1 < len(rest) && !strings.HasPrefix(rest[i+1].s, "-") {
			val = rest[i+1].s
		}
		shown := a.shown()
		if !eq && i+1 < len(rest) && !strings.HasPrefix(rest[i+1].src, "-") {
			shown += " " + rest[i+1].shown() // --token "$CARGO_REGISTRY_TOKEN"
		}
		switch ws := words(name); {
		case name == "all":
			all = true
		case name == "yes" || name == "y" || name == "force" || name == "f" || name == "no-confirm" || name == "confirm":
			yes = true
		case name == "env" || name == "environment" || name == "stage" || name == "e":
			if val != "" && !testWordOf(strings.ToLower(val)) && val != "local" && val != "localhost" {
				iv.flag(Destructive, "the project's script "+base+" ("+verb+") is pointed at the "+val+" environment")
				return
			}
		case contains(ws, "host") || contains(ws, "url") || contains(ws, "endpoint") || contains(ws, "server"):
			h := hostOf(val)
			if hh, _, err := net.SplitHostPort(h); err == nil {
				h = hh // localhost:8080
			}
			if val != "" && !loopback(h) {
				iv.flag(Destructive, "the project's script "+base+" ("+verb+") is pointed at "+val+", not this machine")
				return
			}
		case contains(ws, "token") || contains(ws, "apikey") || contains(ws, "api") || contains(ws, "credentials") || contains(ws, "creds"):
			iv.flag(Destructive, "the project's script "+base+" ("+verb+") is given a credential to act with: "+shown)
			return
		case slices.ContainsFunc(ws, func(w string) bool { return remoteOptWords[w] }) || name == "project" || name == "project-id":
			iv.flag(Destructive, "the project's script "+base+" ("+verb+") is pointed at remote state: "+shown)
			return
		}
	}
	if all && yes {
		iv.flag(Destructive, "the project's script "+base+" ("+verb+") is told to act on everything, with no prompt")
	}
}

// takesValue reports whether a word is an option that may take the
// next word as its value: -W, --dynamic-space-size, not --opt=value.
func takesValue(a arg) bool {
	return a.ok && len(a.s) > 1 && a.s[0] == '-' && a.s != "--" && !strings.Contains(a.s, "=")
}

// scriptFetched finds a script named by URL among an interpreter's words
// from its first operand: that operand, or after a run verb (deno run -A
// URL) the script it names. Words after the script are its arguments
// (python train.py --data s3://…), not code.
func scriptFetched(args []arg) (arg, bool) {
	fetches := func(b arg) bool {
		return b.ok && strings.Contains(b.s, "://") || !b.ok && fetched.MatchString(b.src)
	}
	switch {
	case len(args) == 0:
		return arg{}, false
	case fetches(args[0]):
		return args[0], true
	case !args[0].ok || args[0].s != "run":
		return arg{}, false
	}
	for i, b := range args[1:] {
		if fetches(b) {
			return b, true
		}
		if !b.ok || !strings.HasPrefix(b.s, "-") && !takesValue(args[i]) {
			break // the script, read from here
		}
	}
	return arg{}, false
}

// codeFollows reports whether an interpreter's words, before --, give it
// code by one of its code options: then a word between options is an
// option's value (racket -l racket/base -e …), not the script.
func codeFollows(name string, args []arg, codeOpts []string) bool {
	for _, a := range args {
		switch {
		case !a.ok:
		case a.s == "--":
			return false
		case contains(codeOpts, a.s) || codeCluster(name, a.s, codeOpts) || name == "perl" && perlCluster.MatchString(a.s) && strings.ContainsAny(a.s[len(a.s)-1:], "eE"):
			return true
		}
		for _, o := range codeOpts {
			if strings.HasPrefix(o, "--") && a.ok && strings.HasPrefix(a.s, o+"=") {
				return true
			}
		}
	}
	return false
}

// moreCode is the code an interpreter is given from args[at] on: that
// word, and the value of every later code option before --, joined by
// newlines, since perl, ruby, lua, Rscript, osascript, erl, racket and
// the Lisps run each -e or --eval in turn (sbcl --eval '(require :asdf)'
// --eval '(uiop:delete-directory-tree …)'). Where a later one is only
// the program's argument (python -c code -c), reading it as code too
// only looks closer. last is the index of the last word of code.
func moreCode(name string, args []arg, at int, codeOpts []string) (code arg, last int) {
	code, last = args[at], at
	add := func(more arg) {
		if code.ok && more.ok {
			code = arg{s: code.s + "\n" + more.s, ok: true, src: code.src + "\n" + more.src}
		} else {
			code = arg{src: code.src + "\n" + more.src} // a part computed at run time: the whole cannot be read
		}
	}
	for j := at + 1; j < len(args); j++ {
		a := args[j]
		if !a.ok {
			continue
		}
		if a.s == "--" {
			break
		}
		if (contains(codeOpts, a.s) || codeCluster(name, a.s, codeOpts) || name == "perl" && perlCluster.MatchString(a.s) && strings.ContainsAny(a.s[len(a.s)-1:], "eE")) && j+1 < len(args) {
			add(args[j+1])
			j++
			last = j
			continue
		}
		for _, o := range codeOpts {
			if strings.HasPrefix(o, "--") && strings.HasPrefix(a.s, o+"=") {
				v := strings.TrimPrefix(a.s, o+"=")
				add(arg{s: v, ok: true, src: v})
				last = j
			}
		}
	}
	return code, last
}

// valueLetters are an interpreter's one-letter options that take a value,
// attached or in the next word (python -W, -X, -m; ruby -r, -I): in a
// cluster, the letters after one are its value, not options.
var valueLetters = map[string]string{
	"python": "WXmQ", "python2": "WXmQ", "python3": "WXmQ", "pypy": "WXmQ", "pypy3": "WXmQ",
	"ruby": "ICEFKTrxil0", "node": "r", "nodejs": "r", "bun": "r", "php": "cdfzt", "lua": "l", "luajit": "lj",
}

// codeCluster reports whether a cluster of one-letter options ends in one
// that takes code in the next word, as getopt reads it (python3 -Ic, -uc;
// ruby -we; node -pe): every letter before it is a flag, none an option
// that takes a value.
func codeCluster(name, s string, codeOpts []string) bool {
	if len(s) < 3 || s[0] != '-' || s[1] == '-' {
		return false
	}
	for _, r := range s[1:] {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	last := "-" + s[len(s)-1:]
	return contains(codeOpts, last) && !strings.ContainsAny(s[1:len(s)-1], valueLetters[name])
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
		case (a.s == "-i" || a.s == "--include") && i+1 < len(args) && args[i+1].s == "inplace":
			i++
			if _, files := opts(args[i+1:]); len(files) > 1 {
				iv.inPlace(files[1:]) // gawk -i inplace PROGRAM FILE…: the files are rewritten
			}
		case a.s == "-v" || a.s == "-F" || a.s == "--assign" || a.s == "--field-separator":
			i++
		case a.s == "--":
		case strings.HasPrefix(a.s, "-"):
		default:
			if strings.Contains(a.s, "system") || pipeToShell.MatchString(a.s) || awkPrint.MatchString(a.s) || awkGetline.MatchString(a.s) {
				iv.interpCode(a)
			}
			for _, m := range awkOut.FindAllStringSubmatch(a.s, 8) {
				iv.flag(Write, "")
				empties := awkEmpty.MatchString(m[0]) // printf "" > "f": the file is truncated as awk opens it, and nothing is written
				switch lit, ok := stringLit(m[1]); {
				case ok:
					class, why := iv.c.writeTarget(iv.sc, arg{s: iv.c.tilde(lit), ok: true, src: lit}, true)
					iv.flag(class, why)
					if t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(lit), ok: true, src: lit}); class < Destructive && empties && !iv.sc.remote {
						if own := iv.c.emptied(t, lit); own != "" {
							iv.flagWrite(t, iv.name+" empties "+own+" (printf \"\" > file truncates it): "+iv.c.show(t))
						}
					}
				case m[1] == "FILENAME": // > FILENAME: the file it is reading, truncated as it reads it
					_, files := opts(args[i+1:])
					for _, f := range files {
						t := iv.c.resolve(iv.sc, f)
						own := iv.c.emptied(t, f.s)
						if why := iv.c.danger(t); why != "" && why != "unresolved" {
							own = why
						}
						if f.ok && own != "" && !iv.sc.remote {
							iv.flagWrite(t, iv.name+" writes over each file it reads (> FILENAME), truncating it as it reads it: "+own+": "+iv.c.show(t))
							break
						}
					}
				case homeRef.MatchString(a.s) || homeCall.MatchString(a.s):
					iv.flag(Destructive, "awk writes to a file it names from the home directory: "+m[1])
				}
			}
			return
		}
	}
}

// codeWrites judges the files code writes, named by a literal path or by
// one built from the home directory (File.expand_path("~/.bashrc"),
// os.path.join(os.path.expanduser("~"), ".profile"), Path.home() /
// ".bashrc"): writing over a file outside the working directory, or into a
// shell's or a tool's startup file, where what is written runs later.
func (iv *inv) codeWrites(s string) {
	judge := func(expr string, truncating, empty bool) {
		name := expr
		expr = boundExpr(s, expr) // p = Path.home() / '.config/x.json'; p.write_text(…)
		p, ok := iv.codePath(expr)
		if !ok {
			return
		}
		t := iv.c.resolve(iv.sc, arg{s: p, ok: true, src: p})
		if empty && truncating && !iv.sc.remote {
			if own := iv.c.emptied(t, p); own != "" { // Path('src/app.py').write_text(''), as : > src/app.py
				iv.flag(Destructive, iv.name+" code empties "+own+": "+iv.c.show(t))
				return
			}
		}
		if t.path == iv.c.home && expr != "" && !strings.Contains(expr, "~") {
			iv.flag(Destructive, iv.name+" code writes a file under the home directory named at run time: "+cutText(expr))
			return
		}
		if m := fetchRun.FindString(lineEscapes.Replace(s)); m != "" && (iv.c.runsLater(t.path) || plantedBuild(t.path)) {
			iv.flag(Destructive, iv.name+" code puts code that fetches and runs code from the network into "+iv.c.show(t)+", which runs later by itself: "+cutText(m))
			return
		}
		switch class, why := iv.c.writeTarget(iv.sc, arg{s: p, ok: true, src: p}, truncating); {
		case class >= Destructive:
			iv.flag(Destructive, iv.name+" code "+why)
		case truncating && iv.c.danger(t) != "":
			iv.flag(Destructive, iv.name+" one-liner opens a file outside the working directory for writing, emptying it: "+iv.c.show(t))
		case readBack(s, name, expr, t.path) && truncating && iv.c.dataFile(t.path) != "":
			iv.flag(Destructive, iv.name+" code writes a changed copy over "+iv.c.dataFile(t.path)+" it read, replacing the only copy in place: "+iv.c.show(t))
		case readBack(s, name, expr, t.path):
			// json.load(open('package.json')) … json.dump(d, open('package.json', 'w')): what it read, changed
		default:
			if own := iv.c.overManifest(iv.sc, arg{s: p, ok: true, src: p}, truncating); own != "" {
				iv.flagWrite(t, iv.name+" code "+own) // fs.writeFileSync('package.json', '{}')
			}
		}
	}
	for _, m := range writeCall.FindAllStringSubmatchIndex(s, 8) {
		fn := s[m[2]:m[3]]
		expr, n := firstArg(s[m[1]:])
		if lits, isLoop := loopPaths(s, s[m[1]:]); isLoop && emptyContent.MatchString(s[m[1]+n:]) {
			iv.emptiesEach(fn, lits) // Dir.glob("app/**/*.rb").each { |f| File.write(f, "") }
			continue
		}
		truncating := !strings.Contains(strings.ToLower(fn), "append")
		empty := emptyContent.MatchString(s[m[1]+n:]) || fn == "file.create"
		if fn == "open" || strings.HasSuffix(fn, ".open") || strings.HasSuffix(fn, ".new") { // open(p) reads; open(p, "w") writes
			mode := modeArg.FindStringSubmatch(s[m[1]+n:])
			if mode == nil {
				continue
			}
			truncating = mode[1] == "w"
			empty = openedClosed.MatchString(s[m[1]+n:]) // open(p, 'w').close()
		}
		if fn == "writeLines" { // R's writeLines(text, con): the file is the second argument
			if !strings.HasPrefix(s[m[1]+n:], ",") {
				continue
			}
			text := expr
			expr, _ = firstArg(s[m[1]+n+1:])
			empty = text == "character(0)" || text == `""` || text == "''"
		}
		judge(expr, truncating, empty)
	}
	if iv.name == "pwsh" || iv.name == "powershell" { // Set-Content -Path p -Value …
		files, empty := psWrites(s)
		for i, f := range files {
			judge(strconv.Quote(f), true, empty[i])
		}
	}
	if iv.name == "julia" { // write(path, data): Julia's write to a file by name
		for _, m := range juliaWrite.FindAllStringIndex(s, 8) {
			expr, n := firstArg(s[m[1]:])
			judge(expr, true, emptyContent.MatchString(s[m[1]+n:]))
		}
	}
	for _, m := range perlOpen.FindAllStringSubmatchIndex(s, 8) { // open(my $f, ">", "x"): Perl's three-argument open
		mode := s[m[2]:m[3]]
		if !strings.Contains(mode, ">") {
			continue
		}
		expr, _ := firstArg(s[m[1]:])
		judge(expr, !strings.Contains(mode, ">>") && !strings.HasPrefix(mode, "+"), !perlPrints.MatchString(s))
	}
	for _, m := range frameWrite.FindAllStringIndex(s, 8) { // df.to_csv('data/customers.csv', index=False)
		expr, _ := firstArg(s[m[1]:])
		judge(expr, true, false)
	}
	for _, m := range pathWrite.FindAllStringIndex(s, 8) {
		start := strings.LastIndexAny(s[:m[0]], ";\n") + 1
		call := s[m[0]:m[1]]
		empty := strings.HasPrefix(call, ".write_") && emptyArg.MatchString(s[m[1]:]) || strings.HasPrefix(call, ".text") && emptyArg.MatchString(s[m[1]:]+")")
		judge(strings.TrimSpace(s[start:m[0]]), !strings.HasSuffix(call, "a"), empty)
	}
}

var (
	// openedClosed is the rest of open(p, "w") closed with nothing
	// written: open(p, 'w').close(), io.open(p, "w"):close().
	openedClosed = lazyRE(`^\s*,\s*(?:mode\s*=\s*)?['"]wb?\+?['"]\s*\)\s*[.:]close\(\s*\)`)
	// emptyArg is an empty string as a call's only argument: write_text("").
	emptyArg = lazyRE(`^\s*b?(?:""|'')\s*\)`)
	// juliaWrite is Julia's write(filename, data).
	juliaWrite = lazyRE(`(?:^|[^.\w])write\s*\(\s*`)
	// perlOpen is Perl's three-argument open; group 1 is the mode, the
	// path follows.
	perlOpen = lazyRE(`\bopen\s*\(?\s*(?:my\s+)?\$\w+\s*,\s*['"](\+?[<>]{1,2})['"]\s*,\s*`)
)

// readBack reports whether code that writes the file p also names it
// elsewhere, as what it read: by its name twice, or by the variable name
// it bound to it (p = '.storage/x'; d = json.load(open(p)); json.dump(d,
// open(p, 'w'))) once more besides its binding and the write.
func readBack(code, name, expr, p string) bool {
	if strings.Count(code, path.Base(p)) > 1 {
		return true
	}
	if name == expr || !identExpr.MatchString(name) {
		return false
	}
	n := 0
	for i := 0; ; {
		j := strings.Index(code[i:], name)
		if j < 0 {
			break
		}
		j += i
		end := j + len(name)
		if (j == 0 || !isWordByte(code[j-1])) && (end == len(code) || !isWordByte(code[end])) {
			n++
		}
		i = end
	}
	return n > 2
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// frameWrite is a dataframe's or array's call that writes it to the file
// its first argument names, whole: pandas to_csv, to_parquet, to_excel,
// polars write_csv, write_parquet.
var frameWrite = lazyRE(`\.(?:to_(?:csv|parquet|excel|json|feather|pickle|hdf|stata|orc|xml)|write_(?:csv|parquet|json|ndjson|ipc|excel|avro|delta))\s*\(\s*`)

// dataFile says what a file the code writes is when it lies in the
// project's data or the results of its runs (data/customers.csv,
// results/exp1/metrics.json, a data directory at any depth), outside
// what tools make, as words for a reason ("the project's data"), or "".
func (c *classifier) dataFile(p string) string {
	if !c.trustedProject() {
		return ""
	}
	rel, ok := strings.CutPrefix(p, c.project+"/")
	if !ok || path.Dir(rel) == "." {
		return ""
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if stateDirs[d] {
			return "an application's stored state" // Home Assistant's .storage, a service's state dir: no tool makes it again
		}
	}
	if c.madePath(path.Dir(rel)) {
		return ""
	}
	if k := keptIn(rel); k != "" {
		return k
	}
	for _, d := range strings.Split(path.Dir(rel), "/") {
		if d == "data" || d == "datasets" {
			return "the project's data"
		}
	}
	return ""
}

// stateDirs are directories where an application keeps the state it runs
// on (registries, sessions of record, its own database as JSON).
var stateDirs = setOf("storage", ".storage", "state", ".state")

// identExpr is an expression that is only a variable's name (p, $cfg,
// @path).
var identExpr = lazyRE(`^[$@]?[A-Za-z_]\w*$`)

// boundExpr is the expression code last binds a variable to, when expr
// is only that variable's name (p = pathlib.Path.home() / 'x'; const
// f = path.join(os.homedir(), 'x'); $f = "$ENV{HOME}/x";), else expr.
func boundExpr(code, expr string) string {
	if !identExpr.MatchString(expr) {
		return expr
	}
	re := regexp.MustCompile(`(?:^|[^\w$@.])` + regexp.QuoteMeta(expr) + `\s*:?=\s*([^=\n;][^\n;]*)`)
	ms := re.FindAllStringSubmatch(code, -1)
	if len(ms) == 0 {
		return expr
	}
	return strings.TrimSpace(ms[len(ms)-1][1])
}

// codePath is the path an expression in code names: a string literal, or
// one joined onto the home directory by the language's way to find it;
// false when it names none that can be read.
func (iv *inv) codePath(expr string) (string, bool) {
	home := homeRef.FindStringIndex(expr)
	if m := homeCall.FindStringIndex(expr); m != nil && (home == nil || m[0] < home[0]) {
		home = m
	}
	from := 0
	if home != nil {
		from = home[0] // the literals from the home directory on: require("os") is not part of the path
	}
	lits := []string{}
	for rest := expr[from:]; ; {
		i := strings.IndexAny(rest, `'"`)
		if i < 0 {
			break
		}
		lit, n, ok := stringLitN(rest[i:])
		if !ok {
			break
		}
		lits = append(lits, lit)
		rest = rest[i+n:]
	}
	if home != nil {
		p := iv.c.home
		for _, l := range lits {
			l = strings.TrimPrefix(strings.TrimPrefix(l, "~"), "/")
			if l == "HOME" || l == "USERPROFILE" {
				continue // os.environ['HOME'], getenv("HOME"): the name of the variable, not a part of the path
			}
			if l != "" {
				p += "/" + l
			}
		}
		return p, true
	}
	if len(lits) == 1 {
		e := strings.TrimSpace(expr)
		if m := pathObject.FindStringSubmatch(e); m != nil { // Path("src/app.py"), new File("x"), Pathname.new("x"): the path it wraps
			e = m[1]
		}
		if lit, n, ok := stringLitN(e); ok && n == len(e) {
			return iv.c.tilde(lit), true
		}
	}
	return "", false
}

// pathObject is a path object made from one string literal, group 1:
// Python's Path("x") (pathlib.PurePath too), Ruby's Pathname.new("x") and
// Pathname("x"), Java's and Groovy's new File("x"), Paths.get("x"),
// Path.of("x"), Kotlin's File("x").
var pathObject = lazyRE(`^(?:new\s+)?(?:[\w.]*\.)?(?:(?:Pure|Posix)?Path|Pathname(?:\.new)?|File|Paths\.get|Path\.of)\s*\(\s*((?:"[^"\\]*"|'[^'\\]*'))\s*\)$`)

// receiverDelete is a delete called with no argument on the path object
// before it: Path("x").unlink(), new File("x").delete(), Pathname("x").delete.
var receiverDelete = lazyRE(`\.(?:unlink|delete)\s*\(\s*(?:missing_ok\s*=\s*True\s*)?\)`)

// receiverDeletes judges Path("../notes.txt").unlink() and new
// File("/etc/hosts").delete() as rm of the path the object wraps.
func (iv *inv) receiverDeletes(s string) (read [][2]int) {
	for _, m := range receiverDelete.FindAllStringIndex(s, 8) {
		recv := s[:m[0]]
		if i := strings.LastIndexAny(recv, ";\n=("); i >= 0 && recv[i] != '(' {
			recv = recv[i+1:]
		} else if i := strings.LastIndexAny(recv, ";\n="); i >= 0 {
			recv = recv[i+1:]
		}
		recv = strings.TrimSpace(recv)
		if pathObject.MatchString(recv) || homeRef.MatchString(recv) {
			if p, ok := iv.codePath(recv); ok {
				read = append(read, [2]int{m[0], m[1]})
				fn := strings.TrimRight(strings.TrimLeft(s[m[0]:m[1]], "."), "( )")
				iv.codeDelete(fn, p, false)
			}
		}
	}
	return read
}

// firstArg is the text of a call's first argument, up to a comma or the
// closing parenthesis at its own depth, and its length.
func firstArg(s string) (string, int) {
	i := argEnd(s, true)
	return strings.TrimSpace(s[:i]), i
}

// awkPipes judges the commands an awk program runs through pipes (print …
// | cmd, cmd | getline, and |& for a coprocess) as shell code, the text
// print writes fed to the command's stdin: a command named by a string, or
// by a variable the program sets to one, is read; any other is held. It
// reports whether the program has such a pipe.
func (iv *inv) awkPipes(s string) bool {
	found := false
	command := func(target, after string) (string, bool) {
		if lit, ok := stringLit(target); ok {
			if goesOn(after) { // print | "sh " x: the command is built at run time
				return lit, false
			}
			return lit, true
		}
		set := regexp.MustCompile(`\b`+regexp.QuoteMeta(target)+`\s*=\s*("(?:[^"\\]|\\.)*")\s*(.?)`).FindAllStringSubmatch(s, 2)
		if len(set) != 1 || goesOn(set[0][2]) {
			return target, false
		}
		lit, ok := stringLit(set[0][1])
		return lit, ok
	}
	run := func(target, after string, in source) {
		found = true
		code, ok := command(target, after)
		if !ok {
			iv.builtCommand(code)
			return
		}
		fed := *iv
		fed.in = in
		fed.shell(arg{s: code, ok: true, src: code}, iv.sc)
	}
	for _, m := range awkPrint.FindAllStringSubmatchIndex(s, 8) {
		in := source{kind: srcPipe} // print $0 | "sh": the input's lines are the commands
		printed := strings.TrimSpace(s[m[2]:m[3]])
		if lit, n, ok := stringLitN(printed); ok && n == len(printed) {
			in = source{kind: srcText, text: lit + "\n"}
		}
		run(s[m[4]:m[5]], s[m[5]:], in)
	}
	for _, m := range awkGetline.FindAllStringSubmatchIndex(s, 8) {
		run(s[m[2]:m[3]], s[m[3]:m[3]], source{})
	}
	return found
}

// goesOn reports whether the code after a string literal carries it on
// into something computed (awk and Python join literals by juxtaposition:
// "rm -rf " $1, "rm -rf " x; "…".format(x), "…" % x, "…" + x), rather
// than ending the expression.
func goesOn(after string) bool {
	after = strings.TrimLeft(after, " \t")
	return after != "" && !strings.ContainsRune("),;}]\n|", rune(after[0])) && !strings.HasPrefix(after, "==")
}

// tilde expands a leading ~ in a path written in code (R, Ruby and Perl's
// glob expand it; Python and Node do not, but a path under a directory
// named ~ is no better).
func (c *classifier) tilde(p string) string {
	for _, h := range []string{"~", "$ENV{HOME}", "${HOME}", "$HOME"} {
		if p == h || strings.HasPrefix(p, h+"/") {
			return c.home + p[len(h):]
		}
	}
	return p
}

// joined reports whether a string literal is followed by a concatenation,
// so that the text it starts goes on with something computed.
func joined(after string) bool {
	after = strings.TrimLeft(after, " \t")
	return strings.HasPrefix(after, "..") || strings.HasPrefix(after, "+") || strings.HasPrefix(after, ". ") ||
		strings.HasPrefix(after, ".$") || strings.HasPrefix(after, "%")
}

// plainCallOpts reports whether the rest of a call's arguments, after its
// first, are only options that leave the command as written and where it
// is run: a JavaScript options object or Python keyword arguments of
// stdio, encoding, timeout, check, text, capture_output, shell=True and
// the like, each a literal value. cwd, env, executable, a shell named by
// path, or anything computed change what the command does.
func plainCallOpts(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return false
	}
	inner := strings.TrimSpace(rest[:end])
	if strings.HasPrefix(inner, "{") {
		if !strings.HasSuffix(inner, "}") || strings.Count(inner, "{") != 1 {
			return false
		}
		inner = inner[1 : len(inner)-1]
	}
	if strings.ContainsAny(inner, "()`$") {
		return false
	}
	depth, start := 0, 0
	var items []string
	for i := 0; i <= len(inner); i++ {
		switch {
		case i == len(inner) || inner[i] == ',' && depth == 0:
			items = append(items, inner[start:i])
			start = i + 1
		case inner[i] == '[':
			depth++
		case inner[i] == ']':
			depth--
		}
	}
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			continue
		}
		i := strings.IndexAny(it, ":=")
		if i < 0 {
			return false
		}
		key, val := strings.Trim(strings.TrimSpace(it[:i]), `'"`), strings.TrimSpace(it[i+1:])
		switch {
		case key == "shell":
			if val != "true" && val != "True" {
				return false
			}
		case !plainCallKeys[key] || !plainCallValue.MatchString(val):
			return false
		}
	}
	return true
}

// plainCallKeys are the options of child_process and subprocess calls
// that change neither the command nor where it runs.
var plainCallKeys = setOf("stdio", "encoding", "timeout", "maxBuffer", "windowsHide", "killSignal", "check", "text",
	"capture_output", "universal_newlines", "stdout", "stderr", "stdin", "bufsize", "close_fds", "errors")

// plainCallValue is a literal option value: a string, a number, a
// boolean, a subprocess constant, a list of strings.
var plainCallValue = lazyRE(`^(?:'[^']*'|"[^"]*"|\d+|true|false|True|False|None|null|subprocess\.(?:PIPE|DEVNULL|STDOUT)|\[(?:\s*(?:'[^']*'|"[^"]*"|\d+|null)\s*,?)*\])$`)

// builtCommand judges a command whose text begins with prefix and goes on
// with something computed: a deleting command is held as one on an
// unknown path; a prefix of plain words is judged as the command it
// starts, given an operand not known (git push origin --delete …, kubectl
// delete ns …: destructive whatever follows); anything else is held as
// code tend cannot read.
func (iv *inv) builtCommand(prefix string) {
	name, _, _ := strings.Cut(strings.TrimSpace(prefix), " ")
	switch path.Base(name) {
	case "rm", "rmdir", "shred", "dd", "mkfs", "unlink", "find", "truncate", "wipefs":
		iv.flag(Destructive, iv.name+" one-liner runs "+strings.TrimSpace(prefix)+" on a path built at run time")
		return
	}
	if ws := strings.Fields(prefix); len(ws) > 1 && !strings.ContainsAny(prefix, "'\"`$;|&<>(){}\\*?[#~=\n") {
		args := argsOf(ws...)
		if last := len(prefix) - 1; prefix[last] != ' ' && prefix[last] != '\t' {
			args[len(args)-1] = arg{src: ws[len(ws)-1] + "<computed>"} // 'git push origin :' + b: the last word goes on
		} else {
			args = append(args, arg{src: "<computed>"})
		}
		if i := iv.c.run(args, iv.sc, source{}, iv.depth+1); iv.c.cmds[i].Class == Destructive {
			return
		}
	}
	iv.flag(Unparseable, iv.name+" one-liner runs a command built at run time: "+strings.TrimSpace(prefix)+"…")
}

// storageURL is a URL of remote object or file storage: a bucket's
// (s3://, gs://, az://, abfss://), HDFS's, Databricks' (dbfs:/), a model
// hub's (hf://), an SFTP server's.
var storageURL = lazyRE(`^(?i:s3a?|s3n|gs|gcs|az|abfss?|adl|wasbs?|hdfs|webhdfs|viewfs|oci|oss|cos|r2|b2|hf|sftp|ftp|dbfs|lakefs|dropbox|gdrive|box)://|^dbfs:/`)

// remoteFS makes a file system object whose files are remote: fsspec's
// implementations (gcsfs.GCSFileSystem(), s3fs.S3FileSystem(),
// adlfs.AzureBlobFileSystem(), fsspec.filesystem('s3')), pyarrow's
// (pyarrow.fs.S3FileSystem()). Group 1 is a class's name before
// FileSystem, group 2 a protocol or the expression giving it.
var remoteFS = lazyRE(`\b(\w*)FileSystem\s*\(|\b(?:fsspec\.)?(?:filesystem|get_filesystem_class|url_to_fs)\s*\(\s*(?:protocol\s*=\s*)?['"]?([\w.:/-]*)`)

// remoteFSNames are the names of file system classes before FileSystem
// whose files lie on another machine or a cloud's storage.
var remoteFSNames = setOf("GCS", "Gcs", "S3", "Azure", "AzureBlob", "AzureDatalake", "AzureDataLake", "Hf", "HF", "HuggingFace", "HDFS", "Hadoop",
	"WebHDFS", "SFTP", "SSH", "FTP", "Dropbox", "DropboxDrive", "GoogleDrive", "OSS", "OCI", "LakeFS", "Databricks", "DBFS", "Webdav", "WebDAV", "Box", "R2", "B2")

// localFSProtocols are fsspec's protocols whose files are this machine's.
var localFSProtocols = setOf("file", "local", "memory", "")

// fsDelete is a file system object's delete: fsspec's rm, rm_file, rmdir,
// delete, pyarrow's delete_dir, delete_dir_contents, delete_file.
var fsDelete = lazyRE(`\.(?:rm|rm_file|rmdir|delete|delete_dir|delete_dir_contents|delete_file|invalidate_and_rm|rm_rf)\s*\(`)

// remoteFSDeletes holds code that makes a remote file system object
// (remoteFS) and calls a delete (fsDelete): what it deletes is in a
// bucket or on another machine, not under the working directory, wherever
// its path seems to point. An endpoint on this machine (a local MinIO)
// is the local stack's.
func (iv *inv) remoteFSDeletes(s string) {
	del := fsDelete.FindString(s)
	if del == "" {
		return
	}
	for _, m := range remoteFS.FindAllStringSubmatchIndex(s, 8) {
		made := ""
		if m[2] >= 0 {
			if !remoteFSNames[s[m[2]:m[3]]] {
				continue // LocalFileSystem(), MemoryFileSystem(), DirFileSystem(…)
			}
			made = s[m[2]:m[3]] + "FileSystem"
		}
		if m[4] >= 0 {
			proto := strings.TrimSuffix(strings.ToLower(s[m[4]:m[5]]), "://")
			if localFSProtocols[proto] || strings.HasPrefix(proto, "file:") || strings.HasPrefix(proto, "/") || strings.HasPrefix(proto, ".") {
				continue // fsspec.filesystem('file'), url_to_fs('./data')
			}
			made = strings.TrimRight(s[m[0]:m[4]], "( '\"") + " " + s[m[4]:m[5]] // fsspec.filesystem s3
		}
		if localURLsOnly(s) {
			return // s3fs.S3FileSystem(client_kwargs={'endpoint_url': 'http://localhost:9000'})
		}
		iv.flag(Destructive, iv.name+" one-liner calls "+strings.TrimRight(del, "( ")+" on a remote file system ("+made+"): it deletes from a bucket or another machine")
		return
	}
}

// shellAlias binds a name of the code's own to a function that runs a
// shell command: const {execSync: x} = require('child_process'), import
// {exec as run} from 'node:child_process', from subprocess import
// check_output as co, from os import system, sh = os.system; the name is
// group 1, 2, 3 or 4.
var shellAlias = lazyRE(`[{,]\s*(?:execSync|exec|spawnSync|spawn|execFileSync|execFile)\s*(?::|\s+as\s+)\s*([A-Za-z_$][\w$]*)|\b([A-Za-z_$][\w$]*)\s*=\s*require\s*\(\s*['"](?:node:)?child_process['"]\s*\)\s*\.\s*(?:execSync|exec|spawnSync|spawn)\b|\bfrom\s+(?:subprocess|os)\s+import\s+([\w ,()]*)|(?:^|[^\w.$])([A-Za-z_]\w*)\s*=\s*(?:os\.(?:system|popen)|subprocess\.(?:run|call|Popen|check_call|check_output|getoutput|getstatusoutput))\s*(?:[;\n]|$)`)

// shellRunners are the functions of Python's subprocess and os modules
// that run a command.
var shellRunners = setOf("run", "call", "Popen", "check_call", "check_output", "getoutput", "getstatusoutput", "system", "popen")

// shellAliasCalls are the calls in s of a name shellAlias binds, as index
// pairs whose end is where the call's arguments begin, as shellOut's.
func shellAliasCalls(s string) [][]int {
	var names []string
	for _, m := range shellAlias.FindAllStringSubmatch(s, 4) {
		switch {
		case m[1] != "":
			names = append(names, m[1])
		case m[2] != "":
			names = append(names, m[2])
		case m[4] != "":
			names = append(names, m[4])
		default: // from subprocess import run, check_output as co
			for _, item := range strings.Split(strings.Trim(m[3], "() "), ",") {
				f := strings.Fields(item)
				switch {
				case len(f) == 3 && f[1] == "as" && shellRunners[f[0]]:
					names = append(names, f[2])
				case len(f) == 1 && shellRunners[f[0]] && f[0] != "system" && f[0] != "popen": // system(…) and popen(…): shellOut's already
					names = append(names, f[0])
				}
			}
		}
	}
	var out [][]int
	for _, name := range names[:min(len(names), 4)] {
		if shellOut.MatchString(name + "(") {
			continue // {execSync: execSync}: read as itself
		}
		for _, m := range regexp.MustCompile(`(?:^|[^\w.$])`+regexp.QuoteMeta(name)+`\s*\(\s*`).FindAllStringIndex(s, 8) {
			out = append(out, m)
		}
	}
	return out
}

// lispArgs reads the string literals of a Lisp call's arguments up to its
// closing parenthesis, skipping nil, t and numbers (call-process's buffer
// and display arguments); nil if anything else is there.
func lispArgs(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t\n")
		if lit, n, ok := stringLitN(s); ok {
			out = append(out, lit)
			s = s[n:]
			continue
		}
		word := s[:len(s)-len(strings.TrimLeft(s, "abcdefghijklmnopqrstuvwxyz0123456789-"))]
		switch {
		case strings.HasPrefix(s, ")"):
			return out
		case word == "nil" || word == "t" || word != "" && strings.Trim(word, "0123456789") == "":
			s = s[len(word):]
		default:
			return nil
		}
	}
}

// stringArgs reads a comma-separated run of string literals ("rm", "-rf",
// …); computed is true when something other than a literal follows a
// comma or joins one.
func stringArgs(s string) (list []string, computed bool) {
	for {
		lit, n, ok := stringLitN(strings.TrimLeft(s, " \t"))
		if !ok {
			return list, len(list) > 0 && strings.TrimSpace(s) != ""
		}
		s = strings.TrimLeft(s, " \t")[n:]
		list = append(list, lit)
		if joined(s) {
			return list, true
		}
		rest := strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(rest, ",") {
			return list, false
		}
		s = rest[1:]
	}
}

// stringExecute is Groovy's String.execute() and List.execute(): the
// string split at spaces, or the list, is the argument vector run (no
// shell). denoCommand is Deno's new Deno.Command(prog, {args: […]}).
var (
	stringExecute = lazyRE(`("(?:[^"\\$]|\\.)*"|'[^'\\]*'|\[[^\]\n]*\])\s*\.execute\(\s*\)`)
	denoCommand   = lazyRE(`\bDeno\.Command\(\s*("[^"]*"|'[^']*')\s*(,\s*\{[^{}]*?\bargs\s*:\s*(\[[^\]]*\]))?`)
)

// commandObjects judges the commands code builds as objects and runs:
// Groovy's "rm -rf x".execute() and ["rm", "-rf", x].execute(), Deno's
// new Deno.Command("rm", {args: […]}).
func (iv *inv) commandObjects(s string) {
	for _, m := range stringExecute.FindAllStringSubmatch(s, 8) {
		if list, whole := listPrefix(m[1]); whole {
			iv.c.run(argsOf(list...), iv.sc, source{}, iv.depth+1)
		} else if lit, ok := stringLit(m[1]); ok {
			iv.c.run(argsOf(strings.Fields(lit)...), iv.sc, source{}, iv.depth+1)
		} else if len(list) > 0 {
			iv.builtCommand(strings.Join(list, " ") + " ")
		} else {
			iv.flag(Unparseable, iv.name+" one-liner runs a command computed at run time")
		}
	}
	for _, m := range denoCommand.FindAllStringSubmatch(s, 8) {
		prog, _ := stringLit(m[1])
		list, whole := listPrefix(m[3])
		switch {
		case m[2] != "" && whole:
			iv.c.run(argsOf(append([]string{prog}, list...)...), iv.sc, source{}, iv.depth+1)
		case m[2] != "":
			iv.builtCommand(strings.Join(append([]string{prog}, list...), " ") + " ")
		default:
			iv.c.run(argsOf(prog), iv.sc, source{}, iv.depth+1)
		}
	}
}

// variadicArgs reads the rest of a call whose every argument is a string
// literal, up to its closing parenthesis: "-rf", "build") as [-rf build].
func variadicArgs(s string) ([]string, bool) {
	list, computed := stringArgs(s)
	if len(list) == 0 || computed {
		return nil, false
	}
	rest := s
	for range list { // past each literal and its comma
		rest = strings.TrimLeft(rest, " \t")
		_, n, _ := stringLitN(rest)
		rest = strings.TrimLeft(rest[n:], " \t")
		rest = strings.TrimPrefix(rest, ",")
	}
	return list, strings.HasPrefix(strings.TrimSpace(rest), ")")
}

// literalVar reads a call's argument that is only a variable the code
// binds once, to one string literal (cmd = "rm -rf build"; system(cmd)),
// as that literal.
func literalVar(code, rest string) (string, bool) {
	expr, _ := firstArg(rest)
	if !identExpr.MatchString(expr) || !strings.HasPrefix(strings.TrimSpace(rest[len(expr):]), ")") && strings.TrimSpace(rest[len(expr):]) != "" {
		return "", false
	}
	v := boundExpr(code, expr)
	lit, n, ok := stringLitN(v)
	if v == expr || !ok || n != len(v) || strings.ContainsAny(lit, "$#`") {
		return "", false
	}
	binds := 0
	for _, m := range bound.FindAllStringSubmatch(code, -1) {
		if m[1] == strings.TrimLeft(expr, "$@") || m[2] == expr || m[1] == expr {
			binds++
		}
	}
	return lit, binds == 1
}

// barePath reads an unquoted path at the start of s (after options such as
// -Recurse or -force): /x or ~/x up to the next space or delimiter.
func barePath(s string) (string, bool) {
	for _, f := range strings.Fields(s) {
		if strings.HasPrefix(f, "-") {
			continue
		}
		f = strings.TrimRight(f, ";)]}'\"`") // tcl's [exec rm -rf ~]
		if strings.HasPrefix(f, "/") || strings.HasPrefix(f, "~") || windowsPath.MatchString(f) {
			return f, true
		}
		return "", false
	}
	return "", false
}

// findCall is code listing files by a relative pattern or directory:
// glob("storage/uploads/*"), Path('.').rglob('*.py'), os.walk('.'), R's list.files("R"),
// Dir.glob("**/*"), fs.readdirSync('.'); the pattern is group 1.
var findCall = lazyRE(`(?:\b(?:r?glob|iglob|walk|listdir|scandir|readdirSync|readdir|children|entries|list\.files|list\.dirs)\s*\(|\bDir\[)\s*['"]([^'"/~$][^'"]*)['"]|(?i:\b(?:Get-ChildItem|gci)\b[^|;\n]*?-(?:Filter|Include)\s+)['"]?([^\s'"|;/~$][^\s'"|;]*)`)

// nameSuffix is code keeping the names it lists that end so:
// f.endswith(('.orig', '.py')), name.endsWith('.ts'), f.end_with?(".rb"),
// path.extname(f) === '.js', p.suffix in ('.py', '.pyc'); the literals follow.
var nameSuffix = lazyRE(`(?i)\b(?:endswith|end_with\?)\s*\(\s*[(\[]?|\b(?:extname\([^)]*\)|\.suffix)\s*(?:===?|in)\s*[(\[]?`)

// deletesFound judges code that deletes the files it lists by a relative
// pattern by where that pattern is: the shell's working directory, which
// cd may have moved (cd ~ && python3 - <<'EOF' … rglob('*.py') … unlink),
// or a store no version control keeps (glob("storage/app/uploads/*")).
func (iv *inv) deletesFound(code string) {
	for _, mi := range findCall.FindAllStringSubmatchIndex(code, 8) {
		m := submatches(code, mi)
		pat := m[1]
		if m[2] != "" { // Get-ChildItem -Recurse -Filter *.cs
			pat = m[2]
			if strings.Contains(strings.ToLower(m[0]), "-recurse") {
				pat = "**/" + pat
			}
		} else if root, ok := listRoot(code, mi[0]); ok && root != "" {
			if strings.HasPrefix(code[mi[0]:], "rglob") && !strings.HasPrefix(pat, "**") {
				pat = "**/" + pat
			}
			pat = strings.TrimSuffix(root, "/") + "/" + pat // Path('exports').glob('*.csv') … p.unlink()
		}
		pats := braceAlts(pat)
		if strings.HasSuffix(pat, "*") { // glob('**/*') … if f.endswith(('.orig', '.py')): the names kept
			for _, sm := range nameSuffix.FindAllStringIndex(code, 4) {
				exts, _ := stringArgs(code[sm[1]:])
				for _, e := range exts {
					if strings.HasPrefix(e, ".") && len(pats) < 16 {
						pats = append(pats, pat+e)
					}
				}
			}
		}
		for _, p := range pats {
			if !strings.ContainsAny(path.Base(p), "*?[") {
				p = strings.TrimSuffix(p, "/") + "/*" // os.walk('.'), readdirSync('src'): what is under it
			}
			t := iv.c.resolve(iv.sc, arg{s: p, ok: true, src: p})
			if why := iv.c.danger(t); why != "" && why != "unresolved" {
				iv.flag(Destructive, phrase(iv.name+" code deletes files it lists", why)+": "+iv.c.show(t))
				return
			}
			if own := iv.c.ownFiles(t, p, false); own != "" { // readdirSync('src') … unlinkSync; glob("{app,config}/*", GLOB_BRACE)
				iv.flagWrite(t, iv.name+" code deletes files it lists, "+own+": "+iv.c.show(t))
				return
			}
		}
	}
}

// rewritesFound judges code that writes over the files it lists by a
// relative pattern (Path('.').rglob('*'), os.walk('.'), Dir.glob("**/*"),
// readdirSync('src')) as the bulk overwrites of the shell are judged:
// every file under the tree's root, .git's objects and binary files with
// them, rewritten at once whatever is written (a line-ending fix
// corrupts the repository), or the user's files emptied (rglob('*.ipynb')
// … write_text(”)) or written over, each with text made without reading
// the file (rglob('*.ipynb') … p.write_text('{"cells": []}'): blindWrite).
// Writing new text made from what each file held into the source files it
// picks by name (a codemod) is ordinary work.
func (iv *inv) rewritesFound(code string) {
	if iv.sc.remote || !writesFiles(code) {
		return
	}
	if iv.c.cmds[iv.idx].Class >= Destructive {
		return // held already: for deleting what it lists, or writing outside
	}
	empties, blind := emptyWrite.MatchString(code), blindWrite(code)
	what, tail := "empties the files it lists", ""
	if !empties {
		what, tail = "writes over the files it lists", ", without reading them, so what each held is lost"
	}
	for _, m := range findCall.FindAllStringSubmatchIndex(code, 8) {
		var pat string
		switch {
		case m[2] >= 0:
			pat = code[m[2]:m[3]]
		case m[4] >= 0: // Get-ChildItem -Recurse -Filter *.cs
			pat = code[m[4]:m[5]]
		}
		root, ok := listRoot(code, m[0])
		if !ok {
			continue // a Path held in a variable the code does not set from a literal
		}
		if root != "" {
			pat = strings.TrimSuffix(root, "/") + "/" + pat // Path('/tmp/fixture').rglob('*')
		}
		if !strings.ContainsAny(path.Base(pat), "*?[") {
			pat = strings.TrimSuffix(pat, "/") + "/*" // os.walk('.'), readdirSync('src'): what is under it
		}
		pats := []string{pat}
		if strings.HasSuffix(pat, "*") { // … if f.endswith('.py'): only the names kept
			var kept []string
			for _, sm := range nameSuffix.FindAllStringIndex(code, 4) {
				exts, _ := stringArgs(code[sm[1]:])
				for _, e := range exts {
					if strings.HasPrefix(e, ".") && len(kept) < 16 {
						kept = append(kept, pat+e)
					}
				}
			}
			if len(kept) > 0 {
				pats = kept
			}
		}
		for _, p := range pats {
			t := iv.c.resolve(iv.sc, arg{s: p, ok: true, src: p})
			if why := iv.c.danger(t); why != "" && why != "unresolved" {
				iv.flagWrite(t, iv.name+" code writes over each file it lists, "+why+": "+iv.c.show(t))
				return
			}
			if own := iv.c.ownFiles(t, p, false); own != "" && (empties || blind) {
				iv.flagWrite(t, iv.name+" code "+what+", "+own+tail+": "+iv.c.show(t))
				return
			}
		}
	}
}

// listRoot is the directory a listing call at code[i:] lists under:
// "" (where the code runs) for glob.glob('…'), os.walk('.') and the like,
// X for Path('X').rglob('…') or p.glob('…') after p = Path('X'); ok is
// false for a Path the code computes.
func listRoot(code string, i int) (root string, ok bool) {
	if !strings.HasPrefix(code[i:], "rglob") && !strings.HasPrefix(code[i:], "glob") || i == 0 || code[i-1] != '.' {
		return "", true
	}
	recv := strings.TrimRight(code[:i-1], " \t")
	if strings.HasSuffix(recv, ")") {
		open := strings.LastIndex(recv, "Path(")
		if open < 0 {
			return "", false
		}
		inner := strings.TrimSpace(recv[open+len("Path(") : len(recv)-1])
		if inner == "" || strings.HasPrefix(recv[open:], "Path().") || strings.HasSuffix(recv, "Path.cwd()") {
			return "", true
		}
		if lit, n, ok := stringLitN(inner); ok && n == len(inner) {
			return lit, true
		}
		return "", false
	}
	j := len(recv)
	for j > 0 && (isLetter(recv[j-1]) || recv[j-1] == '_' || recv[j-1] >= '0' && recv[j-1] <= '9') {
		j--
	}
	name := recv[j:]
	if name == "glob" || name == "Dir" || name == "" {
		return "", true // python's glob module, ruby's Dir.glob
	}
	for _, m := range pathAssign.FindAllStringSubmatch(code, 8) {
		if m[1] == name {
			if lit, ok := stringLit(m[2]); ok {
				return lit, true
			}
		}
	}
	return "", false
}

// pathAssign is a variable set to a Path of a literal: root =
// pathlib.Path('data'); the literal follows in group 2.
var pathAssign = lazyRE(`\b([A-Za-z_]\w*)\s*=\s*(?:pathlib\.)?Path\(\s*(['"][^'"]*['"])\s*\)`)

// writesFiles reports whether code writes a file: p.write_text(…),
// open(p, 'w'), perl's open(my $fh, '>', $f), writeFileSync(f, …),
// File.write(f, …).
func writesFiles(code string) bool {
	if pathWrite.MatchString(code) || perlWrite.MatchString(code) {
		return true
	}
	for _, m := range writeCall.FindAllStringSubmatchIndex(code, 8) {
		fn := code[m[2]:m[3]]
		if fn != "open" && !strings.HasSuffix(fn, ".open") && !strings.HasSuffix(fn, ".new") {
			return true
		}
		if _, n := firstArg(code[m[1]:]); modeArg.MatchString(code[m[1]+n:]) {
			return true
		}
	}
	return false
}

// perlWrite is perl opening a file to write it: open(my $fh, '>', $f),
// open FH, ">$f".
var perlWrite = lazyRE(`\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['"]\+?>`)

// emptyWrite is code writing nothing into a file: p.write_text(”),
// write_bytes(b”), open(p, 'w').close(), with open(p, 'w'): pass,
// perl's open(my $fh, '>', $f); close $fh,
// writeFileSync(f, ”), File.write(f, ""), file_put_contents($f, ”).
var emptyWrite = lazyRE(`\.write_(?:text|bytes)\(\s*b?(?:''|"")\s*[,)]|\bopen\([^\n]*?,\s*(?:mode\s*=\s*)?['"]wb?\+?['"]\s*\)\s*(?:\.close\(\)|\.write\(\s*b?(?:''|"")\s*\)|:\s*pass\b|as\s+\w+\s*:\s*pass\b)|\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['"]>['"]\s*,\s*[^;\n]*;\s*close\b|\b(?:writeFileSync|writeFile|File\.write|IO\.write|file_put_contents|Files\.writeString)\s*\([^\n]*?,\s*(?:''|""|b''|\x60\x60)\s*[,)]`)

// outsidePath is the first path literal in code that lies outside the
// working directory (os.walk('/home/user')), "" if none.
func (iv *inv) outsidePath(code string) string {
	for _, i := range quotedPath.FindAllStringSubmatchIndex(code, 16) {
		if before := strings.TrimRight(code[:i[0]], " \t"); strings.HasSuffix(before, ".") || strings.HasSuffix(before, "+") {
			if head := strings.TrimRight(before[:len(before)-1], " \t."); strings.HasSuffix(head, `"`) || strings.HasSuffix(head, "'") {
				continue // "build" . "/*": the rest of a path a literal starts, not one from /
			}
		}
		m := []string{code[i[0]:i[1]], code[i[2]:i[3]]}
		t := iv.c.resolve(iv.sc, arg{s: iv.c.tilde(m[1]), ok: true, src: m[1]})
		if why := iv.c.danger(t); why != "" && why != "unresolved" {
			return iv.c.show(t)
		}
	}
	return ""
}

// quotedPath is a quoted absolute or home path in code.
var quotedPath = lazyRE(`['"]((?:/|~/?)[^'"\s]*)['"]`)

// isEncodedCommand reports whether s is PowerShell's -EncodedCommand,
// which it takes as -e, -ec or any prefix from -en on, in any case.
func isEncodedCommand(s string) bool {
	s = strings.ToLower(strings.TrimLeft(s, "-/"))
	return s == "e" || s == "ec" || len(s) >= 2 && strings.HasPrefix("encodedcommand", s)
}

// utf16Base64 decodes PowerShell's encoded command; unknown if it is not.
func utf16Base64(a arg) arg {
	b, err := base64.StdEncoding.DecodeString(a.s)
	if !a.ok || err != nil || len(b)%2 != 0 {
		return arg{src: a.src}
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	s := string(utf16.Decode(u))
	return arg{s: s, ok: true, src: s}
}

// blindWrite reports whether code truncates and writes a file it lists —
// the item of its loop (for p in …rglob(…): p.write_text(…); for f in
// files: open(os.path.join(r, f), 'w'); .each { |f| File.write(f, …) }) —
// and reads none of the files it lists (readsItem): what it writes
// cannot be made from what was there (a codemod reads each file first),
// so what each held is gone, whatever text replaces it (a constant, a
// template read from elsewhere).
func blindWrite(code string) bool {
	if strings.Contains(code, "FILE_APPEND") {
		return false
	}
	items := map[string]bool{}
	for _, m := range loopItem.FindAllStringSubmatch(code, 16) {
		for _, g := range m[1:] {
			for _, name := range strings.FieldsFunc(g, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '(' || r == ')' || r == '$' }) {
				items[name] = true
			}
		}
	}
	if len(items) == 0 {
		return false
	}
	// A name the code sets to a join of items is one too: p =
	// os.path.join(root, f).
	for _, m := range joinAssign.FindAllStringSubmatch(code, 8) {
		if listed(m[2], items) {
			items[m[1]] = true
		}
	}
	if readsItem(code, items) {
		return false // a codemod: what it writes is made from what each file held
	}
	for _, m := range blindTarget.FindAllStringSubmatchIndex(code, 16) {
		switch {
		case m[2] >= 0: // p.write_text(…), p.open('w')
			if items[code[m[2]:m[3]]] {
				return true
			}
		case m[4] >= 0: // perl: open(my $fh, '>', $f)
			if items[code[m[4]:m[5]]] {
				return true
			}
		default: // open(f, 'w'), File.write(f, …), writeFileSync(f, …)
			fn := code[m[6]:m[7]]
			target, n := firstArg(code[m[1]:])
			if (fn == "open" || strings.HasSuffix(fn, ".open") || strings.HasSuffix(fn, ".new")) && !truncMode.MatchString(code[m[1]+n:]) {
				continue
			}
			if listed(target, items) {
				return true
			}
		}
	}
	return false
}

// readsItem reports whether code reads a file it lists, or may: a
// call that reads or loads (read_text, readFileSync, File.read,
// json.load, nbformat.read, pd.read_csv …) or opens without a mode that
// writes, given an item of its loop (or a join of them) first or as its
// receiver (p.read_text(), Path(p).read_text()); perl reading lines
// (<$fh>, <>), fileinput and Get-Content, whose file it does not name
// here, count as reading one.
func readsItem(code string, items map[string]bool) bool {
	if perlReads.MatchString(code) {
		return true
	}
	for _, m := range readCall.FindAllStringSubmatchIndex(code, 32) {
		opens := strings.HasSuffix(strings.TrimRight(code[m[0]:m[1]], " \t("), "open")
		if m[2] >= 0 { // the receiver: p.read_text(), Path(p).open()
			recv := code[m[2]:m[3]]
			if strings.HasSuffix(recv, ")") {
				recv, _ = firstArg(recv[strings.Index(recv, "(")+1:])
			}
			if listed(recv, items) && !(opens && writeMode.MatchString(code[m[1]:])) {
				return true
			}
		}
		target, n := firstArg(code[m[1]:]) // open(p), json.load(p), nbformat.read(p, 4)
		if listed(target, items) && !(opens && modeArg.MatchString(code[m[1]+n:])) {
			return true
		}
	}
	return false
}

// listed reports whether expr, the path a call writes, is an item of
// the code's loop or a join of such names (os.path.join(root, f),
// File.join(dir, f)) with no literal in it.
func listed(expr string, items map[string]bool) bool {
	expr = strings.TrimPrefix(strings.TrimSpace(expr), "$")
	if items[expr] {
		return true
	}
	m := joinCall.FindStringSubmatch(expr)
	if m == nil {
		return false
	}
	any := false
	for _, a := range strings.Split(m[1], ",") {
		a = strings.TrimPrefix(strings.TrimSpace(a), "$")
		if !identifier.MatchString(a) {
			return false
		}
		any = any || items[a]
	}
	return any
}

var (
	// readCall is a call that reads or opens a file: its receiver
	// (p.read_text(, Path(p).open() in group 1, or the function (open(,
	// File.read(, fs.readFileSync(, json.load() in group 2, its
	// arguments after it.
	readCall = lazyRE(`(\b\w+|\bPath\([^()]*\))\.(?:\w*(?:read|load|Read|Load)\w*|open|lines|each_line)\s*\(|\b((?:[\w.]*\.)?(?:\w*(?:read|load|Read|Load)\w*|open|slurp|foreach))\s*\(\s*`)
	// writeMode is a mode given first that writes: p.open('w').
	writeMode = lazyRE(`^\s*(?:mode\s*=\s*)?['"][wa]`)
	// perlReads is perl reading lines (<$fh>, <STDIN>, <>) or a file read
	// through a module: it may read any file it lists.
	perlReads = lazyRE(`<\$?\w*>|\bfileinput\b|(?i:\bGet-Content\b)|\bslurp\b|\bgets\b`)
	// loopItem binds the item of a loop over what code lists: python's
	// for p in, for root, dirs, files in; JavaScript's for (const f of,
	// forEach(f =>, forEach(function (f); ruby's |f|; perl's for my $f.
	loopItem = lazyRE(`\bfor\s+([\w\s,()]+?)\s+in\b|\bfor\s*\(\s*(?:const|let|var)?\s*(\w+)\s+of\b|\.(?:forEach|map)\(\s*(?:\(\s*(\w+)[^)]*\)|(\w+))\s*=>|\.(?:forEach|map)\(\s*(?:async\s+)?function\s*\(\s*(\w+)|\|\s*(\w+)\s*\||\bfor(?:each)?\s+my\s+\$(\w+)`)
	// joinAssign is a name set to a join of paths: p = os.path.join(r, f).
	joinAssign = lazyRE(`\b(\w+)\s*=\s*((?:os\.path|path|File)\.join\([^()]*\))`)
	// joinCall is a join of paths; its arguments are group 1.
	joinCall = lazyRE(`^(?:os\.path|path|File)\.join\(([^()]*)\)$`)
	// identifier is a name.
	identifier = lazyRE(`^\w+$`)
	// blindTarget is a call that truncates a file and writes it: the
	// file is the receiver (group 1), perl's third argument (group 2), or
	// the first argument of the function in group 3.
	blindTarget = lazyRE(`\b(\w+)\.(?:write_text|write_bytes|open\s*\(\s*['"]w)|\bopen\s*\(?\s*(?:my\s+)?[$\w]+\s*,\s*['"]\+?>['"]\s*,\s*\$(\w+)|\b((?:File|IO)\.(?:write|binwrite|open|new)|open|(?:fs\.)?writeFileSync|(?:fs\.)?writeFile|file_put_contents|Files\.(?:write|writeString)|os\.WriteFile)\s*\(\s*`)
	// truncMode is a file mode that truncates (w, wb, w+), after the
	// first argument.
	truncMode = lazyRE(`^\s*,\s*(?:mode\s*=\s*)?['"]w`)
)

// perlEmpties holds perl -i code that leaves nothing of the lines of the
// user's files, as sed -i's d of every line is held (fs.go): with -p,
// code that only sets each line to nothing ($_ = "", undef $_, s/.*//s);
// with -n (and no -p), code that prints nothing, so no line is written
// back. loop is 'p', 'n' or 0.
func (iv *inv) perlEmpties(loop byte, code arg, files []arg) {
	how := ""
	switch {
	case !code.ok || iv.sc.remote:
	case loop == 'p' && perlBlank.MatchString(code.s):
		how = "sets every line to nothing"
	case loop == 'n' && !perlPrints.MatchString(code.s):
		how = "with -n prints no line back"
	}
	if how == "" {
		return
	}
	for _, f := range files {
		if !f.ok || strings.HasPrefix(f.s, "-") {
			continue
		}
		if t := iv.c.resolve(iv.sc, f); iv.c.emptied(t, f.s) != "" {
			iv.flagWrite(t, "perl -i "+how+", emptying "+iv.c.emptied(t, f.s)+": "+iv.c.show(t))
		}
	}
}

var (
	// perlBlank is -p code that only sets each line to nothing.
	perlBlank = lazyRE(`^\s*(?:\$_\s*=\s*(?:''|""|q\(\)|q\{\}|undef)|undef\s*\(?\s*\$_\s*\)?|s/\^?\.\*\$?//[gs]*|s/\^?\.\*\\n//[gs]*)\s*;?\s*$`)
	// perlPrints is code that prints or writes something, or may.
	perlPrints = lazyRE(`\b(?:print|printf|say|syswrite|write|exec|system)\b|\$\\|\bdo\b|\brequire\b|\beval\b`)
)

var (
	// psReads is a PowerShell command that reads a file's text:
	// Get-Content and its aliases, Select-String, Copy-Item, .NET's
	// File.ReadAll*.
	psReads = lazyRE(`(?i)\b(?:Get-Content|gc|cat|type|more|Select-String|sls|Copy-Item|copy|cp|ReadAll(?:Text|Lines|Bytes))\b`)
	// psPrintsSecret is a PowerShell statement that prints a variable
	// named for a secret: $env:GITHUB_TOKEN, echo "$env:OPENAI_API_KEY",
	// Write-Output $env:X_TOKEN, Write-Host "token: $env:GITHUB_TOKEN" (a
	// double-quoted string interpolates it; a single-quoted one does not);
	// the variable is group 1.
	psPrintsSecret = lazyRE(`(?i)^\s*(?:(?:echo|write|Write-Output|Write-Host|Write-Information|Write-Verbose|Write-Warning|Write-Error|\[Console\]::WriteLine\(?)\s*(?:[^'|>;]|'[^']*')*?|"[^"]*?)\$\{?(env:\w*(?:TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)\w*)`)
	// psSecretAlone is a PowerShell statement that is only a variable
	// named for a secret, which PowerShell prints: $env:GITHUB_TOKEN.
	psSecretAlone = lazyRE(`(?i)^\s*["']?\$\{?(env:\w*(?:TOKEN|SECRET|PASSW|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL)\w*)\}?["']?\s*$`)
)

// submatches are the texts of a match's groups from its index pairs
// ("" for a group that took no part).
func submatches(s string, m []int) []string {
	out := make([]string, len(m)/2)
	for k := range out {
		if m[2*k] >= 0 {
			out[k] = s[m[2*k]:m[2*k+1]]
		}
	}
	return out
}

// argvRef is code reading the arguments it was run with: Python's
// sys.argv, Node's process.argv, Deno's Deno.args, Ruby's ARGV, Perl's
// @ARGV and $ARGV[…], Go's os.Args, R's commandArgs(), PHP's $argv.
var argvRef = lazyRE(`\bsys\.argv\b|\bprocess\.argv\b|\bDeno\.args\b|\bBun\.argv\b|\bARGV\b|@ARGV\b|\$ARGV\[|\bos\.Args\b|\bcommandArgs\s*\(|\$argv\b`)

// argvDeleteFn is a delete function handed to map or forEach as a value,
// to call on each argument: map(os.remove, sys.argv[1:]),
// process.argv.slice(1).forEach(fs.unlinkSync).
var argvDeleteFn = lazyRE(`\b(?:map|forEach|each)\s*\(\s*&?(?::)?(os\.(?:remove|unlink|rmdir)|shutil\.rmtree|(?:fs\.|require\(\s*['"](?:node:)?fs['"]\s*\)\.)?(?:unlinkSync|rmSync|rmdirSync)|File\.(?:delete|unlink)|FileUtils\.rm(?:_rf|_r|_f)?)\b`)

// pathMethodDelete is a delete called on a path object: Path(p).unlink(),
// p.unlink(missing_ok=True), p.rmdir(); the receiver ends before it.
var pathMethodDelete = lazyRE(`\.(?:unlink|rmdir|delete|rmtree)\s*\(`)

// deletesArgs judges interpreter code that deletes the files it is given
// as arguments (os.remove(sys.argv[1]), for f in sys.argv[1:]:
// os.remove(f), unlink @ARGV, fs.unlinkSync(process.argv[1])), run on
// params, the words after the code (what xargs, find -exec or a loop
// hands it), as rm is judged on the same words: a recursive delete
// (shutil.rmtree) as rm -r.
func (iv *inv) deletesArgs(code arg, params []arg) {
	if !code.ok || iv.sc.remote || len(params) == 0 || !argvRef.MatchString(code.s) {
		return
	}
	s := code.s
	fn, tree := "", false
	given := func(argText string) bool {
		argText = strings.TrimSpace(argText)
		if argvRef.MatchString(argText) || strings.HasPrefix(argText, "shift") {
			return true
		}
		name := strings.TrimLeft(argText, "$@")
		if i := strings.IndexFunc(name, func(r rune) bool {
			return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}); i >= 0 {
			name = name[:i]
		}
		return name != "" && argvBound(s, name)
	}
	for _, re := range []*lazyRegexp{fileDelete, treeDelete} {
		for _, m := range re.FindAllStringIndex(s, 8) {
			rest := s[m[1]:]
			end := min(argEnd(rest, true), 200)
			if i := strings.IndexAny(rest[:end], ";\n"); i >= 0 {
				end = i
			}
			if fn == "" && given(rest[:end]) {
				fn, tree = strings.TrimLeft(strings.TrimRight(s[m[0]:m[1]], "( \t"), ")."), re == treeDelete || recursiveArg.MatchString(rest[:min(len(rest), 200)])
			}
		}
	}
	if fn == "" {
		if ms := argvDeleteFn.FindAllStringSubmatchIndex(s, 1); len(ms) > 0 {
			m := ms[0]
			stmt := s[max(0, m[0]-120):min(len(s), m[1]+120)]
			if argvRef.MatchString(stmt) {
				fn = s[m[2]:m[3]]
				tree = strings.Contains(fn, "rmtree") || strings.Contains(fn, "rm_r") || strings.Contains(fn, "rmSync")
			}
		}
	}
	if fn == "" {
		for _, m := range pathMethodDelete.FindAllStringIndex(s, 8) {
			recv := s[max(0, m[0]-80):m[0]] // Path(sys.argv[1]).unlink(), p.unlink() after for p in map(Path, sys.argv[1:])
			if i := strings.LastIndexAny(recv, ";\n"); i >= 0 {
				recv = recv[i+1:]
			}
			j := len(recv)
			for j > 0 && identChar(recv[j-1]) && recv[j-1] != ':' && recv[j-1] != '-' {
				j--
			}
			if argvRef.MatchString(recv) || j < len(recv) && argvBound(s, recv[j:]) {
				fn, tree = strings.TrimLeft(s[m[0]:m[1]], "."), strings.Contains(s[m[0]:m[1]], "rmtree")
				fn = strings.TrimRight(fn, "( \t")
				break
			}
		}
	}
	if fn == "" {
		return
	}
	for len(params) > 0 && params[0].ok && params[0].s == "--" {
		params = params[1:]
	}
	name := iv.name + " code's " + fn + " of its arguments, as rm"
	sub := *iv
	sub.name = name
	sub.args = make([]arg, 0, len(params)+3)
	sub.args = append(sub.args, arg{s: name, ok: true, src: name})
	if tree {
		sub.args = append(sub.args, arg{s: "-r", ok: true, src: "-r"})
	}
	sub.args = append(sub.args, arg{s: "--", ok: true, src: "--"})
	sub.args = append(sub.args, params...)
	rm(&sub)
}

// argvBound reports whether code binds the variable name to its
// arguments: for f in sys.argv[1:], f = sys.argv[1], ARGV.each { |f| …,
// process.argv.slice(2).forEach(f => …), for my $f (@ARGV), foreach
// ($argv as $f).
func argvBound(code, name string) bool {
	if name == "" || !strings.Contains(code, name) {
		return false
	}
	q := regexp.QuoteMeta(name)
	argv := argvRef.src
	re := regexp.MustCompile(`\bfor\s*\(?\s*(?:const\s+|let\s+|var\s+|my\s+)?\$?` + q + `\s+(?:in|of)\s+[^\n:;{]{0,80}?(?:` + argv + `)` +
		`|(?:^|[^\w.$])\$?` + q + `\s*:?=\s*[^=\n;]{0,80}?(?:` + argv + `)` +
		`|(?:` + argv + `)[^\n;]{0,80}?(?:\|\s*` + q + `\s*\||\(\s*` + q + `\s*\)\s*=>|\b` + q + `\s*=>|\bas\s+\$` + q + `\b)` +
		`|\b(?:for|foreach)\s+my\s+\$` + q + `\s*\(\s*@ARGV`)
	return re.MatchString(code)
}

// listingCall is a call of a method that lists or fetches what a store or
// service holds (kv.list(…), client.list_objects(…), app.get_builds,
// Model.all, r.scan_iter(…), bucket.listFiles()); group 1 is its name.
var listingCall = lazyRE(`\.((?:list|scan|keys|all|get|find|search|iter|query|fetch|paginate|describe|select|where|filter|entries|items|values)\w*)\b`)

// iterStep is what makes the items of a listing each the subject of code
// after it: a for loop over it, Ruby's each, JavaScript's forEach and map.
var iterStep = lazyRE(`^(?:\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?\)*\s*(?:\.(?:each|forEach|map|for_each|find_each|each_entry|in_batches)\b|\)?\s*:|\)\s*(?:\{|await\b|\w)|\s*\{?\s*\|)`)

// forHeader is a for loop's header up to its iterable: for x in, for
// (const e of, for await (const e of.
var forHeader = lazyRE(`\bfor\s*(?:await\s*)?\(?\s*(?:const\s+|let\s+|var\s+)?[\w$]+(?:\s*,\s*[\w$]+)*\s+(?:of|in)\s+(?:await\s+)?[\w$.\[\]'"]*$`)

// itemVerb is a method called in a loop's body, with Ruby's &:name and
// a name ending in !; group 1 or 2 is the name.
var itemVerb = lazyRE(`(?:&:|\.)([A-Za-z_]\w*!?)|(?:^|[^\w.$])((?:delete|remove|destroy|purge|drop|expire|revoke|terminate|wipe|erase|truncate)\w*)\s*\(`)

// endVerbs are the words of a method's name that end what it is
// called on in a store or service: deleting, expiring, revoking,
// cancelling, terminating, halting or rolling it back, unpublishing or
// disabling it (asyncio's tasks, all_tasks, are the program's own).
var endVerbs = setOf("cancel", "delete", "del", "remove", "destroy", "purge", "drop", "expire", "revoke", "terminate", "halt", "rollback",
	"unpublish", "deactivate", "disable", "wipe", "erase", "truncate", "nuke", "kill", "yank", "unlink", "flushall", "flushdb")

// clientRef is code that signs in to, connects to or opens a client of a
// service or store: Spaceship::ConnectAPI.login, Deno.openKv(…),
// redis.Redis(…), MongoClient(…), createClient(…), credentials.
var clientRef = lazyRE(`\b(?:\w*[Cc]onnect\w*|\w*[Cc]lient|[Ll]ogin|authenticate|authorize|open_?[Kk]v|\w*[Cc]redentials|\w*Session|session|\w*API|\w*Api|Redis|StrictRedis|Firestore|Database|resource)\s*[.(]`)

// eachDestroyed holds code that calls a method named for ending what it
// is called on (endVerbs) for every item a listing of a store or
// service gives (listingCall, then a loop, each, forEach or map over
// it), with a client of it signed in to or opened (netClient, clientRef):
// kv.list → kv.delete each, app.get_builds.each(&:expire!), for u in
// client.list_users(): client.delete_user(u). As a verb a person runs on
// every item a listing gives, it ends all of them, shared ones too.
// File deletes are judged by their paths elsewhere.
func (iv *inv) eachDestroyed(s string) {
	if netClient.FindString(s) == "" && !clientRef.MatchString(s) {
		return
	}
	for _, m := range listingCall.FindAllStringSubmatchIndex(s, 16) {
		ws := camelWords(s[m[2]:m[3]])
		if len(ws) == 0 || !listingCall.MatchString("."+ws[0]) || len(ws[0]) != len(s[m[2]:m[3]]) && ws[0] != "list" && ws[0] != "get" && ws[0] != "scan" && ws[0] != "find" && ws[0] != "iter" && ws[0] != "fetch" && ws[0] != "search" && ws[0] != "query" && ws[0] != "all" {
			continue
		}
		after := s[m[1]:min(len(s), m[1]+400)]
		step := iterStep.FindStringIndex(after)
		inFor := forHeader.MatchString(s[max(0, m[0]-80):m[0]])
		if step == nil && !inFor {
			continue
		}
		body := after
		if step != nil {
			body = after[step[1]:]
		}
		if inFor { // [c.delete_blob(b) for b in c.list_blobs(…)]: a comprehension's call comes before its for
			before := s[max(0, m[0]-200):m[0]]
			before = before[strings.LastIndexAny(before, ";\n")+1:]
			body = before + " " + body
		}
		for _, v := range itemVerb.FindAllStringSubmatch(body, 16) {
			name := cmp.Or(v[1], v[2])
			vw := camelWords(strings.TrimSuffix(name, "!"))
			if len(vw) == 0 || askWords[vw[0]] && vw[0] != "cancel" || inMemory.MatchString("."+name) || fileVerb[name] || vw[0] == "cancel" && ws[0] == "all" {
				continue
			}
			if slices.ContainsFunc(vw, func(w string) bool { return endVerbs[w] }) {
				iv.flag(Destructive, iv.name+" one-liner calls "+name+" on each item a listing ("+s[m[2]:m[3]]+") gives: it ends every one of them in the store or service the code connects to")
				return
			}
		}
	}
}

// fileVerb are the calls that delete files, judged by their paths.
var fileVerb = setOf("remove", "unlink", "rmdir", "removedirs", "unlinkSync", "rmSync", "rmdirSync", "rmtree", "rm", "rm_rf", "rm_f", "delete_file", "deleteSync")

// psCloudVerb is a PowerShell cmdlet of a cloud's or a directory's module
// (Az, AzureRM, AzureAD, AWS Tools' AWS/S3/EC2/RDS/IAM/…, Google Cloud's
// Gcs/Gce/GcSql, Microsoft Graph's Mg, Exchange Online, SharePoint's PnP
// and SPO, Teams) named with a verb that removes, stops, empties, resets,
// revokes or disables: the platform's destroying verbs, as az, aws and
// gcloud's delete and stop are. Group 1 is the cmdlet.
var psCloudVerb = lazyRE(`(?i)\b((?:Remove|Stop|Clear|Reset|Revoke|Disable|Unregister|Suspend)-(?:Az|AzureRm|AzureAD|AzAD|AWS|S3|EC2|RDS|IAM|EKS|ECS|CFN|LM|DDB|SQS|SNS|KMS|SEC|R53|CW|CWL|ELB2?|ASG|EFS|ECR|Gcs|Gce|GcSql|Gc|Mg|MgBeta|Mailbox|DistributionGroup|PnP|SPO|Team|Cs|Msol|Entra)\w*)`)

// psCloudDestroys holds a PowerShell statement that runs a cloud's
// destroying cmdlet (psCloudVerb): Get-AzResourceGroup | Remove-AzResourceGroup
// -Force, Remove-S3Bucket -DeleteBucketContent, Stop-AzVM. -WhatIf in the
// same statement only says what it would do, unless set false
// (-WhatIf:$false) or a later statement runs it again.
func (iv *inv) psCloudDestroys(s string) {
	for _, m := range psCloudVerb.FindAllStringSubmatchIndex(s, 8) {
		stmt := s[m[1]:]
		if i := strings.IndexAny(stmt, ";\n"); i >= 0 {
			stmt = stmt[:i]
		}
		if w := whatIf.FindStringIndex(stmt); w != nil && !strings.HasPrefix(strings.TrimLeft(stmt[w[1]:], " "), ":$false") && !strings.HasPrefix(strings.TrimLeft(stmt[w[1]:], " "), ":$0") {
			continue
		}
		iv.flag(Destructive, iv.name+" one-liner runs "+s[m[2]:m[3]]+", a cloud's cmdlet that removes, stops or resets what it is given: remote state others may use")
		return
	}
}
