//go:build unix

package rating

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the test process has used, so benchmarks can
// report it beside wall time: on a shared, busy machine wall time mostly
// measures the neighbours.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
