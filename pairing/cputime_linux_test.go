package pairing

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user + system) this process has used so far.
// On a shared, overloaded machine the wall time of a draw mostly measures
// the wait for a core; the CPU it used is what a quiet machine would take.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
