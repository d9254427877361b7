package store

import (
	"context"
	"fmt"
	"time"
)

// APIRateLimit is one client address's place in the API's rate limit
// (migration 00145): TAT is the theoretical arrival time of its next
// request, in microseconds since the Unix epoch (GCRA).
type APIRateLimit struct {
	Client  string `gorm:"primaryKey"`
	TAT     int64  `gorm:"column:tat;not null"`
	Allowed bool   `gorm:"not null;default:true"`
}

// RateSpend takes one request of client at now under the generic cell
// rate algorithm — a token bucket refilled one request every `every`,
// holding burst — in one statement, so that every process sharing the
// database spends from the same bucket:
//
//	tat' = max(tat, now)
//	allowed  when tat' - now <= (burst-1)·every: tat = tat' + every
//	refused  otherwise: tat unchanged; retry after tat' - now - (burst-1)·every
//
// The upsert locks the client's row for the statement (PostgreSQL: the
// row lock of ON CONFLICT DO UPDATE; SQLite: the write lock), so two
// processes cannot both take the last request.
func (s *Store) RateSpend(ctx context.Context, client string, now time.Time, every time.Duration, burst int) (ok bool, retry time.Duration, err error) {
	t := now.UnixMicro()
	e := every.Microseconds()
	tol := int64(burst-1) * e
	greatest := "GREATEST"
	if s.dialect == SQLite {
		greatest = "MAX" // SQLite's scalar max
	}
	// Every SET sees the row as it was, so allowed and tat are decided
	// from the same old tat.
	allowedIf := greatest + `(api_rate_limits.tat, ?) - ? <= ?`
	q := `INSERT INTO api_rate_limits (client, tat, allowed) VALUES (?, ?, TRUE)
ON CONFLICT (client) DO UPDATE SET
    tat = CASE WHEN ` + allowedIf + ` THEN ` + greatest + `(api_rate_limits.tat, ?) + ? ELSE api_rate_limits.tat END,
    allowed = (` + allowedIf + `)
RETURNING tat, allowed`
	var tat int64
	if err := s.DB(ctx).Raw(q, client, t+e, t, t, tol, t, e, t, t, tol).Row().Scan(&tat, &ok); err != nil {
		return false, 0, notFound(err, fmt.Sprintf("rate spend %s", client))
	}
	if ok {
		return true, 0, nil
	}
	return false, time.Duration(tat-t-tol) * time.Microsecond, nil
}

// PruneRateLimits deletes rows whose bucket is full again at now: they say
// nothing an absent row does not.
func (s *Store) PruneRateLimits(ctx context.Context, now time.Time) error {
	return notFound(s.DB(ctx).Where("tat < ?", now.UnixMicro()).Delete(&APIRateLimit{}).Error, "prune rate limits")
}
