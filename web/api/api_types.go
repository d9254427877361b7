package api

import "time"

// The public API's response and request bodies (issue 15, docs/api.md).
// Field names are stable snake_case; times are RFC 3339 in UTC; ids are
// numbers. The OpenAPI document (api_openapi.go) is generated from these
// types, so a field added here is documented at once; tags:
//
//	json:"…"           the field's name; omitempty makes it optional
//	doc:"…"            its description
//	format:"date"      a civil date YYYY-MM-DD (time.Time fields are date-time)
//	enum:"a,b"         the values it takes
//	enum:"@name"       the values of the code's list apiEnums[name]
//
// A pointer is nullable (JSON null), never absent.

// APIError is every error answer: {"error": {"code": …, "message": …}}.
type APIError struct {
	Error APIErrorBody `json:"error"`
}

// APIErrorBody says what went wrong; message is in the request's language.
type APIErrorBody struct {
	Code    string            `json:"code" doc:"stable machine-readable code, e.g. not_found, stale, invalid"`
	Message string            `json:"message" doc:"human-readable, in the language of Accept-Language (Japanese by default)"`
	Fields  []APIFieldError   `json:"fields,omitempty" doc:"the fields that are wrong (code invalid)"`
	Current *APIResultInForce `json:"current,omitempty" doc:"the game as it stands now (code stale)"`
	Retry   *int              `json:"retry_after,omitempty" doc:"seconds to wait (code rate_limited)"`
	Plies   *int              `json:"plies,omitempty" doc:"the moves the record has now (code stale_record)"`
}

// APIFieldError names one wrong field of a request.
type APIFieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// APIResultInForce is a stale write's answer: what the game holds now.
type APIResultInForce struct {
	GameID  int64             `json:"game_id"`
	Version int               `json:"version" doc:"the newest result version; send it back to write again"`
	InForce *APIResultVersion `json:"in_force" doc:"the result in force (null: none)"`
}

// APIOrganiser is an organiser of at least one public event.
type APIOrganiser struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	NameEn string `json:"name_en" doc:"English name; empty when none was given"`
}

// APIOrganiserList is one page of organisers.
type APIOrganiserList struct {
	Items      []APIOrganiser `json:"items"`
	NextCursor *string        `json:"next_cursor" doc:"pass as ?cursor= for the next page; null on the last page"`
}

// APIEvent is one event.
type APIEvent struct {
	ID          int64  `json:"id"`
	OrganiserID int64  `json:"organiser_id"`
	Name        string `json:"name"`
	NameEn      string `json:"name_en"`
	Kind        string `json:"kind" doc:"knockout, league, junisen_term, …; day for an amateur tournament day (its classes under /events/{id}/day, its final knockouts under /events/{id}/stages)"`
	StartDate   string `json:"start_date" format:"date"`
	EndDate     string `json:"end_date" format:"date"`
	Venue       string `json:"venue"`
	Status      string `json:"status" enum:"draft,published,finished" doc:"draft only for a read_drafts token"`
	URL         string `json:"url" doc:"the event's page"`
}

// APIEventList is one page of events, newest start first.
type APIEventList struct {
	Items      []APIEvent `json:"items"`
	NextCursor *string    `json:"next_cursor"`
}

// APIPlayerRef names a player where a game or table mentions one.
type APIPlayerRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// APIEntrant is one side of a bracket game: a player, or a place not
// known yet (a qualifier of an earlier stage, a bye).
type APIEntrant struct {
	PlayerID *int64 `json:"player_id" doc:"null while the place is not a known player"`
	Name     string `json:"name" doc:"the player's name; empty while unknown or a bye"`
}

// APIBracketGame is one game of a knockout bracket.
type APIBracketGame struct {
	ID             string        `json:"id" doc:"the bracket position, e.g. R2-G3, 3P"`
	Round          int           `json:"round"`
	RoundName      string        `json:"round_name" enum:"numbered,quarter_final,semi_final,final,qualifying_final,third_place" doc:"what staff call the round, by its distance from the end of the stage"`
	RoundLabel     string        `json:"round_label" doc:"the round's name for people, in the request's language (決勝, 準決勝 … / Final, Semi-final …)"`
	Index          int           `json:"index"`
	Players        []APIEntrant  `json:"players" doc:"two sides, in bracket order"`
	Status         string        `json:"status" enum:"pending,ready,done,walkover,empty"`
	Winner         *APIEntrant   `json:"winner"`
	Forfeit        bool          `json:"forfeit" doc:"decided without play (不戦)"`
	GameID         *int64        `json:"game_id" doc:"the first game of its redo chain; null when none was created"`
	DecidingGameID *int64        `json:"deciding_game_id" doc:"the chain's last game: where the result is entered"`
	Sente          *APIPlayerRef `json:"sente"`
	Gote           *APIPlayerRef `json:"gote"`
	Result         string        `json:"result" doc:"result in force of the deciding game; empty when none"`
	Reason         string        `json:"reason"`
	Redos          int           `json:"redos" doc:"redo games (千日手 / 持将棋) so far"`
	ScheduledOn    string        `json:"scheduled_on" doc:"YYYY-MM-DD or empty"`
	Handicap       string        `json:"handicap"`
	Version        int           `json:"version" doc:"the deciding game's newest result version"`
}

// APIStage is one published knockout stage with results applied.
type APIStage struct {
	ID         int64              `json:"id"`
	Name       string             `json:"name"`
	NameEn     string             `json:"name_en"`
	Kind       string             `json:"kind"`
	Status     string             `json:"status"`
	BestOf     int                `json:"best_of" doc:"games of a title match (0: single games)"`
	Rounds     [][]APIBracketGame `json:"rounds"`
	ThirdPlace *APIBracketGame    `json:"third_place"`
	Champion   *APIEntrant        `json:"champion"`
	Finished   bool               `json:"finished"`
	CSVURL     string             `json:"csv_url"`
}

// APIStageList is an event's stages.
type APIStageList struct {
	EventID int64      `json:"event_id"`
	Items   []APIStage `json:"items"`
}

// APIClass is one league class of an event.
type APIClass struct {
	ID      int64  `json:"id"`
	EventID int64  `json:"event_id"`
	Class   string `json:"class" doc:"the class's code, e.g. A, B1, C2"`
	Status  string `json:"status"`
	Members int    `json:"members"`
	URL     string `json:"url" doc:"the API resource of the class"`
}

// APIClassList is an event's league classes.
type APIClassList struct {
	EventID int64      `json:"event_id"`
	Items   []APIClass `json:"items"`
}

// APILeagueCell is one player's round.
type APILeagueCell struct {
	Round      int    `json:"round"`
	Rest       bool   `json:"rest" doc:"抜け番: no game this round"`
	OpponentID *int64 `json:"opponent_id"`
	Sente      bool   `json:"sente" doc:"the player is sente in the scheduled game"`
	Result     string `json:"result" enum:",win,loss,both_lose" doc:"empty while undecided"`
	GameID     *int64 `json:"game_id" doc:"the scheduled game; null before publication"`
	Date       string `json:"date" doc:"YYYY-MM-DD or empty"`
}

// APIStandingRow is one player's line of the table, in 順位 order.
type APIStandingRow struct {
	Place    int             `json:"place"`
	Junni    int             `json:"junni" doc:"this term's 順位, 1 = top"`
	Player   APIPlayerRef    `json:"player"`
	Wins     int             `json:"wins"`
	Losses   int             `json:"losses"`
	Rests    int             `json:"rests"`
	Unplayed int             `json:"unplayed"`
	Points   int             `json:"points" doc:"降級点 held (before the term until the term's marks are decided)"`
	Outcome  string          `json:"outcome" doc:"promotion or demotion mark once shown; empty otherwise"`
	Marks    string          `json:"marks" enum:"hidden,provisional,decided"`
	Cells    []APILeagueCell `json:"cells"`
}

// APIRound is one round of a class's schedule.
type APIRound struct {
	Number int    `json:"number"`
	Date   string `json:"date" doc:"YYYY-MM-DD or empty"`
}

// APIClassDetail is a class with its schedule and standings.
type APIClassDetail struct {
	ID        int64            `json:"id"`
	EventID   int64            `json:"event_id"`
	Class     string           `json:"class"`
	Status    string           `json:"status"`
	Final     bool             `json:"final" doc:"every scheduled game is decided"`
	Rounds    []APIRound       `json:"rounds"`
	Standings []APIStandingRow `json:"standings"`
	URL       string           `json:"url" doc:"the class's page"`
}

// APIResultVersion is one version of a game's result.
type APIResultVersion struct {
	Version      int        `json:"version"`
	Result       string     `json:"result" enum:"sente_win,gote_win,redo,both_lose,pending"`
	Reason       string     `json:"reason"`
	Note         string     `json:"note"`
	EnteredBy    string     `json:"entered_by" doc:"who entered it; empty when both players reported it themselves (entered_via players_report)"`
	EnteredVia   string     `json:"entered_via" doc:"the API token it came through; players_report for the players' own report (entered_by then names the desk member who confirmed one player's report, or is empty); empty for the web"`
	EnteredAt    time.Time  `json:"entered_at"`
	Confirmed    bool       `json:"confirmed"`
	ConfirmedAt  *time.Time `json:"confirmed_at"`
	ConfirmedVia string     `json:"confirmed_via" doc:"the API token the confirmation came through; empty for the web or unconfirmed"`
	InForce      bool       `json:"in_force" doc:"this version is the result in force"`
}

// APIGameSummary is one game of an event's list.
type APIGameSummary struct {
	ID          int64         `json:"id"`
	EventID     int64         `json:"event_id"`
	Label       string        `json:"label"`
	Sente       *APIPlayerRef `json:"sente"`
	Gote        *APIPlayerRef `json:"gote"`
	ScheduledOn string        `json:"scheduled_on" doc:"YYYY-MM-DD or empty"`
	RedoOf      *int64        `json:"redo_of" doc:"the game this one replays"`
	Void        bool          `json:"void" doc:"made void by a correction"`
	Result      string        `json:"result" doc:"result in force; empty when none"`
	Reason      string        `json:"reason"`
	Version     int           `json:"version" doc:"newest result version (0: none)"`
}

// APIGameList is one page of an event's games, in id order.
type APIGameList struct {
	Items      []APIGameSummary `json:"items"`
	NextCursor *string          `json:"next_cursor"`
}

// APIGameLinks are the game's other forms.
type APIGameLinks struct {
	HTML string `json:"html"`
	KIF  string `json:"kif"`
	CSA  string `json:"csa"`
	USI  string `json:"usi"`
}

// APIGame is one game with the result in force and its history.
type APIGame struct {
	ID          int64              `json:"id"`
	EventID     int64              `json:"event_id"`
	Label       string             `json:"label"`
	Sente       *APIPlayerRef      `json:"sente"`
	Gote        *APIPlayerRef      `json:"gote"`
	Handicap    string             `json:"handicap"`
	ScheduledOn string             `json:"scheduled_on" doc:"YYYY-MM-DD or empty"`
	RedoOf      *int64             `json:"redo_of"`
	RedoNumber  int                `json:"redo_number"`
	Redos       []int64            `json:"redos" doc:"the redo games that replay this one"`
	Version     int                `json:"version" doc:"newest result version (0: none); send it with a write"`
	Result      *APIResultVersion  `json:"result" doc:"the result in force; null when none"`
	History     []APIResultVersion `json:"history" doc:"every result version, oldest first"`
	Plies       int                `json:"plies" doc:"moves in the newest record"`
	Moves       []string           `json:"moves" doc:"the newest record's moves in USI"`
	StartSFEN   string             `json:"start_sfen"`
	Links       APIGameLinks       `json:"links"`
}

// APIPlayer is a player's public fields (those of the player page).
type APIPlayer struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Reading     string `json:"reading" doc:"よみ"`
	Kind        string `json:"kind"`
	Rank        string `json:"rank"`
	Class       string `json:"class" doc:"順位戦 class, empty when none"`
	Affiliation string `json:"affiliation"`
	Number      string `json:"number" doc:"federation number, empty when none"`
	BirthDate   string `json:"birth_date" doc:"as the player page shows it; empty when unknown"`
	URL         string `json:"url"`
}

// APIPlayerList is one page of players, by reading.
type APIPlayerList struct {
	Items      []APIPlayer `json:"items"`
	NextCursor *string     `json:"next_cursor"`
}

// APIRating is one line of the rating list.
type APIRating struct {
	Place      int          `json:"place"`
	Player     APIPlayerRef `json:"player"`
	Rating     float64      `json:"rating"`
	RD         float64      `json:"rd" doc:"rating deviation"`
	Games      int          `json:"games"`
	Wins       int          `json:"wins"`
	Losses     int          `json:"losses"`
	LastPlayed *time.Time   `json:"last_played"`
}

// APIRatingList is one page of the rating list, highest first.
type APIRatingList struct {
	Items      []APIRating `json:"items"`
	NextCursor *string     `json:"next_cursor"`
}

// APIResultInput enters a result (the game page's end form).
type APIResultInput struct {
	Version        int    `json:"version" doc:"the newest result version you saw (0: none)"`
	Kind           string `json:"kind" enum:"@ending" doc:"how the game ended (the game page's end form): resign 投了, mate 詰み, time_forfeit 時間切れ, sennichite 千日手, jishogi_agreement 持将棋, declaration 入玉宣言, max_moves 500手, forfeit 不戦, foul 反則, arbiter_foul_loss 立会人の反則負け宣告"`
	By             string `json:"by,omitempty" enum:",sente,gote" doc:"who resigned, lost on time, fouled, declared or forfeited"`
	BothAbsent     bool   `json:"both_absent,omitempty"`
	Foul           string `json:"foul,omitempty"`
	NoTimeLeft     bool   `json:"no_time_left,omitempty"`
	PointsSente    string `json:"points_sente,omitempty"`
	PointsGote     string `json:"points_gote,omitempty"`
	RemainingSente string `json:"remaining_sente,omitempty" doc:"minutes"`
	RemainingGote  string `json:"remaining_gote,omitempty" doc:"minutes"`
	Note           string `json:"note,omitempty"`
	FutureOK       bool   `json:"future_ok,omitempty" doc:"enter it although the game is scheduled after today"`
}

// APIRecordInput saves a whole record.
type APIRecordInput struct {
	Text       string `json:"text" doc:"the record in KIF, KI2, CSA or USI"`
	Format     string `json:"format,omitempty" enum:",kif,ki2,csa,usi" doc:"empty detects it"`
	AcceptFoul bool   `json:"accept_foul,omitempty"`
}

// APIMoveInput appends one move to the newest record.
type APIMoveInput struct {
	Plies int    `json:"plies" doc:"the moves the record has now (the move appended is number plies+1)"`
	Move  string `json:"move" doc:"USI, e.g. 7g7f"`
}

// APIConfirmInput confirms a result version.
type APIConfirmInput struct {
	Version int `json:"version" doc:"the result version to confirm: the game's newest, as you saw it"`
}

// APIRulingInput files a ruling.
type APIRulingInput struct {
	Version      int    `json:"version"`
	Kind         string `json:"kind" enum:"@ruling" doc:"the measure (対局規程 第11条第5項)"`
	Player       string `json:"player,omitempty" enum:",sente,gote"`
	DeltaMinutes string `json:"delta_minutes,omitempty"`
	Reason       string `json:"reason"`
	Supersedes   int64  `json:"supersedes,omitempty"`
}

// APIRecordSaved answers a record write.
type APIRecordSaved struct {
	GameID  int64    `json:"game_id"`
	Version int      `json:"version" doc:"the record version written"`
	Plies   int      `json:"plies"`
	Moves   []string `json:"moves"`
}

// APIRulingSaved answers a ruling.
type APIRulingSaved struct {
	ID     int64 `json:"id"`
	GameID int64 `json:"game_id"`
}
