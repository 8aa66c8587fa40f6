// Package policy classifies shell commands (read-only, write, destructive,
// unparseable) by parsing them with mvdan.cc/sh, and decides allow, ask or
// deny under the user's rules. It imports nothing of tend's; the engine, the
// MCP server and the TUI may all import it.
//
// # Contract
//
// [Classify] parses a command as bash and classifies every simple command
// in it — through &&, ||, ;, pipelines, subshells, blocks, if/for/while/case,
// function bodies, $(…), `…`, <(…), redirections, and re-parsed code
// (bash -c, sh -c, eval, trap, alias, su -c, ssh host cmd, watch, git -c
// core.pager=…, PROMPT_COMMAND=…, heredocs and here-strings fed to shells,
// echo … | sh) up to 4 levels deep — after unwrapping sudo, env, nohup,
// timeout, time, nice, stdbuf, command, builtin, exec, xargs, parallel,
// find -exec and the like. The result is the most severe [Class] over all
// of them, with reasons a person can read, and the list of simple commands
// with their statically expanded argv ([Result.Commands]).
//
// Classification is static. Words are expanded with expand.Fields (quote
// removal, brace and tilde expansion) knowing only $HOME, $PWD, $TMPDIR
// and the variables and arrays the script itself sets to values known
// statically, where those values are certain (vars.go); any other
// variable, $(…), or parameter operator (${x:-y}, ${x//a/b}) is left
// unexpanded and treated as unknown: an unknown command name is
// [Unparseable], an unknown rm -r target is [Destructive]. Parts the shell
// makes afresh for each run ($$, $RANDOM, $(date +%s)) are kept as
// written: they hold no / and are never .., so a path made with them lies
// where its literals put it, and what the command creates under such a
// name is its own to remove. cd is tracked within a sequence, so "cd / &&
// rm -rf usr" is rm -rf /usr.
//
// Destructive means an effect, whatever tool has it: deleting, emptying or
// overwriting the working directory itself, a parent of it, the home
// directory, a database file, a disk, or anything outside the working
// directory except inside the temp dirs (a global install, the user's own
// configuration: npm install -g, git config --global); running code that
// cannot be read or was downloaded, by any road (pipes through filters into
// a shell, a script the same command wrote, escapes in other tools,
// aliases, renamed programs, interpreter one-liners); changing the machine
// (services, power, firewall, accounts, cron, kernel, mounts, system
// packages removed or installed from a file or URL, signals to processes
// the command did not start, anything that changes the machine run as
// another user but installing packages by name from the distribution's
// repositories); changing remote state (a
// subcommand or option that deletes, drops, resets, flushes, purges or
// scales to zero, destructive SQL, DELETE requests, a verb that closes or
// merges shared items run on every item a listing gives it, containers
// given the host's root, home or secrets); reading secrets or sending them
// over the network. The catalogue knows the verbs of real tools; a tool it
// does not know is judged by its words (effect.go) and is Write when they
// say nothing destructive. Deleting build outputs inside the project (rm
// -rf build/) is [Write]; deleting the user's own source there, or
// writing over it in bulk (rm -rf src/, tar -x over the tree's root, cp -r
// into lib/), is Destructive (source.go). Test or scratch data on this
// machine's servers (a database, topic, index, queue or bucket with a
// word of its name such as test, e2e, ci or scratch; a numbered Redis
// database other than 0), local stacks (a compose project named for
// tests, supabase's local database, kind, k3d and minikube clusters) and
// what the command itself made (a worktree, a mktemp file) are its own
// to remove: Write. A short list of known readers
// (ls, cat, grep, git status, …) is [ReadOnly].
//
// Fail safe (RELIABILITY design rule 1): input over 64 KiB, containing NUL
// or invalid UTF-8, a parse error, re-parsing deeper than 4 levels, a brace
// expansion over 256 words per word or 4096 per command, a classification
// over 50 ms of wall time, and a recovered panic are all [Unparseable],
// which [Policy.Check] treats as needing a person.
//
// The only side effects are reading $TMPDIR, the home directory (when
// [Env].Home is empty), the user database (for ~user), os.Lstat on
// redirection targets outside the project (to tell overwriting an existing
// file from creating one), and the working directory's .gitignore (at
// most 64 KiB, read again only when it changes) when a command deletes or
// writes over a directory in the tree. Classify and Check are safe for
// concurrent use.
//
// This is a heuristic guard for a person's attention, not a sandbox: a
// determined program can always hide what it does (a script file, a
// compiled binary, an interpreter one-liner beyond the obvious patterns).
//
// [Policy.Check] applies the mode and Claude Code permission rules
// ("Bash(npm run test:*)") to the classification; its doc comment states
// the precedence.
package policy
