package store

import (
	"database/sql/driver"
	"fmt"
	"time"
)

// CivilDate is a calendar day with no time of day and no zone (a birth
// date, the first day of a 師匠 period). The zero value means "no date" and
// is stored as NULL. It is written as YYYY-MM-DD text (SQLite) or DATE
// (PostgreSQL); both compare in calendar order.
type CivilDate struct {
	t time.Time // midnight UTC of the day; zero when unset
}

// civilLayout is the one textual form of a CivilDate.
const civilLayout = "2006-01-02"

// NewCivilDate returns the day y-m-d (normalised like time.Date).
func NewCivilDate(y int, m time.Month, d int) CivilDate {
	return CivilDate{t: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
}

// CivilDateOf returns the calendar day of t in t's own location, so a draw
// at 00:30 JST on 1 April is 1 April.
func CivilDateOf(t time.Time) CivilDate {
	if t.IsZero() {
		return CivilDate{}
	}
	y, m, d := t.Date()
	return NewCivilDate(y, m, d)
}

// ParseCivilDate reads YYYY-MM-DD; "" gives the zero date.
func ParseCivilDate(s string) (CivilDate, error) {
	if s == "" {
		return CivilDate{}, nil
	}
	t, err := time.Parse(civilLayout, s)
	if err != nil {
		return CivilDate{}, fmt.Errorf("date %q is not YYYY-MM-DD", s)
	}
	if t.Year() < 1 {
		return CivilDate{}, fmt.Errorf("date %q is out of range", s)
	}
	return CivilDate{t: t}, nil
}

// IsZero reports whether the date is unset.
func (d CivilDate) IsZero() bool { return d.t.IsZero() }

// String is YYYY-MM-DD, or "" for the zero date.
func (d CivilDate) String() string {
	if d.IsZero() {
		return ""
	}
	return d.t.Format(civilLayout)
}

// Time is midnight UTC of the day.
func (d CivilDate) Time() time.Time { return d.t }

// Before reports whether d is an earlier day than e.
func (d CivilDate) Before(e CivilDate) bool { return d.t.Before(e.t) }

// After reports whether d is a later day than e.
func (d CivilDate) After(e CivilDate) bool { return d.t.After(e.t) }

// AddDays moves the date by n days.
func (d CivilDate) AddDays(n int) CivilDate { return CivilDate{t: d.t.AddDate(0, 0, n)} }

// Value stores the date as YYYY-MM-DD text, NULL when zero.
func (d CivilDate) Value() (driver.Value, error) {
	if d.IsZero() {
		return nil, nil
	}
	return d.String(), nil
}

// Scan reads a date from text (SQLite) or a time (PostgreSQL DATE).
func (d *CivilDate) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d = CivilDate{}
		return nil
	case time.Time:
		*d = NewCivilDate(v.Year(), v.Month(), v.Day())
		return nil
	case string:
		return d.scanText(v)
	case []byte:
		return d.scanText(string(v))
	}
	return fmt.Errorf("scan date from %T", src)
}

func (d *CivilDate) scanText(s string) error {
	if len(s) > len(civilLayout) {
		s = s[:len(civilLayout)]
	}
	p, err := ParseCivilDate(s)
	if err != nil {
		return err
	}
	*d = p
	return nil
}
