package mcpserver

import (
	"context"
	"errors"
	"io"
	"net"
	"time"
)

// BridgeLinger is how long [Bridge] waits, after the agent's input ended,
// for the server to send its last replies (an exec in flight auto-promotes
// and answers at once) before it closes the socket.
const BridgeLinger = 5 * time.Second

// Bridge copies in to conn and conn to out byte for byte, so the agent's
// initialize, client info and cancellations reach the server behind conn
// unchanged. When in ends (the agent closed its stdin or died) it half-closes
// conn, lets the server's last replies through for up to [BridgeLinger], and
// closes conn: the jobs stay with the server, which outlives its clients.
// It returns when conn is closed, by either side, or when ctx ends.
func Bridge(ctx context.Context, conn *net.UnixConn, in io.Reader, out io.Writer) error {
	defer conn.Close()
	toAgent := make(chan error, 1)
	go func() {
		_, err := io.Copy(out, conn)
		toAgent <- err
	}()
	fromAgent := make(chan error, 1)
	go func() {
		_, err := io.Copy(conn, in)
		fromAgent <- err
	}()
	select {
	case err := <-toAgent: // the server ended the connection, or out broke
		return err
	case <-ctx.Done():
		return nil
	case err := <-fromAgent:
		if err != nil && !errors.Is(err, net.ErrClosed) {
			// The agent's side is broken; the server's is probably too.
			return err
		}
	}
	conn.CloseWrite()
	select {
	case err := <-toAgent:
		return err
	case <-ctx.Done():
	case <-time.After(BridgeLinger):
	}
	return nil
}
