package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
)

// The day's paper and the players' own report (migration 00130,
// docs/amateur-day-paper.md).

// DayClassPaper is a class's paper settings; a class without a row has QR
// slips off and a 10-minute wait.
type DayClassPaper struct {
	ClassID     int64 `gorm:"primaryKey;autoIncrement:false"`
	QR          bool  `gorm:"column:qr;not null;default:false"`
	WaitMinutes int   `gorm:"not null;default:10"`
	UpdatedBy   int64 `gorm:"not null"`
	UpdatedAt   time.Time
}

// TableName keeps the migration's singular name.
func (DayClassPaper) TableName() string { return "day_class_paper" }

// DayReportLink is the hashed secret of a board's slip as 00130 issued it
// (one link for both players). Since 00160 no link is issued and a token
// found here answers that the slip is out of date; nothing is reported.
type DayReportLink struct {
	GameID    int64  `gorm:"primaryKey;autoIncrement:false"`
	TokenHash string `gorm:"not null"`
	IssuedBy  int64  `gorm:"not null"`
	IssuedAt  time.Time
}

// DayReport is one player's report of who won (append-only). OwnSecret
// marks a report made through the player's own secret (00160); the
// single board links of 00130 let one phone report as either player, so
// their reports do not count towards an agreement.
type DayReport struct {
	ID         int64 `gorm:"primaryKey"`
	GameID     int64 `gorm:"not null"`
	ReporterID int64 `gorm:"not null"`
	WinnerID   int64 `gorm:"not null"`
	ResultID   *int64
	At         time.Time
	OwnSecret  bool `gorm:"not null;default:false"`
}

// DayReportSecret is the hashed secret of one player of a board (00160):
// it reports only as PlayerID.
type DayReportSecret struct {
	GameID    int64  `gorm:"primaryKey;autoIncrement:false"`
	PlayerID  int64  `gorm:"primaryKey;autoIncrement:false"`
	TokenHash string `gorm:"not null"`
	IssuedBy  int64  `gorm:"not null"`
	IssuedAt  time.Time
}

// DayReportResult says where a result version the players reported came
// from (00160, append-only): the agreeing reports of both players, or one
// player's report and the desk member who confirmed it.
type DayReportResult struct {
	ID            int64 `gorm:"primaryKey"`
	ResultID      int64 `gorm:"not null;uniqueIndex"`
	GameID        int64 `gorm:"not null"`
	SenteReportID *int64
	GoteReportID  *int64
	ConfirmedBy   *int64
	At            time.Time
}

// DayReportMiss is one wrong token, for the rate limit.
type DayReportMiss struct {
	ID int64  `gorm:"primaryKey"`
	IP string `gorm:"column:ip;not null"`
	At time.Time
}

// DayPaperOfClasses reads the paper settings of classes (one statement);
// a class without settings is missing from the map.
func (s *Store) DayPaperOfClasses(ctx context.Context, ids []int64) (map[int64]DayClassPaper, error) {
	out := map[int64]DayClassPaper{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []DayClassPaper
	err := s.DB(ctx).Where("class_id IN ?", ids).Find(&rows).Error
	for _, r := range rows {
		out[r.ClassID] = r
	}
	return out, notFound(err, "day class paper")
}

// SaveDayPaper writes a class's paper settings (insert or replace).
func (s *Store) SaveDayPaper(ctx context.Context, p DayClassPaper) error {
	p.UpdatedAt = p.UpdatedAt.UTC()
	err := s.DB(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "class_id"}}, UpdateAll: true}).Create(&p).Error
	return notFound(err, "save day class paper")
}

// SaveDayReportLink stores a board's new token hash, replacing the one
// printed before.
func (s *Store) SaveDayReportLink(ctx context.Context, l DayReportLink) error {
	l.IssuedAt = l.IssuedAt.UTC()
	err := s.DB(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "game_id"}}, UpdateAll: true}).Create(&l).Error
	return notFound(err, "save day report link")
}

// DayReportLinkByHash finds the link of a token hash.
func (s *Store) DayReportLinkByHash(ctx context.Context, hash string) (DayReportLink, error) {
	var l DayReportLink
	err := s.DB(ctx).Where("token_hash = ?", hash).Take(&l).Error
	return l, notFound(err, "day report link")
}

// AddDayReport appends one player's report.
func (s *Store) AddDayReport(ctx context.Context, r *DayReport) error {
	r.At = r.At.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "add day report")
}

// DayReportsOfGame lists a board's reports in order.
func (s *Store) DayReportsOfGame(ctx context.Context, gameID int64) ([]DayReport, error) {
	var out []DayReport
	err := s.DB(ctx).Where("game_id = ?", gameID).Order("id").Find(&out).Error
	return out, notFound(err, fmt.Sprintf("day reports of game %d", gameID))
}

// DayReportsOfEvent lists every report of a day's boards (one statement).
func (s *Store) DayReportsOfEvent(ctx context.Context, eventID int64) ([]DayReport, error) {
	var out []DayReport
	err := s.DB(ctx).Where("game_id IN (SELECT id FROM games WHERE event_id = ?)", eventID).Order("id").Find(&out).Error
	return out, notFound(err, "day reports of event")
}

// RecordDayReportMiss counts one wrong token from ip and prunes misses
// older than before.
func (s *Store) RecordDayReportMiss(ctx context.Context, ip string, at, before time.Time) error {
	if err := s.DB(ctx).Where("at < ?", before.UTC()).Delete(&DayReportMiss{}).Error; err != nil {
		return notFound(err, "prune day report misses")
	}
	return notFound(s.DB(ctx).Create(&DayReportMiss{IP: ip, At: at.UTC()}).Error, "record day report miss")
}

// DayReportMisses counts the wrong tokens from ip after since.
func (s *Store) DayReportMisses(ctx context.Context, ip string, since time.Time) (int64, error) {
	var n int64
	err := s.DB(ctx).Model(&DayReportMiss{}).Where("ip = ? AND at > ?", ip, since.UTC()).Count(&n).Error
	return n, notFound(err, "count day report misses")
}

// ReplaceDayReportSecrets stores a board's new secrets, one per player,
// replacing those printed before (their slips stop working).
func (s *Store) ReplaceDayReportSecrets(ctx context.Context, gameID int64, secrets []DayReportSecret) error {
	if err := s.DB(ctx).Where("game_id = ?", gameID).Delete(&DayReportSecret{}).Error; err != nil {
		return notFound(err, "replace day report secrets")
	}
	for i := range secrets {
		secrets[i].IssuedAt = secrets[i].IssuedAt.UTC()
	}
	return notFound(s.DB(ctx).Create(&secrets).Error, "save day report secrets")
}

// DayReportSecretByHash finds the secret of a token hash.
func (s *Store) DayReportSecretByHash(ctx context.Context, hash string) (DayReportSecret, error) {
	var l DayReportSecret
	err := s.DB(ctx).Where("token_hash = ?", hash).Take(&l).Error
	return l, notFound(err, "day report secret")
}

// AddDayReportResult records where a reported result version came from.
func (s *Store) AddDayReportResult(ctx context.Context, r *DayReportResult) error {
	r.At = r.At.UTC()
	return notFound(s.DB(ctx).Create(r).Error, "add day report result")
}

// DayReportResultsOf reads the sources of result versions the players
// reported, by result id (one statement); others are missing.
func (s *Store) DayReportResultsOf(ctx context.Context, resultIDs []int64) (map[int64]DayReportResult, error) {
	out := map[int64]DayReportResult{}
	if len(resultIDs) == 0 {
		return out, nil
	}
	var rows []DayReportResult
	err := s.DB(ctx).Where("result_id IN ?", resultIDs).Find(&rows).Error
	for _, r := range rows {
		out[r.ResultID] = r
	}
	return out, notFound(err, "day report results")
}

// DayReportByID loads one report.
func (s *Store) DayReportByID(ctx context.Context, id int64) (DayReport, error) {
	var r DayReport
	err := s.DB(ctx).Where("id = ?", id).Take(&r).Error
	return r, notFound(err, fmt.Sprintf("day report %d", id))
}
