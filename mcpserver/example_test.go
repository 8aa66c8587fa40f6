package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/engine"
	"tend/mcpserver"
)

// An agent runs a command and reads the envelope: the exit code, the
// output, and semantic_status, which says whether the exit code means
// failure (grep finding nothing is an answer, not an error).
func Example_exec() {
	ctx := context.Background()
	cs, stop := connect(ctx)
	defer stop()

	for _, command := range []string{"echo hello", "echo hay | grep needle", "exit 3"} {
		var out struct {
			ExitCode       int    `json:"exit_code"`
			Stdout         string `json:"stdout"`
			SemanticStatus string `json:"semantic_status"`
		}
		call(ctx, cs, "terminal_exec", map[string]any{"command": command}, &out)
		fmt.Printf("%-22s exit_code=%d semantic_status=%s stdout=%q\n", command, out.ExitCode, out.SemanticStatus, out.Stdout)
	}
	// Output:
	// echo hello             exit_code=0 semantic_status=ok stdout="hello\n"
	// echo hay | grep needle exit_code=1 semantic_status=ok stdout=""
	// exit 3                 exit_code=3 semantic_status=error stdout=""
}

// An agent starts a job in the background, goes on with other work, and
// later reads its output, waiting for it to end.
func Example_backgroundJob() {
	ctx := context.Background()
	cs, stop := connect(ctx)
	defer stop()

	var started struct {
		JobID string `json:"job_id"`
	}
	call(ctx, cs, "terminal_job_start", map[string]any{
		"command":          "for i in 1 2 3; do echo step $i; sleep 0.1; done",
		"startup_wait_sec": 0,
	}, &started)

	var logs struct {
		Data     string `json:"data"`
		Status   string `json:"status"`
		ExitCode int    `json:"exit_code"`
	}
	call(ctx, cs, "terminal_job_logs", map[string]any{
		"job_id":          started.JobID,
		"stream":          "stdout",
		"wait_until_exit": true,
	}, &logs)
	fmt.Print(logs.Data)
	fmt.Println("status:", logs.Status, "exit_code:", logs.ExitCode)
	// Output:
	// step 1
	// step 2
	// step 3
	// status: exited exit_code: 0
}

// An agent opens a persistent shell: its variables and working directory
// last from one command to the next, and each run returns the command's
// output and exit code.
func Example_shell() {
	ctx := context.Background()
	cs, stop := connect(ctx)
	defer stop()

	var shell struct {
		SessionID string `json:"session_id"`
	}
	call(ctx, cs, "terminal_pty_open", map[string]any{}, &shell)

	for _, command := range []string{"cd /etc; GREETING=hello", `echo "$GREETING from $(pwd)"`, "test -d nowhere"} {
		var run struct {
			Output   string `json:"output"`
			ExitCode int    `json:"exit_code"`
		}
		call(ctx, cs, "terminal_pty_run", map[string]any{"session_id": shell.SessionID, "command": command}, &run)
		fmt.Printf("exit_code=%d output=%q\n", run.ExitCode, run.Output)
	}
	// Output:
	// exit_code=0 output=""
	// exit_code=0 output="hello from /etc\n"
	// exit_code=1 output=""
}

// connect serves tend's tools over an engine in a new state dir and
// connects a go-sdk client to them over in-memory transports (an agent
// would connect over stdio, through tend mcp). stop closes the client and
// the engine, ending its jobs, and removes the state dir.
func connect(ctx context.Context) (cs *mcp.ClientSession, stop func()) {
	dir, err := os.MkdirTemp("", "tend-example-")
	if err != nil {
		log.Fatal(err)
	}
	e, err := engine.New(engine.Config{StateDir: dir})
	if err != nil {
		log.Fatal(err)
	}
	server := mcpserver.New(e, mcpserver.Options{Version: "example"})
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverEnd, nil); err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "example-agent", Version: "1.0"}, nil)
	if cs, err = client.Connect(ctx, clientEnd, nil); err != nil {
		log.Fatal(err)
	}
	return cs, func() {
		cs.Close()
		e.Close()
		os.RemoveAll(dir)
	}
}

// call calls a tool and decodes its structured result into out.
func call(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any, out any) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		log.Fatal(err)
	}
	if res.IsError {
		log.Fatalf("%s: %v", tool, res.Content[0].(*mcp.TextContent).Text)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		log.Fatal(err)
	}
}
