package vterm

import "testing"

func TestParseKeyEncodeKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		normal    string
		appCursor string // "" means the same as normal
	}{
		{"ctrl+c", "\x03", ""},
		{"ctrl+a", "\x01", ""},
		{"ctrl+z", "\x1a", ""},
		{"ctrl+[", "\x1b", ""},
		{"ctrl+\\", "\x1c", ""},
		{"ctrl+space", "\x00", ""},
		{"ctrl+@", "\x00", ""},
		{"ctrl+/", "\x1f", ""},
		{"enter", "\r", ""},
		{"alt+enter", "\x1b\r", ""},
		{"tab", "\t", ""},
		{"shift+tab", "\x1b[Z", ""},
		{"backspace", "\x7f", ""},
		{"ctrl+backspace", "\x08", ""},
		{"esc", "\x1b", ""},
		{"escape", "\x1b", ""},
		{"space", " ", ""},
		{"a", "a", ""},
		{"A", "A", ""},
		{"shift+a", "A", ""},
		{"é", "é", ""},
		{"+", "+", ""},
		{"alt+x", "\x1bx", ""},
		{"ctrl+alt+c", "\x1b\x03", ""},
		{"up", "\x1b[A", "\x1bOA"},
		{"down", "\x1b[B", "\x1bOB"},
		{"right", "\x1b[C", "\x1bOC"},
		{"left", "\x1b[D", "\x1bOD"},
		{"home", "\x1b[H", "\x1bOH"},
		{"end", "\x1b[F", "\x1bOF"},
		{"shift+up", "\x1b[1;2A", ""},
		{"ctrl+left", "\x1b[1;5D", ""},
		{"ctrl+alt+shift+right", "\x1b[1;8C", ""},
		{"pgup", "\x1b[5~", ""},
		{"pgdown", "\x1b[6~", ""},
		{"ctrl+pgdown", "\x1b[6;5~", ""},
		{"insert", "\x1b[2~", ""},
		{"delete", "\x1b[3~", ""},
		{"f1", "\x1bOP", ""},
		{"f4", "\x1bOS", ""},
		{"shift+f1", "\x1b[1;2P", ""},
		{"f5", "\x1b[15~", ""},
		{"f12", "\x1b[24~", ""},
		{"ctrl+f5", "\x1b[15;5~", ""},
		{"f20", "\x1b[34~", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			k, err := ParseKey(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(EncodeKey(k, Modes{})); got != tc.normal {
				t.Errorf("normal mode: %q, want %q", got, tc.normal)
			}
			want := tc.appCursor
			if want == "" {
				want = tc.normal
			}
			if got := string(EncodeKey(k, Modes{AppCursor: true})); got != want {
				t.Errorf("app cursor mode: %q, want %q", got, want)
			}
			again, err := ParseKey(k.String())
			if err != nil || again != k {
				t.Errorf("round trip through %q: %+v, %v", k.String(), again, err)
			}
		})
	}
}

func TestParseKeyErrors(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"", "ctrl+", "hyper+x", "f0", "f21", "nosuchkey", "ab", "\xff", "\x01"} {
		if k, err := ParseKey(name); err == nil {
			t.Errorf("ParseKey(%q) = %+v, want an error", name, k)
		}
	}
}

func TestKeysFollowTheTerminal(t *testing.T) {
	t.Parallel()
	_, s := feed(t, 10, 2, "\x1b[?1h")
	k, _ := ParseKey("up")
	if got := string(EncodeKey(k, s.Modes)); got != "\x1bOA" {
		t.Fatalf("after DECCKM: %q", got)
	}
}

func TestEncodePaste(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		modes   Modes
		want    string
		comment string
	}{
		{"hello\nworld", Modes{}, "hello\rworld", "line breaks become CR"},
		{"a\r\nb", Modes{}, "a\rb", "CRLF is one break"},
		{"x", Modes{BracketedPaste: true}, "\x1b[200~x\x1b[201~", "bracketed"},
		{"evil\x1b[201~rm -rf ~\n", Modes{BracketedPaste: true}, "\x1b[200~evilrm -rf ~\r\x1b[201~", "no early end"},
		{"\x1b[20\x1b[201~1~", Modes{BracketedPaste: true}, "\x1b[200~\x1b[201~", "nested end markers removed too"},
	}
	for _, tc := range tests {
		if got := string(EncodePaste(tc.in, tc.modes)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.comment, got, tc.want)
		}
	}
}

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"ctrl+c", "alt+shift+f5", "up", "é", "+", "ctrl++", "shift+tab"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		k, err := ParseKey(name)
		if err != nil {
			return
		}
		_ = EncodeKey(k, Modes{AppCursor: true})
		again, err := ParseKey(k.String())
		if err != nil || again != k {
			t.Fatalf("%q parsed to %+v; its name %q parsed to %+v, %v", name, k, k.String(), again, err)
		}
	})
}

func TestEncodeWheel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		up   bool
		x, y int
		m    Modes
		want string
	}{
		{"no reports asked for", true, 0, 0, Modes{}, ""},
		{"sgr up", true, 4, 9, Modes{Mouse: MouseNormal, MouseEncoding: MouseEncodingSGR}, "\x1b[<64;5;10M"},
		{"sgr down", false, 0, 0, Modes{Mouse: MouseAny, MouseEncoding: MouseEncodingSGR}, "\x1b[<65;1;1M"},
		{"default", true, 0, 1, Modes{Mouse: MouseNormal}, "\x1b[M`!\""},
		{"default beyond 223", true, 223, 0, Modes{Mouse: MouseNormal}, ""},
		{"urxvt", false, 2, 3, Modes{Mouse: MouseButton, MouseEncoding: MouseEncodingURXVT}, "\x1b[97;3;4M"},
		{"utf-8 past 95", true, 299, 0, Modes{Mouse: MouseNormal, MouseEncoding: MouseEncodingUTF8}, "\x1b[M`" + string(rune(332)) + "!"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := string(EncodeWheel(tc.up, tc.x, tc.y, tc.m)); got != tc.want {
				t.Errorf("EncodeWheel = %q, want %q", got, tc.want)
			}
		})
	}
}
