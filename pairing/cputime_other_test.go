//go:build !linux

package pairing

import "time"

// cpuTime is not measured off Linux: the reports show 0.
func cpuTime() time.Duration { return 0 }
