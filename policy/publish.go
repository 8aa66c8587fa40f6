package policy

import (
	"path"
	"strings"
)

// publicDrop is a place that publishes whatever is sent to it, to anyone
// who has the address: a paste or file-drop host, a gist's API, a chat's
// incoming webhook. Given as a URL or, for nc and the like, a bare host.
var publicDrop = lazyREIf(func(s string) bool { return strings.IndexByte(s, '.') > 0 }, `(?i)^(?:https?://)?(?:[\w-]+\.)*(?:0x0\.st|x0\.at|envs\.sh|transfer\.sh|termbin\.com|ix\.io|sprunge\.us|clbin\.com|paste\.rs|dpaste\.(?:com|org)|pastebin\.com|hastebin\.(?:com|skyra\.pw)|paste\.ee|paste\.gg|pastes\.dev|rentry\.(?:co|org)|ghostbin\.\w+|privatebin\.net|file\.io|catbox\.moe|bashupload\.com|temp\.sh|oshi\.at|tmpfiles\.org|gofile\.io|uguu\.se|pixeldrain\.com|keep\.sh|ttm\.sh|paste\.sr\.ht|paste\.debian\.net|paste\.centos\.org|bpa\.st|pastie\.io|controlc\.com|justpaste\.it|webhook\.site|requestbin\.\w+|pipedream\.net|gist\.github\.com|api\.github\.com/gists|hooks\.slack\.com|discord(?:app)?\.com/api/webhooks|api\.telegram\.org|[\w-]+\.webhook\.office\.com)(?:[/:?]|$)`)

// publicPlace is the first word of args that names a publicDrop or a chat
// webhook, or "".
func publicPlace(args []arg) string {
	for _, a := range args {
		if a.ok && (publicDrop.MatchString(a.s) || chatWebhook.MatchString(a.s)) {
			return a.s
		}
	}
	return ""
}

// appConfig reports whether p names an application's configuration in a
// format that holds its settings in the clear, the kind where connection
// passwords, API keys and signing secrets are kept: conf/shop.conf,
// client.properties, application-prod.yml, appsettings.json,
// config/database.yml, settings.ini, wrangler.toml. Not a tool's own
// configuration that holds none (tsconfig.json, tox.ini, setup.cfg,
// log4j.properties), a template, or one made for the tests. Alone that
// says little — most such files are read every day — but published to
// anyone who has the address, whatever credentials they hold go too.
func appConfig(p string) bool {
	if p == "" || strings.ContainsAny(p, "$*?[") || fixturePath(p) {
		return false
	}
	base := strings.ToLower(path.Base(p))
	if templateFile(base) || toolConfigs[base] || strings.HasPrefix(base, "log4j") || strings.HasPrefix(base, "logback") ||
		strings.HasPrefix(base, "logging.") || strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig") ||
		strings.HasSuffix(base, "-wrapper.properties") || strings.HasPrefix(base, "messages") {
		return false
	}
	if credentialsName(base) {
		return true
	}
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch ext {
	case ".properties", ".conf", ".cnf", ".ini", ".cfg":
		return stem != ""
	case ".yml", ".yaml", ".json", ".toml", ".xml":
	default:
		return false
	}
	for _, w := range []string{"application", "appsettings", "bootstrap", "settings", "config", "database", "db", "secrets", "production", "prod", "staging", "local", "connections", "datasource", "wrangler", "docker-compose", "compose", "values", "hibernate", "context", "web", "server"} {
		if strings.HasPrefix(stem, w) || strings.HasPrefix(stem, "."+w) {
			return true
		}
	}
	for _, d := range strings.Split(strings.ToLower(path.Dir(p)), "/") {
		switch d {
		case "conf", "config", "configs", "configuration", "settings", "etc", "environments", "env", "envs", "deploy", "secrets":
			return true
		}
	}
	return false
}

// toolConfigs are configuration files of development tools, which hold
// their options and no credentials.
var toolConfigs = setOf("setup.cfg", "tox.ini", "pytest.ini", "mypy.ini", ".flake8", "pylintrc", ".pylintrc", ".coveragerc",
	".isort.cfg", ".editorconfig", "package.json", "package-lock.json", "composer.json", "composer.lock", "pyproject.toml",
	"cargo.toml", "cargo.lock", "renovate.json", ".prettierrc.json", ".eslintrc.json", ".babelrc.json", "babel.config.json",
	"gradle.properties.example", "php.ini-development", "php.ini-production", "mime.types", "lerna.json", "nx.json",
	"turbo.json", "deno.json", "biome.json", "app.json", "manifest.json", "angular.json", "project.json", "vercel.json",
	"netlify.toml", "firebase.json", "pom.xml", "build.xml", "ruff.toml", ".ruff.toml", "rustfmt.toml", "clippy.toml",
	"stylua.toml", "taplo.toml", "typos.toml", "cliff.toml", "dprint.json", "config.fish", "karma.conf", "protractor.conf",
	"jest.config.json", "tslint.json", "webpack.config.json", "nodemon.json", ".golangci.yml", ".golangci.yaml", ".pre-commit-config.yaml",
	"mkdocs.yml", "_config.yml", "config.toml.example", "sonar-project.properties", "local.properties", "gradle.properties",
	"config.yml.example", "hugo.toml", "book.toml", "tailwind.config.json", "postcss.config.json", "commitlint.config.json",
	"xcode.xcconfig", "compile_commands.json", "launch.json", "tasks.json", "settings.json", "extensions.json", "devcontainer.json",
	"nginx.conf.default", "mkdocs.yaml", "catalog-info.yaml", "codecov.yml", ".codecov.yml", "dependabot.yml", "environment.yml",
	"environment.yaml", "conda.yaml", "meta.yaml", "pubspec.yaml", "analysis_options.yaml", "stack.yaml", "chart.yaml")

// substReads is the file a command substitution in src prints whole
// (cat, head, tail, less, bat, $(<file)) when appConfig names it, or "".
func substConfig(src string) string {
	for rest := src; ; {
		i := strings.Index(rest, "$(")
		j := strings.IndexByte(rest, '`')
		if i < 0 && j < 0 {
			return ""
		}
		if i < 0 || j >= 0 && j < i {
			i = j - 1
		}
		rest = rest[i+2:]
		end := strings.IndexAny(rest, ")`|;&")
		if end < 0 {
			end = len(rest)
		}
		f := strings.Fields(strings.Trim(rest[:end], " \"'"))
		if len(f) > 0 && strings.HasPrefix(f[0], "<") {
			f = append([]string{"cat", strings.TrimPrefix(f[0], "<")}, f[1:]...)
		}
		if len(f) > 1 && keyPrinters[f[0]] {
			for _, w := range f[1:] {
				if w = strings.Trim(w, `"'`); !strings.HasPrefix(w, "-") && appConfig(w) {
					return w
				}
			}
		}
	}
}

// ghPublishes reports whether a gh, glab, tea or hub subcommand puts text
// where others read it: a gist, an issue, a pull or merge request, a
// comment or note on one, a release's notes, a snippet, a discussion.
func ghPublishes(ws []string) bool {
	switch at(ws, 0) {
	case "gist", "snippet":
		return at(ws, 1) == "create" || at(ws, 1) == "new" || at(ws, 1) == "edit"
	case "issue", "issues", "pr", "pulls", "mr", "release", "discussion":
		switch at(ws, 1) {
		case "create", "new", "comment", "edit", "update", "note", "review", "close", "reopen":
			return true
		}
	}
	return false
}

// publishesConfig says how a command publishes an application's
// configuration file (appConfig) — a paste or file host, a chat webhook,
// a gist, an issue's or a comment's body — or "": every password and key
// the file holds goes to whoever reads there.
func publishesConfig(iv *inv) string {
	args := iv.rest(1)
	switch iv.name {
	case "gh", "glab", "tea", "hub":
		ws := positionals(args, "-R", "--repo", "-H", "--header", "-t", "--title", "-d", "--desc", "--description", "-b", "--body",
			"-F", "--body-file", "-f", "--filename", "-m", "--message", "-l", "--label", "-a", "--assignee", "--notes-file", "-n", "--notes")
		if !ghPublishes(ws) {
			return ""
		}
		gist := at(ws, 0) == "gist" || at(ws, 0) == "snippet"
		for i, a := range args {
			prev := ""
			if i > 0 && args[i-1].ok {
				prev = args[i-1].s
			}
			if !a.ok {
				if f := substConfig(a.src); f != "" {
					return iv.name + " publishes the configuration file " + f + ", with any credentials it holds, in the text of " + at(ws, 0) + " " + at(ws, 1)
				}
				continue
			}
			file := ""
			switch {
			case prev == "-F" || prev == "--body-file" || prev == "--notes-file":
				file = a.s
			case strings.HasPrefix(a.s, "--body-file=") || strings.HasPrefix(a.s, "--notes-file="):
				file = a.s[strings.IndexByte(a.s, '=')+1:]
			case gist && !strings.HasPrefix(a.s, "-") && a.s != "gist" && a.s != "snippet" && a.s != ws[1]:
				file = a.s
			case a.s == "-" && iv.in.kind == srcFile:
				file = iv.in.file
			}
			if file == "-" && iv.in.kind == srcFile {
				file = iv.in.file
			}
			if appConfig(iv.c.tilde(file)) {
				return iv.name + " publishes the configuration file " + file + ", with any credentials it holds, in " + at(ws, 0) + " " + at(ws, 1)
			}
		}
	default:
		place := publicPlace(args)
		if place == "" {
			return ""
		}
		if iv.in.kind == srcFile && appConfig(iv.in.file) {
			return iv.name + " sends the configuration file " + iv.in.file + ", with any credentials it holds, to " + place + ", which publishes what it is given"
		}
		for i, a := range args {
			if !a.ok {
				if f := substConfig(a.src); f != "" {
					return iv.name + " sends the configuration file " + f + ", with any credentials it holds, to " + place + ", which publishes what it is given"
				}
				continue
			}
			v := a.s
			if i > 0 && args[i-1].ok && (args[i-1].s == "-T" || args[i-1].s == "--upload-file") {
				v = "@" + v
			}
			if k := strings.IndexAny(v, "@<"); k >= 0 && !strings.Contains(v, "://") {
				file, _, _ := strings.Cut(v[k+1:], ";")
				if appConfig(iv.c.tilde(file)) {
					return iv.name + " sends the configuration file " + file + ", with any credentials it holds, to " + place + ", which publishes what it is given"
				}
			}
		}
	}
	return ""
}
