package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"tend/internal/config"
	"tend/policy"
)

// runCheck is `tend check`: classify a command with the policy, without
// running it, so a person can test their rules.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tend check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, `print {"class", "reasons", "decision"} as JSON`)
	explained := fs.Bool("explain", false, "show each simple command found, with its class and reasons, and what decided")
	cwd := fs.String("cwd", "", "the directory the command would run in (default: this one)")
	mode := fs.String("mode", "", "approval mode: off, destructive, all or unknown (default: the config's, else destructive)")
	cfgPath := fs.String("config", config.DefaultPath(), "config file whose rules apply")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: tend check [--json | --explain] [--cwd DIR] [--mode MODE] -- COMMAND")
		fs.PrintDefaults()
	}
	if code, ok := parse(fs, args, stdout); !ok {
		return code
	}
	command := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(command) == "" {
		fs.Usage()
		return 2
	}
	if *asJSON && *explained {
		fmt.Fprintln(stderr, "tend check: --json and --explain do not go together")
		return 2
	}
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "tend check: %v\n", err)
		return 2
	}
	p, _ := cfg.Policy()
	if *mode != "" {
		if p.Mode, err = policy.ParseMode(*mode); err != nil {
			fmt.Fprintf(stderr, "tend check: %v\n", err)
			return 2
		}
	}
	dir := *cwd
	if dir == "" {
		dir, _ = os.Getwd()
	}
	home, _ := os.UserHomeDir()
	v := p.Check(command, policy.Env{Cwd: dir, Home: home})
	if *explained {
		explain(stdout, p, command, dir, v)
		return 0
	}
	if *asJSON {
		reasons := v.Reasons
		if reasons == nil {
			reasons = []string{}
		}
		b, _ := json.Marshal(struct {
			Class    string   `json:"class"`
			Reasons  []string `json:"reasons"`
			Decision string   `json:"decision"`
		}{v.Class.String(), reasons, v.Decision.String()})
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	fmt.Fprintf(stdout, "%s → %s\n", v.Class, v.Decision)
	for _, r := range v.Reasons {
		fmt.Fprintf(stdout, "  %s\n", r)
	}
	return 0
}
