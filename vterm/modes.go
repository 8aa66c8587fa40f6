package vterm

// MouseMode is the mouse tracking the application asked for.
type MouseMode uint8

// The mouse tracking modes (DECSET 9, 1000, 1002, 1003).
const (
	MouseNone   MouseMode = iota
	MouseX10              // 9: button presses only
	MouseNormal           // 1000: presses and releases
	MouseButton           // 1002: and motion while a button is down
	MouseAny              // 1003: and all motion
)

// MouseEncoding is how mouse reports are encoded.
type MouseEncoding uint8

// The mouse encodings (DECSET 1005, 1006, 1015).
const (
	MouseEncodingDefault MouseEncoding = iota
	MouseEncodingUTF8
	MouseEncodingSGR
	MouseEncodingURXVT
)

// CursorStyle is the DECSCUSR cursor shape (CSI Ps SP q), 0–6.
type CursorStyle uint8

// The cursor styles.
const (
	CursorDefault CursorStyle = iota
	CursorBlinkingBlock
	CursorSteadyBlock
	CursorBlinkingUnderline
	CursorSteadyUnderline
	CursorBlinkingBar
	CursorSteadyBar
)

// Modes are the terminal modes an embedder needs to encode input and draw
// the cursor. vt10x tracks only some of them; vterm tracks all of these itself.
type Modes struct {
	AppCursor      bool // DECCKM (?1): cursor keys send ESC O x
	AppKeypad      bool // DECKPAM (ESC =)
	BracketedPaste bool // ?2004
	SyncOutput     bool // ?2026: the application is mid-frame
	FocusEvents    bool // ?1004
	Mouse          MouseMode
	MouseEncoding  MouseEncoding
	CursorStyle    CursorStyle
	CursorVisible  bool // DECTCEM (?25)
	Insert         bool // IRM (4)
	AutoWrap       bool // DECAWM (?7)
	Origin         bool // DECOM (?6)
	NewLine        bool // LNM (20): LF also returns the carriage
}

func defaultModes() Modes { return Modes{CursorVisible: true, AutoWrap: true} }
