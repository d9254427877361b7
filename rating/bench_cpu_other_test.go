//go:build !unix

package rating

import "time"

// processCPU is unavailable here; benchmarks then report wall time only.
func processCPU() time.Duration { return 0 }
