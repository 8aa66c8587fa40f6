package ui

import (
	"reflect"
	"testing"

	"tend/engine"
)

// A pipe job's output is cut into lines, each in parts by the stream the
// engine's spans say it came from, however the reads cut it.
func TestOutputLinesByStream(t *testing.T) {
	t.Parallel()
	out, err := engine.Stdout, engine.Stderr
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
			want:  []outLine{line(outPart{"out1", false}), line(outPart{"err1", true}), line(outPart{"out2", false})},
		},
		{
			name:  "no spans: all stdout",
			reads: []read{{"a\nb\n", nil}},
			want:  []outLine{line(outPart{"a", false}), line(outPart{"b", false})},
		},
		{
			name:  "a stderr prompt, then stdout ends the line",
			reads: []read{{"Password: ok\n", []engine.Span{{Stream: err, Len: 10}, {Stream: out, Len: 3}}}},
			want:  []outLine{line(outPart{"Password: ", true}, outPart{"ok", false})},
		},
		{
			name:  "a line split across reads keeps its streams",
			reads: []read{{"ab", []engine.Span{{Stream: out, Len: 2}}}, {"cd\n", []engine.Span{{Stream: err, Len: 3}}}},
			want:  []outLine{line(outPart{"ab", false}, outPart{"cd", true})},
		},
		{
			name:   "partial line held",
			reads:  []read{{"abc", nil}, {"def\nghi", nil}},
			want:   []outLine{line(outPart{"abcdef", false})},
			wantTl: "ghi",
		},
		{
			name:  "escapes, CR and tabs",
			reads: []read{{"\x1b[31mred\x1b[0m\n10%\r50%\r100%\r\na\tb\n", nil}},
			want:  []outLine{line(outPart{"red", false}), line(outPart{"100%", false}), line(outPart{"a       b", false})},
		},
		{
			name:  "a carriage return in an earlier stream overdraws it",
			reads: []read{{"10%\r", []engine.Span{{Stream: err, Len: 4}}}, {"done\n", []engine.Span{{Stream: out, Len: 5}}}},
			want:  []outLine{line(outPart{"done", false})},
		},
		{
			name:  "tabs count the columns of the parts before them",
			reads: []read{{"abc\td\n", []engine.Span{{Stream: err, Len: 3}, {Stream: out, Len: 3}}}},
			want:  []outLine{line(outPart{"abc", true}, outPart{"     d", false})},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var o outputLines
			for _, r := range tc.reads {
				o.add([]byte(r.data), r.spans)
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
