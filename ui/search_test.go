package ui

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"tend/engine"
)

// seqJob is a finished pipe job whose output is the numbers 1 to n, one a
// line, as seq prints them.
func seqJob(b *fakeBackend, n int) *fakeJob {
	var out []byte
	for i := 1; i <= n; i++ {
		out = strconv.AppendInt(out, int64(i), 10)
		out = append(out, '\n')
	}
	return b.add(&fakeJob{
		info: engine.Info{
			ID: "9", Command: fmt.Sprintf("seq 1 %d", n), Cwd: "/srv/app", Status: engine.Exited, ExitCode: code(0),
			StartedAt: now, Origin: engine.PersonOrigin(),
		},
		merged: out,
	})
}

// shownLine is the number the current match's line holds, as the pane has
// it loaded.
func shownLine(t *testing.T, p *pane) int {
	t.Helper()
	h, ok := p.current()
	if !ok {
		t.Fatal("no match is current")
	}
	for i := range p.out.count() {
		if l := p.out.line(i); l.off == h.off {
			n, err := strconv.Atoi(l.text)
			if err != nil {
				t.Fatalf("the current match's line is %q", l.text)
			}
			return n
		}
	}
	t.Fatalf("the current match (at %d) is not in the window [%d, %d)", h.off, p.out.line(0).off, p.out.at)
	return 0
}

// A search looks through the whole log, not only the lines the pane
// holds: matches before the window are found, and going to one loads the
// output around it, numbered; n and N go through all of them in order.
func TestSearchWholeLog(t *testing.T) {
	t.Parallel()
	b := newFakeBackend()
	const n = 3_000_000
	seqJob(b, n)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("9")
	p := &h.m.pane
	if before, _ := p.earlier(); before == 0 {
		t.Fatalf("the pane loaded all %d lines; the test needs a window", n)
	}
	first := p.out.line(0).text

	var want []int // every line that matches, oldest first
	for i := 1; i <= n; i++ {
		if strings.Contains(strconv.Itoa(i), "777777") {
			want = append(want, i)
		}
	}
	h.press("/")
	h.typeText("777777")
	h.press("enter")
	if p.scanning != nil {
		t.Fatal("the scan did not finish")
	}
	if got := p.matchCount(); got != len(want) {
		t.Fatalf("%d matches, want %d", got, len(want))
	}
	if got := shownLine(t, p); got != want[len(want)-1] {
		t.Fatalf("the search went to line %d, want the newest match %d", got, want[len(want)-1])
	}
	if !p.past {
		t.Error("a window of the past is not marked as such")
	}
	wantIn(t, plain(h), strconv.Itoa(want[len(want)-1]), "line "+groupDigits(int64(want[len(want)-1])), "past output · esc back to live")

	// n goes older, through every match and round to the newest again.
	for k := len(want) - 2; k >= -1; k-- {
		h.press("n")
		w := want[(k+len(want))%len(want)]
		if got := shownLine(t, p); got != w {
			t.Fatalf("n went to line %d, want %d", got, w)
		}
	}
	h.press("N") // and N newer, round to the oldest
	if got := shownLine(t, p); got != want[0] {
		t.Fatalf("N from the newest went to line %d, want the oldest %d", got, want[0])
	}

	h.press("esc")
	if p.past || p.search != "" || p.out.line(0).text != first {
		t.Errorf("esc left the past window: past %v, search %q, first line %q (want %q)", p.past, p.search, p.out.line(0).text, first)
	}
	wantIn(t, plain(h), strconv.Itoa(n))
}

// A search for a line the window holds goes there at once, and the
// matches before the window count too.
func TestSearchWindowAndLog(t *testing.T) {
	t.Parallel()
	b := newFakeBackend()
	const n = 400_000
	seqJob(b, n)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("9")
	p := &h.m.pane
	h.press("/")
	h.typeText("99999")
	h.press("enter")
	var want []int
	for i := 1; i <= n; i++ {
		if strings.Contains(strconv.Itoa(i), "99999") {
			want = append(want, i)
		}
	}
	if got := p.matchCount(); got != len(want) {
		t.Fatalf("%d matches, want %d", got, len(want))
	}
	if got := shownLine(t, p); got != want[len(want)-1] || p.past {
		t.Fatalf("the search went to line %d (past %v), want %d in the live window", got, p.past, want[len(want)-1])
	}
	for i := len(want) - 2; i >= 0; i-- {
		h.press("n")
		if got := shownLine(t, p); got != want[i] {
			t.Fatalf("n went to line %d, want %d", got, want[i])
		}
	}
}

// Scrolled to the top of the window, a row says how much output comes
// before it and how to reach it, with the lines counted.
func TestMarkerForEarlierOutput(t *testing.T) {
	t.Parallel()
	b := newFakeBackend()
	seqJob(b, 500_000)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("9")
	p := &h.m.pane
	if strings.Contains(plain(h), "not loaded") {
		t.Fatal("the marker shows while the pane follows the end")
	}
	h.run(h.m.scrollPane(1 << 30))
	first, err := strconv.Atoi(p.out.line(0).text)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := p.earlier()
	wantIn(t, plain(h), fmt.Sprintf("▲ %s earlier lines (%s) not loaded here · / searches all of it",
		groupDigits(int64(first-1)), longBytes(before)))
	body := p.body()
	if len(body) != p.h {
		t.Fatalf("the body has %d rows, want %d", len(body), p.h)
	}
	if !strings.Contains(body[1], strconv.Itoa(first)) {
		t.Errorf("the row under the marker is %q, want the window's first line %d", body[1], first)
	}
}

// What the log scan matches is what the pane would show and match: the
// raw bytes of a line, made printable, searched as the person typed.
func TestMatcherRawAgreesWithShownText(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "B", "ab", "Ab", "\x1b[31m", "\x1b[0m", "\r", "\t", "é", "É", " ", "\x00", "\x7f", "\x1b]0;t\x07", "x"}
	queries := []string{"ab", "Ab", "a b", "é", "b\te", "ax", "a   b"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		line := b.String()
		var pn pens
		shown := cleanLine([]segment{{data: []byte(line)}}, &pn).text
		for _, q := range queries {
			m := newMatcher(q)
			if got, want := m.raw([]byte(line)), m.text(shown); got != want {
				t.Fatalf("%q in %q (shown %q): raw %v, shown %v", q, line, shown, got, want)
			}
		}
	}
}

// A match whose line leaves the window as a running job writes on is kept,
// and going to it loads the output around it again.
func TestSearchKeepsMatchesTheWindowDrops(t *testing.T) {
	t.Parallel()
	b := newFakeBackend()
	j := b.add(&fakeJob{info: engine.Info{ID: "4", Command: "make", Cwd: "/srv/app", Status: engine.Running, StartedAt: now, Origin: engine.PersonOrigin()}})
	for i := range 100 {
		j.merged = fmt.Appendf(j.merged, "line %d\n", i)
	}
	j.merged = append(j.merged, "the needle\n"...)
	h := newHarness(t, b, nil, "dark")
	h.selectJob("4")
	p := &h.m.pane
	h.press("/")
	h.typeText("needle")
	h.press("enter")
	if p.matchCount() != 1 || len(p.matches) != 1 {
		t.Fatalf("%d matches (%d in the window), want the one in the window", p.matchCount(), len(p.matches))
	}
	j.mu.Lock()
	for i := range 2 * maxOutLines {
		j.merged = fmt.Appendf(j.merged, "more %d\n", i)
	}
	j.mu.Unlock()
	h.run(p.fetch(true))
	if before, _ := p.earlier(); before == 0 {
		t.Fatal("the window still holds the first line")
	}
	if p.matchCount() != 1 || len(p.older) != 1 {
		t.Fatalf("%d matches (%d before the window), want the needle kept before it", p.matchCount(), len(p.older))
	}
	h.press("n")
	if !p.past {
		t.Fatal("n did not go to the needle before the window")
	}
	wantIn(t, plain(h), "the needle", "/needle 1/1")
}

// BenchmarkSearchLog is how fast a search looks through a log: compile
// output with some colour, 64 MiB of it.
func BenchmarkSearchLog(b *testing.B) {
	be := newFakeBackend()
	var out []byte
	for i := 0; len(out) < 64<<20; i++ {
		if i%10 == 0 {
			out = fmt.Appendf(out, "\x1b[31mFAIL\x1b[0m\tpkg/mod%d\t0.%03ds\n", i, i%1000)
		} else {
			out = fmt.Appendf(out, "ok  \tpkg/module/number%d\t(cached)\n", i)
		}
	}
	j := be.add(&fakeJob{info: engine.Info{ID: "1", Status: engine.Exited}, merged: out})
	for _, q := range []string{"Nothing", "nothing", "fail"} {
		b.Run(q, func(b *testing.B) {
			b.SetBytes(int64(len(j.merged)))
			for b.Loop() {
				m := newMatcher(q)
				s := scan{m: m, to: int64(len(out))}
				for s.next < s.to {
					msg := scanCmd(be, "1", 0, s)().(scanMsg)
					s.next, s.lines = msg.next, s.lines+msg.lines
				}
			}
		})
	}
}
