package adjudication

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Duration is a time.Duration that reads and writes JSON as Go duration
// text ("6h", "1h30m0s", "45s"); a bare JSON number is taken as seconds.
type Duration time.Duration

// D is the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String is Go's duration text.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON writes the duration text.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads "1h30m" or a number of seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration (write e.g. \"6h\", \"1h30m\", \"45s\")", s)
		}
		*d = Duration(v)
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("%s is not a duration (a string like \"1h30m\" or a number of seconds)", b)
	}
	const limit = float64(1<<63-1) / float64(time.Second)
	if f > limit || f < -limit {
		return fmt.Errorf("%s seconds is out of range", b)
	}
	*d = Duration(f * float64(time.Second))
	return nil
}
