#!/usr/bin/env bash
# record-vterm-screens.sh: record real programs inside tmux for vterm's
# differential test (vterm/diff_test.go).
#
# Each case runs a program in a detached 80x24 tmux pane on a socket of its
# own (tmux -L vterm-rec). pipe-pane -o saves every byte the program writes;
# at each checkpoint the script waits for output to settle, then stores
# tmux's view of the screen (capture-pane -p -e -N) with the cursor, the
# alternate-screen flag and the byte offset reached. The Go test replays the
# first <offset> bytes into vterm and compares cell by cell.
#
# Needs: tmux, vim, less, htop, dialog, whiptail, vttest (Debian packages of
# the same names). Usage: scripts/record-vterm-screens.sh [case…]
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=vterm/testdata/diff
SOCK=vterm-rec
mkdir -p "$OUT"
export LANG=C.UTF-8 LC_ALL=C.UTF-8

tm() { tmux -L "$SOCK" -f /dev/null "$@"; }

cleanup() { tm kill-server 2>/dev/null || true; }
trap cleanup EXIT

# settle waits until the recording stops growing for half a second.
settle() {
	local prev=-1 same=0 size
	for _ in $(seq 1 200); do
		size=$(stat -c %s "$RAW" 2>/dev/null || echo 0)
		if [ "$size" = "$prev" ]; then
			same=$((same + 1))
			[ "$same" -ge 5 ] && return 0
		else
			same=0
		fi
		prev=$size
		sleep 0.1
	done
	echo "warning: $NAME did not settle" >&2
}

# checkpoint stores tmux's screen after the output settles.
checkpoint() {
	settle
	local size before after
	before=$(stat -c %s "$RAW")
	{
		echo "offset=$before $(tm display -p -t "$NAME" 'cursor=#{cursor_x},#{cursor_y} alt=#{alternate_on} visible=#{cursor_flag}')"
		tm capture-pane -p -e -N -t "$NAME"
	} >"$OUT/$NAME.$CP.screen"
	after=$(stat -c %s "$RAW")
	if [ "$before" != "$after" ]; then
		echo "error: $NAME wrote while its screen was captured" >&2
		exit 1
	fi
	CP=$((CP + 1))
}

keys() { tm send-keys -t "$NAME" "$@"; }
text() { tm send-keys -t "$NAME" -l "$1"; }

# screen_has tells whether tmux's screen matches an extended regexp.
screen_has() { tm capture-pane -p -t "$NAME" | grep -qE "$1"; }

# wait_screen waits until the output settles on a screen matching an extended
# regexp: a keypress that was not taken stops the script instead of
# recording the wrong screens.
wait_screen() {
	for _ in $(seq 1 20); do
		settle
		screen_has "$1" && return 0
		sleep 0.2
	done
	echo "error: $NAME: no screen matching '$1'" >&2
	tm capture-pane -p -t "$NAME" >&2
	exit 1
}

# start runs a command in a new pane; output is recorded from its first byte:
# the shell waits (echo off) until pipe-pane is attached.
start() {
	NAME=$1
	RAW=$OUT/$NAME.bytes
	CP=0
	rm -f "$OUT/$NAME".*
	tm new-session -d -s "$NAME" -x 80 -y 24 \
		"stty -echo; read -r _; stty echo; export TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8; $2; stty -echo; exec sleep 100000"
	tm set -g status off
	tm pipe-pane -o -t "$NAME" "cat >'$RAW'"
	keys Enter
}

stop() {
	tm pipe-pane -t "$NAME"
	tm kill-session -t "$NAME"
}

want() { [ $# -eq 0 ] || [[ " ${CASES[*]} " == *" $1 "* ]]; }
CASES=("$@")

# A coloured text file for the pagers and the editor.
SAMPLE=$OUT/../sample.txt
mkdir -p "$(dirname "$SAMPLE")"
if [ ! -f "$SAMPLE" ]; then
	{
		for i in $(seq 1 120); do
			printf 'line %03d: the quick brown fox jumps over the lazy dog %s\n' "$i" "$( ((i % 7 == 0)) && echo '日本語テキスト café naïve' || true)"
		done
	} >"$SAMPLE"
fi

if want colors; then
	start colors 'for i in 30 31 32 33 34 35 36 37 90 91 92 93 94 95 96 97; do printf "\033[${i}mfg$i\033[m "; done; echo;
for i in 40 41 42 43 44 45 46 47 100 101 102 103 104 105 106 107; do printf "\033[${i}mbg$i\033[m "; done; echo;
for a in 1 2 3 4 5 7 9 "1;31" "1;34" "2;32" "4:3" "1;7;33;44"; do printf "\033[${a}mattr$a\033[m "; done; echo;
for i in $(seq 0 255); do printf "\033[38;5;${i}m#\033[48;5;$((255-i))m \033[m"; [ $((i % 40)) = 39 ] && echo; done; echo;
for i in $(seq 0 8 255); do printf "\033[38;2;0;0;${i}m*\033[48;2;${i};0;0m \033[m"; done; echo;
for i in $(seq 0 16 255); do printf "\033[38:2::${i}:128:0m+\033[38:5:${i}m-\033[m"; done; echo;
printf "\033[41mbce\033[K\033[m\n"; printf "\033[44m\033[2Xx\033[m after-ech\n"'
	checkpoint
	stop
fi

if want unicode; then
	start unicode 'echo "CJK: 日本語の文章と中文和한국어"; echo "emoji: 😀 🎉 👍 🚀 ❤️ ✨"; printf "combining: e\314\201 a\314\210 n\314\203 | precomposed: é ä ñ\n";
printf "%078d日X\n" 0; printf "%079d日Y\n" 0; printf "%080d日Z\n" 0; echo "box: ┌─┬─┐ │ │ │ └─┴─┘ ░▒▓█"; echo "zwj: 👨‍👩‍👧 flag: 🇯🇵 end"'
	checkpoint
	stop
fi

if want scroll; then
	start scroll 'seq 1 60; printf "\033[5;10r\033[10;1H"; for i in 1 2 3 4 5 6 7; do printf "region $i\n"; done; printf "\033[r\033[24;1H"; seq 61 65; printf "\033[2S\033[1T"; printf "tail\033[3;1H\033[2L\033[1M\033[5;5H\033[1J"'
	checkpoint
	stop
fi

if want sequences; then
	# The vt10x quirks vterm absorbs (vterm/doc.go) in one stream: REP, IRM, ESC[;5H, ED 1 on row 2,
	# kitty and modifyOtherKeys sequences, a second ?1049l, CHT/CBT.
	start sequences 'printf "abc\033[5bX\n"; printf "0123456789\r\033[4h\033[2CIN\033[4l\n"; printf "\033[;5Hsemi"; printf "\033[2;3H\033[1J"; printf "\033[?u\033[>4;2m\033[>1u\033[<u\033[=1;1ukitty-ok\n";
printf "\033[?1049h\033[?1049l\033[?1049lafter-1049\n"; printf "\033[6;1H\033[3Itab\033[2Zz\n"; printf "\033[8;1H\033(0lqqk\033(B x \016lqk\017 so\n"; printf "\033[10;78Hwrap-me\n"; printf "\033[7mrev\033[27m \033[1mbold\033[22m \033[3mit\033[0m\n"; printf "\033[15;1H\033[0X\033[5@ins\033[2P"'
	checkpoint
	stop
fi

# RIS (ESC c, what reset and tput reset send) resets the whole terminal. Each
# case leaves state behind, resets, then prints what shows that state is gone.
if want ris-region; then
	# A full coloured screen, a scroll region, origin and insert mode, no
	# autowrap, cleared tab stops, DEC graphics in G0 and G1 (shifted in) and a
	# saved cursor. After RIS: the region is the whole screen (the LF scrolls
	# "top" off), CUP is absolute, the tab stops are every 8 columns, lqk are
	# letters, DECRC goes home (R), I overwrites, and a long line wraps.
	start ris-region 'printf "\033[1;31;44m"; for i in $(seq 1 24); do printf "%02d%078d" $i 0; done;
printf "\033[5;15r\033[?6h\033[4h\033[?7l\033[3g\033[1;4H\033H\033(0\033)0\016\0337\033[3;1Hregion lqk";
printf "\033c";
printf "top\033[24;1H\nbottom\033[10;20r\033[1;5HO\033[r\033[3;1Ha\tb lqk\0338R\033[3;1HI\033[20;1H%085d" 0'
	checkpoint
	stop
fi

if want ris-alt; then
	# RIS from the alternate screen, with the modes a full-screen program sets.
	start ris-alt 'for i in $(seq 1 24); do printf "p%02d%077d" $i 0; done; printf "\033[?1049h\033[1;33;45m"; for i in $(seq 1 23); do printf "a%02d%077d\r\n" $i 0; done;
printf "\033[?1h\033=\033[?2004h\033[?1000h\033[?1006h\033[?1004h\033[?25l\033[4 q\033[5;10r\033[?6h";
printf "\033c";
printf "after reset\r\n\033[41mred\033[m"'
	checkpoint
	stop
fi

if want ris-sgr; then
	# RIS after colours, attributes and wide characters on every cell of the
	# screen: erases after it take the default background.
	start ris-sgr 'for i in $(seq 1 24); do printf "\033[38;5;%d;48;2;%d;0;0;1;4m%02d 日本語テキスト \033[3;9;7m%062d" $((i*9)) $((i*10)) $i 0; done; printf "\033[0;1;5;43m";
printf "\033c";
printf "plain\033[2;1H\033[Kplain again\033[5;1H\033[2Xx"'
	checkpoint
	stop
fi

if want ris-wrap; then
	# RIS with the cursor in the pending-wrap state at the bottom right.
	start ris-wrap 'printf "first\033[24;1H%080d" 0; printf "\033c"; printf "X%079dY" 0'
	checkpoint
	stop
fi

if want vim; then
	cp "$SAMPLE" "$OUT/vimfile.txt"
	start vim "vim -u NONE -N -i NONE -c 'syntax on' -c 'set number ruler laststatus=2 hlsearch' '$OUT/vimfile.txt'"
	checkpoint
	keys 4 0 G
	checkpoint
	text '/fox'
	keys Enter
	text 'o'
	text 'inserted 日本語 text é'
	keys Escape
	checkpoint
	keys C-d C-d
	checkpoint
	text ':split'
	keys Enter
	checkpoint
	text ':qa!'
	keys Enter
	checkpoint
	stop
	rm -f "$OUT/vimfile.txt"
fi

if want less; then
	start less "LESS= less '$SAMPLE'"
	checkpoint
	keys Space
	checkpoint
	text '/naïve'
	keys Enter
	checkpoint
	keys G
	checkpoint
	keys q
	checkpoint
	stop
fi

if want htop; then
	start htop "htop -d 1000"
	checkpoint
	keys F2
	checkpoint
	keys Escape F10
	checkpoint
	stop
fi

if want dialog; then
	start dialog "dialog --title 'Menu' --menu 'Pick one:' 15 50 4 a 'Alpha 日本' b Beta c Gamma d Delta; dialog --checklist 'Tick:' 12 40 3 1 one on 2 two off 3 three on; dialog --gauge 'Working' 8 40 40 </dev/null"
	checkpoint
	keys Down Down
	checkpoint
	keys Enter
	checkpoint
	keys Space Down Space
	checkpoint
	keys Enter
	checkpoint
	stop
fi

if want whiptail; then
	start whiptail "whiptail --title 'Question' --yesno 'Continue with the thing?' 10 50; whiptail --inputbox 'Name:' 8 40 tend"
	checkpoint
	keys Tab
	checkpoint
	keys Enter
	checkpoint
	text 'X'
	checkpoint
	stop
fi

if want vttest; then
	# vttest_menu runs item $1 of vttest's main menu: it checkpoints every
	# screen of the test (each ends in "Push <RETURN>") and answers it with
	# RETURN, until vttest is back at its main menu, which it checkpoints too.
	# Counting the screens instead once let a menu choice answer a test's
	# last screen, so the choice was never taken.
	vttest_menu() {
		text "$1"
		keys Enter
		while :; do
			wait_screen 'Push <RETURN>|Choose test type'
			checkpoint
			screen_has 'Choose test type' && return 0
			keys Enter
		done
	}
	start vttest "vttest"
	wait_screen 'Enter choice number'
	checkpoint
	vttest_menu 1 # cursor movements (six screens)
	vttest_menu 2 # screen features (fifteen screens)
	vttest_menu 8 # VT102 insert/delete, at 80 then 132 columns (fourteen screens)
	vttest_menu 3 # character sets (one screen in VT100 mode)
	stop
fi

ls -la "$OUT"
