package store

// Models lists every gorm model; the migration parity test checks that each
// of their columns exists after migrating on each database. Add new models
// here.
func Models() []any {
	return []any{
		&AppSetting{},
		&Session{},
		&User{},
		&Player{},
		&PlayerMaster{},
		&LoginAttempt{},
		&Organiser{},
		&Event{},
		&EventStatusChange{},
		&EventRole{},
		&Game{},
		&GameResult{},
		&GameResultConfirmation{},
		&GameRecord{},
		&GameAdjudication{},
		&GameVoid{},   // migration 00044
		&Correction{}, // migration 00095
		&Ruling{},
		&APIToken{},     // migration 00115
		&APITokenUse{},  // migration 00115
		&APIRateLimit{}, // migration 00145
		&EventSettingsUnlock{},
		&EventSettingsChange{},
		&KnockoutStage{},
		&KnockoutEntrant{},
		&KnockoutGame{},
		&DrawLogEntry{},
		&LeagueClass{},
		&LeagueMember{},
		&LeagueHistory{},
		&LeagueGame{},
		&LeagueLogEntry{},
		&PlayerRelative{},    // migration 00061
		&LeaguePlayoffGame{}, // migration 00062
		// ratings (migration 00070)
		&PlayerRating{},
		&RatingHistoryEntry{},
		&RatingState{},
		// revisions of event pages (migration 00097)
		&EventChange{},
		&RegistryChange{},
		// the amateur day (migration 00100)
		&DayEvent{},
		&DayClass{},
		&DayEntrant{},
		&DayRound{},
		&DayPairing{},
		&DayLogEntry{},
		// the day's paper and self-report (migration 00130)
		&DayClassPaper{},
		&DayReportLink{},
		&DayReport{},
		&DayReportMiss{},
		// one secret per player, and where a reported result came from (00160)
		&DayReportSecret{},
		&DayReportResult{},
		&DayFinal{},
		// entries before the day (00175)
		&DayEntrySettings{},
		&DayEntry{},
		// 席次 overrides (00220)
		&SeatOverride{},
		&GameMove{}, &GameMoveUndo{}, &RecorderLink{}, // 00280
	}
}
