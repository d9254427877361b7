//go:build !unix

package kifu

import "time"

// cpuUsed is not available here; the benchmarks then report wall time only.
func cpuUsed() time.Duration { return 0 }
