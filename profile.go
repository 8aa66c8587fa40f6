package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
)

// profile starts what the environment asks for, for measuring tend as it
// runs under a benchmark's load, and returns the function that stops it and
// writes the files; it does nothing when neither variable is set.
//
//	TEND_PROFILE=DIR  cpu.pprof and allocs.pprof in DIR (allocations from
//	                  start to exit, sampled at the runtime's default rate:
//	                  go tool pprof -sample_index=alloc_space)
//	TEND_TRACE=FILE   an execution trace (go tool trace FILE): where a
//	                  call's goroutines ran, waited and woke
func profile(stderr *os.File) (stop func()) {
	dir, tr := os.Getenv("TEND_PROFILE"), os.Getenv("TEND_TRACE")
	var stops []func()
	fail := func(err error) { fmt.Fprintln(stderr, "tend: profile:", err) }
	if dir != "" {
		if f, err := os.Create(filepath.Join(dir, "cpu.pprof")); err != nil {
			fail(err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		} else {
			stops = append(stops, func() {
				pprof.StopCPUProfile()
				f.Close()
				if f, err := os.Create(filepath.Join(dir, "allocs.pprof")); err != nil {
					fail(err)
				} else {
					pprof.Lookup("allocs").WriteTo(f, 0)
					f.Close()
				}
			})
		}
	}
	if tr != "" {
		if f, err := os.Create(tr); err != nil {
			fail(err)
		} else if err := trace.Start(f); err != nil {
			fail(err)
		} else {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
