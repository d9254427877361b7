package office

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/unicode/norm"

	"kisen/store"
)

// Form fields and CSV columns of a player; FieldError.Field uses them.
const (
	PlayerFieldID          = "id"
	PlayerFieldNumber      = "number"
	PlayerFieldName        = "name"
	PlayerFieldReading     = "reading"
	PlayerFieldKind        = "kind"
	PlayerFieldRank        = "rank"
	PlayerFieldClass       = "class"
	PlayerFieldAffiliation = "affiliation"
	PlayerFieldBirthDate   = "birth_date"
	// the 席次 facts (docs/seating.md): form fields and optional CSV columns
	SeatFieldTitles    = "titles"
	SeatFieldRankSince = "rank_since"
	SeatFieldProSince  = "pro_since"
)

// Message ids of player validation errors (web/site/locales/*/players.json).
const (
	codePlayerRequired      = "players.err.required"
	codePlayerTooLong       = "players.err.too_long"
	codePlayerControl       = "players.err.control"
	codePlayerReadingKana   = "players.err.reading_kana"
	codePlayerKind          = "players.err.kind"
	codePlayerRankFormat    = "players.err.rank_format"
	codePlayerRankKind      = "players.err.rank_kind"
	codePlayerClass         = "players.err.class"
	codePlayerClassNotPro   = "players.err.class_not_professional"
	codePlayerNumberFormat  = "players.err.number_format"
	codePlayerNumberTaken   = "players.err.number_taken"
	codePlayerDateFormat    = "players.err.date_format"
	codePlayerBirthInFuture = "players.err.birth_future"
)

// playerMaxLen bounds free-text fields (characters, not bytes).
const playerMaxLen = 60

// PlayerInput is a player as typed into the form or a CSV row.
type PlayerInput struct {
	Number      string
	Name        string `field:"name" validate:"nocontrol,storable,required,max=60" msg:"players.err"`
	Reading     string `field:"reading" validate:"nocontrol,storable,required,max=60" msg:"players.err"`
	Kind        string `field:"kind" validate:"notblank" msg:"players.err"`
	Rank        string
	Class       string
	Affiliation string `field:"affiliation" validate:"nocontrol,storable,max=60" msg:"players.err"`
	BirthDate   string
	// Seat, when set, writes the player's 席次 facts (docs/seating.md) in the
	// same transaction; nil leaves them as they are (the CSV import).
	Seat *SeatFactsInput
}

// SeatFactsInput are a player's 席次 facts as typed: the titles held,
// comma separated (竜王,名人), the day of promotion to the present 段 and
// the day of becoming professional (YYYY-MM-DD, empty for unknown).
type SeatFactsInput struct {
	Titles    string `field:"titles" validate:"nocontrol,storable,max=200" msg:"players.err"`
	RankSince string
	ProSince  string
}

// seatFactsOf checks a SeatFactsInput: each title a name (no empty ones
// between commas), each day a date not after today.
func seatFactsOf(ve *ValidationError, line int, in SeatFactsInput, today store.CivilDate) (titles string, rankSince, proSince store.CivilDate) {
	var names []string
	for _, t := range strings.FieldsFunc(norm.NFKC.String(in.Titles), func(r rune) bool { return r == ',' || r == '、' }) {
		if t = strings.TrimSpace(t); t != "" {
			names = append(names, t)
		}
	}
	titles = strings.Join(names, ",")
	day := func(field, s string) store.CivilDate {
		d, ok := ParsePlayerDate(s)
		switch {
		case !ok:
			ve.Add(line, field, codePlayerDateFormat, nil)
		case !d.IsZero() && d.After(today):
			ve.Add(line, field, "players.err.seat_date_future", nil)
		}
		return d
	}
	return titles, day(SeatFieldRankSince, in.RankSince), day(SeatFieldProSince, in.ProSince)
}

// playerTokyo is the zone the federation's calendar runs in (no DST).
var playerTokyo = time.FixedZone("JST", 9*60*60)

// playerToday is the calendar day in Japan at now.
func playerToday(now time.Time) store.CivilDate { return store.CivilDateOf(now.In(playerTokyo)) }

var playerKindAliases = map[string]store.PlayerKind{
	"professional": store.PlayerProfessional, "棋士": store.PlayerProfessional, "プロ": store.PlayerProfessional,
	"womens": store.PlayerWomens, "女流棋士": store.PlayerWomens, "女流": store.PlayerWomens,
	"shoreikai": store.PlayerShoreikai, "奨励会": store.PlayerShoreikai, "奨励会員": store.PlayerShoreikai,
	"amateur": store.PlayerAmateur, "アマ": store.PlayerAmateur, "アマチュア": store.PlayerAmateur,
}

// ParsePlayerKind accepts the stored code or the Japanese name.
func ParsePlayerKind(s string) (store.PlayerKind, bool) {
	k, ok := playerKindAliases[strings.ToLower(strings.TrimSpace(norm.NFKC.String(s)))]
	return k, ok
}

var playerClassAliases = map[string]store.PlayerClass{
	"": store.PlayerClassNone, "なし": store.PlayerClassNone, "NONE": store.PlayerClassNone,
	"A": store.PlayerClassA, "A級": store.PlayerClassA,
	"B1": store.PlayerClassB1, "B級1組": store.PlayerClassB1,
	"B2": store.PlayerClassB2, "B級2組": store.PlayerClassB2,
	"C1": store.PlayerClassC1, "C級1組": store.PlayerClassC1,
	"C2": store.PlayerClassC2, "C級2組": store.PlayerClassC2,
	"FREE": store.PlayerClassFree, "フリークラス": store.PlayerClassFree, "FC": store.PlayerClassFree,
}

// ParsePlayerClass accepts A, B1, B2, C1, C2, FREE (any case, full or
// half width) or the Japanese names (A級, B級1組, …, フリークラス).
func ParsePlayerClass(s string) (store.PlayerClass, bool) {
	c, ok := playerClassAliases[strings.ToUpper(strings.TrimSpace(norm.NFKC.String(s)))]
	return c, ok
}

var playerNumberPattern = regexp.MustCompile(`^[0-9A-Za-z-]{1,20}$`)

// NormaliseReading folds a よみ to hiragana with single spaces; ok is false
// when anything but kana, ー, ・ and spaces is left.
func NormaliseReading(s string) (string, bool) {
	s = strings.Join(strings.Fields(norm.NFKC.String(s)), " ")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'ァ' && r <= 'ヶ', r == 'ヽ', r == 'ヾ':
			r -= 0x60
		case r >= 'ぁ' && r <= 'ゖ', r == 'ゝ', r == 'ゞ', r == 'ー', r == '・', r == ' ':
		default:
			return s, false
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// ParsePlayerDate reads YYYY-MM-DD, also YYYY/M/D as spreadsheets write it.
func ParsePlayerDate(s string) (store.CivilDate, bool) {
	s = strings.TrimSpace(norm.NFKC.String(s))
	if s == "" {
		return store.CivilDate{}, true
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '/' })
	if len(parts) != 3 || len(parts[0]) != 4 || len(parts[1]) > 2 || len(parts[2]) > 2 {
		return store.CivilDate{}, false
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return store.CivilDate{}, false
		}
		n[i] = v
	}
	d := store.NewCivilDate(n[0], time.Month(n[1]), n[2])
	// time.Date normalises 2月30日 to March; such a day does not exist.
	if y, m, dd := d.Time().Date(); y != n[0] || int(m) != n[1] || dd != n[2] || y < 1 {
		return store.CivilDate{}, false
	}
	return d, true
}

// validatePlayer checks every field of in and returns the player it
// describes (ID, timestamps and number uniqueness are the caller's). Every
// problem is added to ve with line (0 for forms).
func validatePlayer(ve *ValidationError, line int, in PlayerInput, today store.CivilDate) store.Player {
	var p store.Player
	// Names are stored in NFC (issue 11), whether typed, imported or given
	// on the command line; tabs and line breaks (nocontrol) would break the
	// CSV round trip and the pages.
	in.Name, in.Reading, in.Affiliation = NFC(strings.TrimSpace(in.Name)), NFC(strings.TrimSpace(in.Reading)), NFC(strings.TrimSpace(in.Affiliation))
	failed := checkInputFields(ve, line, &in)
	p.Name, p.Affiliation = in.Name, in.Affiliation
	// domain rule, not a tag: a よみ is kana (folded to hiragana), the kind
	// one of its names, the rank of the rank grammar and fitting the kind,
	// 順位戦 classes for 棋士 only, the birth date as spreadsheets write it
	// and not in the future, the federation number's pattern.
	if r := in.Reading; !failed[PlayerFieldReading] {
		if folded, ok := NormaliseReading(r); ok {
			p.Reading = folded
		} else {
			ve.Add(line, PlayerFieldReading, codePlayerReadingKana, nil)
		}
	}
	kind, kindOK := ParsePlayerKind(in.Kind)
	switch {
	case failed[PlayerFieldKind]:
	case !kindOK:
		ve.Add(line, PlayerFieldKind, codePlayerKind, nil)
	default:
		p.Kind = kind
	}
	if strings.TrimSpace(in.Rank) == "" {
		// Amateurs may have no rank; everyone else has one.
		if kindOK && kind != store.PlayerAmateur {
			ve.Add(line, PlayerFieldRank, codePlayerRequired, nil)
		}
	} else if r, err := ParseRank(in.Rank); err != nil {
		ve.Add(line, PlayerFieldRank, codePlayerRankFormat, nil)
	} else if kindOK && !r.FitsKind(kind) {
		ve.Add(line, PlayerFieldRank, codePlayerRankKind, map[string]any{"Rank": r.String()})
	} else {
		p.Rank = r.String()
	}
	if c, ok := ParsePlayerClass(in.Class); !ok {
		ve.Add(line, PlayerFieldClass, codePlayerClass, nil)
	} else if c != store.PlayerClassNone && kindOK && kind != store.PlayerProfessional {
		// 順位戦 is played by 棋士 only (DOMAIN "People and roles").
		ve.Add(line, PlayerFieldClass, codePlayerClassNotPro, nil)
	} else {
		p.Class = c
	}
	if d, ok := ParsePlayerDate(in.BirthDate); !ok {
		ve.Add(line, PlayerFieldBirthDate, codePlayerDateFormat, nil)
	} else if !d.IsZero() && d.After(today) {
		ve.Add(line, PlayerFieldBirthDate, codePlayerBirthInFuture, nil)
	} else {
		p.BirthDate = d
	}
	if n := strings.TrimSpace(norm.NFKC.String(in.Number)); n != "" {
		if !playerNumberPattern.MatchString(n) {
			ve.Add(line, PlayerFieldNumber, codePlayerNumberFormat, nil)
		} else {
			p.Number = &n
		}
	}
	return p
}
