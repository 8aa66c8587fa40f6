package policy

import (
	"path"
	"strings"
)

// Simulators and emulators are devices made for testing on this machine:
// the apps on them are the project's own builds, installed again by the
// next run, and a simulator is erased and made again at will. Removing an
// app from one, stopping it, shutting the device down or erasing one is
// ordinary work; erasing or deleting every simulator at once is not (it
// wipes the apps and data of simulators the command knows nothing of),
// nor removing an app from a phone (adb without an emulator), whose data
// is someone's.

// simctl is Xcode's simulator control (xcrun simctl): its verbs act on
// simulators, and delete all and erase all on every one of them: deleted,
// they are no more (the scripts and schemes that name them by id find
// nothing); erased, every one's apps and data are gone.
func simctl(iv *inv) {
	iv.flag(Write, "")
	pos := positionals(iv.rest(1), "--set", "--profiles") // simctl [--set <path>] [--profiles <path>] <subcommand>
	switch v := at(pos, 0); {
	case v == unknownWord:
		iv.flag(Unparseable, "simctl verb computed at run time")
	case v == "delete" && (at(pos, 1) == "all" || at(pos, 1) == unknownWord):
		iv.flag(Destructive, "simctl delete "+at(pos, 1)+" deletes every simulator, with the apps and data on it")
	case v == "erase" && (at(pos, 1) == "all" || at(pos, 1) == unknownWord):
		iv.flag(Destructive, "simctl erase "+at(pos, 1)+" erases every simulator, wiping the apps and data on each")
	case v == "io" && (at(pos, 2) == "screenshot" || at(pos, 2) == "recordVideo"):
		if out := simctlOperand(iv.rest(1), 3); out.s != "-" && (out.s != "" || !out.ok) { // the image or video is written over that path, on this machine
			iv.overwrites(out)
			if t := iv.c.resolve(iv.sc, out); out.ok && !iv.sc.remote && iv.c.emptied(t, out.s) != "" { // what the file held is gone, as if emptied
				iv.flagWrite(t, "simctl io "+at(pos, 2)+" writes an image or video over "+iv.c.emptied(t, out.s)+": "+iv.c.show(t))
			}
		}
	case v == "spawn": // a program run in the simulator, which shares this machine's files
		if prog := simctlOperands(iv.rest(1), "-a", "--arch"); len(prog) > 2 {
			iv.exec(prog[2:])
		}
	}
}

// simctlOperand is the operand of simctl at index n (after the options
// and the values of --set and --profiles), or an empty arg.
func simctlOperand(args []arg, n int) arg {
	if ops := simctlOperands(args); n < len(ops) {
		return ops[n]
	}
	return arg{ok: true}
}

// simctlOperands are simctl's operands from its verb on: the words that
// are not options (nor the values of --set, --profiles and withValue), and after
// the program spawn runs, every word.
func simctlOperands(args []arg, withValue ...string) []arg {
	var out []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case len(out) >= 3 && out[0].s == "spawn":
			out = append(out, a) // the program's own arguments
		case a.ok && (a.s == "--set" || a.s == "--profiles" || contains(withValue, a.s)):
			i++
		case a.ok && strings.HasPrefix(a.s, "-") && a.s != "-":
		default:
			out = append(out, a)
		}
	}
	return out
}

// onEmulator reports whether adb's options send it to an emulator, not
// a phone: -s emulator-5554, or with no -s, ANDROID_SERIAL=emulator-…,
// or -e with neither naming another device. -s wins over -e and -d;
// only adb's own options (before its command) choose the device.
func (iv *inv) onEmulator(args []arg) bool {
	if iv.name != "adb" {
		return false
	}
	serial, emu := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok:
			return false
		case a.s == "-e":
			emu = true
		case a.s == "-s" || a.s == "-t" || a.s == "--one-device":
			if i+1 >= len(args) || !args[i+1].ok || a.s != "-s" {
				return false // a transport id, or a device computed at run time
			}
			i++
			serial = args[i].s
		case a.s == "-H" || a.s == "-P" || a.s == "-L":
			i++
		case strings.HasPrefix(a.s, "-"):
		default:
			i = len(args) // the command: what follows is its own
		}
	}
	if serial == "" {
		for _, e := range iv.environ() {
			if strings.HasPrefix(e.src, "ANDROID_SERIAL=") {
				serial = e.s
				if !e.ok {
					serial = "?" // computed: perhaps a phone's
				}
			}
		}
	}
	if serial != "" {
		return strings.HasPrefix(serial, "emulator-")
	}
	return emu
}

// A development board's flash, programmed or erased over a debug probe, a
// serial bootloader or USB DFU (st-flash erase, esptool.py erase_flash,
// nrfjprog --eraseall, pyocd erase --chip), holds the firmware the next
// build writes again: for a firmware project that is ordinary work, and
// the words erase, reset or --erase there are the board's, not what the
// tool manages elsewhere. A disk of this machine given to such a tool is
// still held (rawDisk), and so is this machine's own firmware (flashrom).

// boardFlashers are the tools that only program, erase or reset boards.
var boardFlashers = setOf("st-flash", "esptool", "esptool.py", "espflash", "avrdude", "dfu-util", "dfu-programmer",
	"nrfjprog", "nrfutil", "pyocd", "probe-rs", "cargo-flash", "cargo-embed", "picotool", "stm32flash",
	"STM32_Programmer_CLI", "JLinkExe", "JLink", "bossac", "teensy_loader_cli", "blhost", "edbg", "minichlink",
	"wchisp", "uf2conv", "uf2conv.py", "micronucleus", "iceprog", "ecpprog", "openFPGALoader")

// boardWords are, in build tools that also flash boards, the words by
// which they act on the board (pio run -t erase, idf.py erase-flash,
// west flash --erase).
var boardWords = map[string]map[string]bool{
	"pio":        setOf("erase", "upload", "uploadfs", "program"),
	"platformio": setOf("erase", "upload", "uploadfs", "program"),
	"idf.py":     setOf("erase-flash", "erase_flash", "erase-otadata", "erase_otadata"),
	"west":       setOf("--erase"),
}

// onBoard reports whether a word of a tool acts on a board's flash.
func onBoard(name, word string) bool {
	return boardFlashers[name] || boardWords[name][word]
}

// flashrom writes or erases a flash chip: through an external programmer,
// a board's; with -p internal (or linux_mtd), this machine's own firmware,
// which a failed write leaves unable to boot.
func flashrom(iv *inv) {
	iv.flag(Write, "")
	args := iv.rest(1)
	prog := "internal" // flashrom's old default
	for i, a := range args {
		switch {
		case (a.src == "-p" || a.src == "--programmer") && i+1 < len(args):
			prog = args[i+1].s
			if !args[i+1].ok {
				prog = args[i+1].src
			}
		case strings.HasPrefix(a.src, "--programmer="):
			prog = strings.TrimPrefix(a.s, "--programmer=")
			if !a.ok {
				prog = a.src
			}
		case strings.HasPrefix(a.src, "-p") && !strings.HasPrefix(a.src, "--") && len(a.src) > 2:
			prog = a.src[2:] // -pinternal
		}
	}
	name, _, _ := strings.Cut(prog, ":")
	if name != "internal" && name != "linux_mtd" && !strings.ContainsAny(name, "$`\"'") {
		return // ch341a_spi, serprog, ft2232_spi: a chip on a programmer, not this machine's
	}
	if flags, _ := opts(args); hasFlag(flags, "wE", "--write", "--erase") {
		iv.flag(Destructive, "flashrom with programmer "+prog+" writes or erases this machine's own firmware, which a bad image leaves unable to boot")
	}
}

// adb runs its shell and exec-out commands on the device it is sent to,
// a phone or an emulator, not this machine: they are judged as ssh's are,
// on another host (adb shell rm -f /data/local/tmp/*.apk deletes on the
// device, not this machine's /data). Its other verbs are judged by their
// words (verbEffect; onEmulator).
func adb(iv *inv) {
	args := iv.rest(1)
	i := 0
	for i < len(args) && args[i].ok && strings.HasPrefix(args[i].s, "-") {
		if s := args[i].s; s == "-s" || s == "-t" || s == "-H" || s == "-P" || s == "-L" {
			i++
		}
		i++
	}
	if i >= len(args) || !args[i].ok || args[i].s != "shell" && args[i].s != "exec-out" {
		unknownTool(iv)
		return
	}
	iv.flag(Write, "")
	for i++; i < len(args) && args[i].ok && strings.HasPrefix(args[i].s, "-") && args[i].s != "-"; i++ {
		if args[i].s == "-e" {
			i++ // adb shell -e ~ cmd: the escape character
		}
	}
	if i >= len(args) {
		if iv.in.kind == srcText {
			iv.shell(arg{s: iv.in.text, ok: true, src: iv.in.text}, remote(iv.sc)) // adb shell <<EOF: the device's shell reads it
		}
		return
	}
	first := len(iv.c.cmds)
	iv.shell(joinRest(args[i:]), remote(iv.sc))
	if iv.onEmulator(args) {
		return // a device made for testing: its files are the test run's
	}
	for _, cmd := range iv.c.cmds[first:] {
		if len(cmd.Argv) == 0 || !deleters[path.Base(cmd.Argv[0])] {
			continue
		}
		for _, a := range cmd.Argv[1:] {
			if !strings.HasPrefix(a, "-") && !strings.HasPrefix(path.Clean(a)+"/", deviceTemp+"/") {
				iv.flag(Destructive, "adb shell "+cmd.Argv[0]+" deletes on a device that may be a phone, outside its temp dir "+deviceTemp+": "+a)
				return
			}
		}
	}
}

// deviceTemp is an Android device's temp dir, where adb push puts what a
// test run installs or runs, and removes again.
const deviceTemp = "/data/local/tmp"
