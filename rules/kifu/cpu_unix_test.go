//go:build unix

package kifu

import (
	"syscall"
	"time"
)

// cpuUsed is the user+system CPU time of the test process so far. On a
// shared machine wall time mostly measures the other jobs; CPU time
// measures the code (GC work on other threads included).
func cpuUsed() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
