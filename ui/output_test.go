package ui

import (
	"reflect"
	"testing"

	"tend/engine"
	"tend/vterm"
)

// A pipe job's output is cut into lines, each in parts by the stream the
// engine's spans say it came from, however the reads cut it.
func TestOutputLinesByStream(t *testing.T) {
	t.Parallel()
	out, err := engine.Stdout, engine.Stderr
	red := vterm.PaletteColor(1)
	type read struct {
		data  string
		spans []engine.Span
	}
	line := func(parts ...outPart) outLine {
		l := outLine{parts: parts}
		for _, p := range parts {
			l.text += p.text
		}
		return l
	}
	for _, tc := range []struct {
		name   string
		reads  []read
		want   []outLine
		wantTl string
	}{
		{
			name:  "interleaved lines",
			reads: []read{{"out1\nerr1\nout2\n", []engine.Span{{Stream: out, Len: 5}, {Stream: err, Len: 5}, {Stream: out, Len: 5}}}},
			want:  []outLine{line(outPart{text: "out1"}), line(outPart{text: "err1", stderr: true}), line(outPart{text: "out2"})},
		},
		{
			name:  "no spans: all stdout",
			reads: []read{{"a\nb\n", nil}},
			want:  []outLine{line(outPart{text: "a"}), line(outPart{text: "b"})},
		},
		{
			name:  "a stderr prompt, then stdout ends the line",
			reads: []read{{"Password: ok\n", []engine.Span{{Stream: err, Len: 10}, {Stream: out, Len: 3}}}},
			want:  []outLine{line(outPart{text: "Password: ", stderr: true}, outPart{text: "ok"})},
		},
		{
			name:  "a line split across reads keeps its streams",
			reads: []read{{"ab", []engine.Span{{Stream: out, Len: 2}}}, {"cd\n", []engine.Span{{Stream: err, Len: 3}}}},
			want:  []outLine{line(outPart{text: "ab"}, outPart{text: "cd", stderr: true})},
		},
		{
			name:   "partial line held",
			reads:  []read{{"abc", nil}, {"def\nghi", nil}},
			want:   []outLine{line(outPart{text: "abcdef"})},
			wantTl: "ghi",
		},
		{
			name:  "escapes, CR and tabs",
			reads: []read{{"\x1b[31mred\x1b[0m\n10%\r50%\r100%\r\na\tb\n", nil}},
			want:  []outLine{line(outPart{text: "red", style: cellStyle{fg: red}}), line(outPart{text: "100%"}), line(outPart{text: "a       b"})},
		},
		{
			name:  "a carriage return in an earlier stream overdraws it",
			reads: []read{{"10%\r", []engine.Span{{Stream: err, Len: 4}}}, {"done\n", []engine.Span{{Stream: out, Len: 5}}}},
			want:  []outLine{line(outPart{text: "done"})},
		},
		{
			name:  "tabs count the columns of the parts before them",
			reads: []read{{"abc\td\n", []engine.Span{{Stream: err, Len: 3}, {Stream: out, Len: 3}}}},
			want:  []outLine{line(outPart{text: "abc", stderr: true}, outPart{text: "     d"})},
		},
		{
			name:  "16, 256 and true colours, attributes, resets",
			reads: []read{{"\x1b[1;4;31mA\x1b[22;24mB\x1b[38;5;208mC\x1b[38:2::1:2:3;48;2;4;5;6mD\x1b[m\x1b[7;9;95;102mE\x1b[0mF\n", nil}},
			want: []outLine{line(
				outPart{text: "A", style: cellStyle{fg: red, attr: vterm.AttrBold | vterm.AttrUnderline}},
				outPart{text: "B", style: cellStyle{fg: red}},
				outPart{text: "C", style: cellStyle{fg: vterm.PaletteColor(208)}},
				outPart{text: "D", style: cellStyle{fg: vterm.RGBColor(1, 2, 3), bg: vterm.RGBColor(4, 5, 6)}},
				outPart{text: "E", style: cellStyle{fg: vterm.PaletteColor(13), bg: vterm.PaletteColor(10), attr: vterm.AttrReverse | vterm.AttrStrike}},
				outPart{text: "F"},
			)},
		},
		{
			name: "a colour goes on past a newline, in its own stream only",
			reads: []read{
				{"\x1b[31mout\nstill\x1b[0m\n", []engine.Span{{Stream: out, Len: 11}, {Stream: out, Len: 11}}},
				{"err\n", []engine.Span{{Stream: err, Len: 4}}},
			},
			want: []outLine{
				line(outPart{text: "out", style: cellStyle{fg: red}}),
				line(outPart{text: "still", style: cellStyle{fg: red}}),
				line(outPart{text: "err", stderr: true}),
			},
		},
		{
			name:  "a colour set in what a carriage return overdraws stays",
			reads: []read{{"\x1b[32m10%\r100%\x1b[m done\n", nil}},
			want:  []outLine{line(outPart{text: "100%", style: cellStyle{fg: vterm.PaletteColor(2)}}, outPart{text: " done"})},
		},
		{
			name: "every other sequence and control is dropped",
			reads: []read{{"a\x1b[2J\x1b[H\x1b[5;5Hb\x1b[?25l\x1b[?1049h\x1b]0;title\x07c\x1b]8;;http://x\x1b\\d\x1bPq#0;2;0;0;0\x1b\\e" +
				"\x1b[>4;1m\x1b[1 m\x1b[31:\x1b7\x1b8\x1bcf\x07\x08\x0b\x0cg\xc2\x9b2Jh\x9b2Ji\x1b_apc\x1b\\j\n", nil}},
			// U+009B (CSI to some terminals) goes; what follows it is text.
			want: []outLine{line(outPart{text: "abcdefg2Jhij"})},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var o outputLines
			var all []byte
			for _, r := range tc.reads {
				o.add([]byte(r.data), r.spans)
				all = append(all, r.data...)
			}
			// Each line starts where its bytes do: after a newline.
			for i, l := range o.lines {
				if i > 0 && (l.off <= o.lines[i-1].off || all[l.off-1] != '\n') || i == 0 && l.off != 0 {
					t.Errorf("line %d (%q) starts at %d", i, l.text, l.off)
				}
				o.lines[i].off = 0
			}
			if !reflect.DeepEqual(o.lines, tc.want) {
				t.Errorf("lines = %+v, want %+v", o.lines, tc.want)
			}
			if tl := o.line(len(o.lines)).text; o.count() > len(o.lines) && tl != tc.wantTl || o.count() == len(o.lines) && tc.wantTl != "" {
				t.Errorf("tail = %q (count %d), want %q", tl, o.count(), tc.wantTl)
			}
		})
	}
}

// The line not yet complete is drawn in its colours as often as the pane
// asks, and the stream's colour moves on only once the line is.
func TestOutputTailKeepsTheStreamsColour(t *testing.T) {
	t.Parallel()
	yellow := cellStyle{fg: vterm.PaletteColor(3)}
	var o outputLines
	o.add([]byte("\x1b[33mwait"), nil)
	for range 2 {
		if got, want := o.line(0).parts, []outPart{{text: "wait", style: yellow}}; !reflect.DeepEqual(got, want) {
			t.Fatalf("tail parts = %+v, want %+v", got, want)
		}
	}
	if o.pens[0] != (cellStyle{}) {
		t.Fatalf("drawing the tail moved stdout's rendition to %+v", o.pens[0])
	}
	o.add([]byte("ed\nnext\n"), nil)
	want := []outLine{
		{off: 0, text: "waited", parts: []outPart{{text: "waited", style: yellow}}},
		{off: 12, text: "next", parts: []outPart{{text: "next", style: yellow}}},
	}
	if !reflect.DeepEqual(o.lines, want) {
		t.Errorf("lines = %+v, want %+v", o.lines, want)
	}
}
