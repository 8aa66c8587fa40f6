package app

import (
	"fmt"
	"os"
	"strconv"

	"tend/internal/supervisor"
)

// admitSupervisor says whether the process pid, which connected to the
// socket and speaks the supervisor protocol, may: only the person's tend
// attach may, which decides on held commands. It refuses a process of one
// of the engine's jobs (an agent's command must not approve the agent's
// commands) and a process that is not this tend's executable (a script
// started elsewhere). The errors wrap [supervisor.ErrRefused].
func (a *App) admitSupervisor(pid int) error {
	if a.Engine.Owns(pid) {
		return fmt.Errorf("%w (process %d is one of its jobs' or descends from one)", supervisor.ErrRefused, pid)
	}
	same, err := sameExecutable(pid)
	if err != nil {
		return fmt.Errorf("%w (cannot tell what process %d runs: %v)", supervisor.ErrRefused, pid, err)
	}
	if !same {
		exe, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
		return fmt.Errorf("%w (process %d runs %s, not this tend's executable; after replacing tend, restart tend serve)", supervisor.ErrRefused, pid, exe)
	}
	return nil
}

// sameExecutable reports whether process pid runs the same file as this
// process, by device and inode: /proc/<pid>/exe is the file itself even
// once its path was removed or replaced.
func sameExecutable(pid int) (bool, error) {
	theirs, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return false, err
	}
	ours, err := os.Stat("/proc/self/exe")
	if err != nil {
		return false, err
	}
	return os.SameFile(theirs, ours), nil
}
