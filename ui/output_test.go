package ui

import (
	"reflect"
	"testing"
)

func TestAttributorTellsStderrApart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		steps  [][2]string // merged, stderr
		want   []outLine
		wantTl string
	}{
		{
			name:  "interleaved lines",
			steps: [][2]string{{"out1\nerr1\nout2\n", "err1\n"}},
			want:  []outLine{{"out1", 0}, {"err1", 4}, {"out2", 0}},
		},
		{
			name:  "stderr read ahead of merged",
			steps: [][2]string{{"a\n", "e1\ne2\n"}, {"e1\nb\ne2\n", ""}},
			want:  []outLine{{"a", 0}, {"e1", 2}, {"b", 0}, {"e2", 2}},
		},
		{
			name:  "stderr prefix then stdout",
			steps: [][2]string{{"Password: ok\n", "Password: "}},
			want:  []outLine{{"Password: ok", 10}},
		},
		{
			name:  "window starts after old stderr",
			steps: [][2]string{{"x\nlate error\n", "old error\nlate error\n"}},
			want:  []outLine{{"x", 0}, {"late error", 10}},
		},
		{
			name:   "partial line held",
			steps:  [][2]string{{"abc", ""}, {"def\nghi", ""}},
			want:   []outLine{{"abcdef", 0}},
			wantTl: "ghi",
		},
		{
			name:  "escapes, CR and tabs",
			steps: [][2]string{{"\x1b[31mred\x1b[0m\n10%\r50%\r100%\r\na\tb\n", ""}},
			want:  []outLine{{"red", 0}, {"100%", 0}, {"a       b", 0}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var a attributor
			for _, s := range tc.steps {
				a.add([]byte(s[0]), []byte(s[1]))
			}
			if !reflect.DeepEqual(a.lines, tc.want) {
				t.Errorf("lines = %+v, want %+v", a.lines, tc.want)
			}
			tl, _ := a.tailLine()
			if tl.text != tc.wantTl {
				t.Errorf("tail = %q, want %q", tl.text, tc.wantTl)
			}
		})
	}
}
