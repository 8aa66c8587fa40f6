package policy

// Simulators and emulators are devices made for testing on this machine:
// the apps on them are the project's own builds, installed again by the
// next run, and a simulator is erased and made again at will. Removing an
// app from one, stopping it or shutting the device down is ordinary work;
// erasing or deleting every simulator at once is not, nor removing an app
// from a phone (adb without an emulator), whose data is someone's.

// simctl is Xcode's simulator control (xcrun simctl): its verbs act on
// simulators, and erase all or delete all on every one of them.
func simctl(iv *inv) {
	iv.flag(Write, "")
	pos := positionals(iv.rest(1), "--set")
	switch v := at(pos, 0); {
	case v == unknownWord:
		iv.flag(Unparseable, "simctl verb computed at run time")
	case (v == "erase" || v == "delete") && (at(pos, 1) == "all" || at(pos, 1) == unknownWord):
		iv.flag(Destructive, "simctl "+v+" "+at(pos, 1)+" "+v+"s every simulator, with the apps and data on it")
	}
}

// onEmulator reports whether adb's options send it to an emulator (-e,
// -s emulator-5554, ANDROID_SERIAL=emulator-…), not a phone.
func (iv *inv) onEmulator(args []arg) bool {
	if iv.name != "adb" {
		return false
	}
	for i, a := range args {
		switch {
		case !a.ok:
		case a.s == "-e":
			return true
		case a.s == "-s" && i+1 < len(args) && args[i+1].ok && len(args[i+1].s) > 9 && args[i+1].s[:9] == "emulator-":
			return true
		}
	}
	return false
}
