package vterm

import "unicode/utf8"

// The stream parser is a DEC-style state machine (vt100.net/emu/dec_ansi_parser,
// as tmux uses it) that runs in front of vt10x. vt10x never sees the
// application's bytes: it sees only printable runes, a few C0 controls and
// canonical, clamped sequences that vterm emits itself. That keeps vt10x's own
// parser in its ground state between writes and makes every quirk ours to fix.

type parseState uint8

const (
	stGround    parseState = iota
	stEsc                  // after ESC
	stEscInter             // ESC with intermediates (ESC ( 0, ESC # 8)
	stCSI                  // collecting parameters and intermediates
	stCSIIgnore            // malformed CSI: swallow up to the final byte
	stOSC                  // OSC string, up to BEL or ST
	stStr                  // DCS, APC, PM, SOS, ESC k: swallowed up to ST
	stStrEsc               // ESC seen inside a string: ST or the start of a new sequence
)

const (
	maxParams   = 32    // tmux allows 24; more and the sequence is ignored, as in tmux
	maxParamVal = 65535 // larger values are clamped here, before any arithmetic
	maxOSC      = 4096  // longer OSC payloads are cut; the rest is swallowed, bounded
)

// param is one CSI parameter; sub is set for a ':'-separated sub-parameter.
type param struct {
	v   int
	set bool // digits were given (an empty parameter means "default")
	sub bool
}

type parser struct {
	state parseState
	// strOSC tells stStrEsc whether the string being ended is an OSC.
	strOSC bool

	// UTF-8 assembly; kept here so that a rune split across writes survives.
	u8     [utf8.UTFMax]byte
	u8n    int // bytes collected
	u8need int // bytes the lead byte announced

	prefix  byte // CSI private marker: one of < = > ?, or 0
	inter   [2]byte
	ninter  int
	params  [maxParams]param
	nparams int
	toomany bool

	osc     []byte
	oscBEL  bool // the OSC ended with BEL, so a reply should too
	escTerm byte // intermediate of ESC ( / ESC ) / ESC #
}

func (p *parser) resetSeq() {
	p.prefix, p.ninter, p.nparams, p.toomany = 0, 0, 0, false
}

// feed runs the state machine over b, calling t for every action.
func (t *Term) feed(b []byte) {
	p := &t.p
	top := t.topFeed
	t.topFeed = false
	noFlood := 0 // flood has looked at the run up to here
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case p.state == stCSI && c >= 0x20 && c < 0x7f:
			// Fast paths for what controlByte would come to: a CSI
			// sequence's parameters, intermediates and final byte, and
			// its introducer.
			t.csiByte(c)
			continue
		case p.state == stEsc && c == '[':
			p.resetSeq()
			p.state = stCSI
			continue
		}
		if p.state == stGround {
			if p.u8n > 0 {
				t.utf8Byte(c)
				continue
			}
			if c >= 0x20 && c < 0x7f {
				// Fast path: a run of printable ASCII.
				j := i + 1
				for j < len(b) && b[j] >= 0x20 && b[j] < 0x7f {
					j++
				}
				t.printASCII(b[i:j])
				i = j - 1
				continue
			}
			if c >= 0x80 {
				t.utf8Byte(c)
				continue
			}
		}
		if c == '\n' && p.state == stGround && i+1 >= noFlood {
			scrolls := t.curOK && t.cy == t.bottom
			t.controlByte(c)
			if scrolls {
				n, end := t.flood(b[i+1:], top)
				i += n
				noFlood = i + 1 + end - n
			}
			continue
		}
		t.controlByte(c)
	}
}

// utf8Byte assembles a rune in the ground state. An invalid or cut-short
// sequence prints U+FFFD, the same however the bytes were split.
func (t *Term) utf8Byte(c byte) {
	p := &t.p
	if p.u8n == 0 {
		switch {
		case c&0xe0 == 0xc0:
			p.u8need = 2
		case c&0xf0 == 0xe0:
			p.u8need = 3
		case c&0xf8 == 0xf0:
			p.u8need = 4
		default: // a stray continuation byte or 0xf8..0xff
			t.printRune(utf8.RuneError)
			return
		}
		p.u8[0], p.u8n = c, 1
		return
	}
	if c&0xc0 != 0x80 {
		// The sequence was cut short: replace it, then handle c afresh.
		p.u8n = 0
		t.printRune(utf8.RuneError)
		if c < 0x80 {
			t.feed([]byte{c})
		} else {
			t.utf8Byte(c)
		}
		return
	}
	p.u8[p.u8n] = c
	p.u8n++
	if p.u8n < p.u8need {
		return
	}
	r, _ := utf8.DecodeRune(p.u8[:p.u8n])
	p.u8n = 0
	t.printRune(r) // r is RuneError for overlong forms and surrogates
}

// controlByte handles c in every state but the ground state's printable path.
func (t *Term) controlByte(c byte) {
	p := &t.p
	if p.u8n > 0 { // a control byte cuts a rune short
		p.u8n = 0
		t.printRune(utf8.RuneError)
	}
	switch p.state {
	case stOSC:
		t.oscByte(c)
		return
	case stStr:
		if c == 0x1b {
			p.state, p.strOSC = stStrEsc, false
		} else if c == 0x18 || c == 0x1a {
			p.state = stGround
		}
		return
	case stStrEsc:
		if p.strOSC {
			t.oscEnd()
		}
		p.state = stGround
		if c == '\\' { // ST
			return
		}
		t.enterEsc()
		t.controlByte(c)
		return
	}
	// Bytes that act the same in every other state.
	switch {
	case c == 0x1b:
		t.enterEsc()
		return
	case c == 0x18 || c == 0x1a: // CAN, SUB abort a sequence
		p.state = stGround
		return
	case c < 0x20:
		t.execute(c)
		return
	case c == 0x7f || c >= 0x80: // DEL and stray high bytes inside sequences
		return
	}
	switch p.state {
	case stGround: // unreachable: printable bytes take the fast path
	case stEsc:
		switch {
		case c == '[':
			p.resetSeq()
			p.state = stCSI
		case c == ']':
			p.osc, p.state = p.osc[:0], stOSC
		case c == 'P' || c == '_' || c == '^' || c == 'X' || c == 'k':
			p.state = stStr
		case c >= 0x20 && c <= 0x2f:
			p.escTerm, p.state = c, stEscInter
		default:
			p.state = stGround
			t.escDispatch(c)
		}
	case stEscInter:
		if c >= 0x20 && c <= 0x2f {
			return // more intermediates than we care about; keep the first
		}
		p.state = stGround
		t.escInterDispatch(p.escTerm, c)
	case stCSI:
		t.csiByte(c)
	case stCSIIgnore:
		if c >= 0x40 && c <= 0x7e {
			p.state = stGround
		}
	}
}

func (t *Term) enterEsc() {
	t.p.state = stEsc
}

// csiByte collects one byte of a CSI sequence and dispatches at the final byte.
func (t *Term) csiByte(c byte) {
	if t.p.csiCollect(c) && !t.p.toomany {
		t.csiDispatch(c)
	}
}

// csiCollect takes one byte of a CSI sequence: a parameter, a private
// marker or an intermediate. A malformed sequence moves to stCSIIgnore; the
// final byte moves back to the ground state and reports true.
func (p *parser) csiCollect(c byte) (final bool) {
	switch {
	case c >= '0' && c <= '9':
		if p.ninter > 0 {
			p.state = stCSIIgnore
			return false
		}
		if p.nparams == 0 {
			p.nparams = 1
			p.params[0] = param{}
		}
		if p.nparams > maxParams {
			return false
		}
		q := &p.params[p.nparams-1]
		q.v = min(q.v*10+int(c-'0'), maxParamVal)
		q.set = true
	case c == ';' || c == ':':
		if p.ninter > 0 {
			p.state = stCSIIgnore
			return false
		}
		if p.nparams == 0 {
			p.nparams = 1
			p.params[0] = param{}
		}
		if p.nparams >= maxParams {
			p.toomany = true
			p.nparams = maxParams + 1 // stop collecting; the sequence is ignored
			return false
		}
		p.params[p.nparams] = param{sub: c == ':'}
		p.nparams++
	case c >= '<' && c <= '?':
		if p.nparams > 0 || p.prefix != 0 || p.ninter > 0 {
			p.state = stCSIIgnore
			return false
		}
		p.prefix = c
	case c >= 0x20 && c <= 0x2f:
		if p.ninter == len(p.inter) {
			p.state = stCSIIgnore
			return false
		}
		p.inter[p.ninter] = c
		p.ninter++
	case c >= 0x40 && c <= 0x7e:
		p.state = stGround
		return true
	}
	return false
}

// oscByte collects an OSC payload, bounded by maxOSC.
func (t *Term) oscByte(c byte) {
	p := &t.p
	switch c {
	case 0x07:
		p.oscBEL = true
		t.oscEnd()
		p.state = stGround
	case 0x1b:
		p.oscBEL = false
		p.state, p.strOSC = stStrEsc, true
	case 0x18, 0x1a:
		p.state = stGround
	default:
		if c >= 0x20 && len(p.osc) < maxOSC {
			p.osc = append(p.osc, c)
		}
	}
}

// arg returns parameter i (skipping nothing: sub-parameters count), or def
// when it is missing or empty.
func (p *parser) arg(i, def int) int {
	if i >= p.nparams || !p.params[i].set {
		return def
	}
	return p.params[i].v
}

// count returns parameter i as a repeat count: missing or 0 means 1.
func (p *parser) count(i int) int {
	return max(p.arg(i, 1), 1)
}
