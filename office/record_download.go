package office

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"kisen/rules"
	"kisen/rules/kifu"
	"kisen/store"
)

// keyByoyomi is the KIF header of the time per move once the allowance is
// used (Kakinoki's 秒読み; tsshogi reads it too). CSA keeps it as a comment.
const keyByoyomi = "秒読み"

// Record downloads (issue 15 part 5, docs/downloads.md): a game's record in
// force (its newest version) written as KIF (UTF-8 or Shift_JIS), CSA or a
// USI position, one game at a time or an event's or a stage's games as a
// set. The writers are rules/kifu's; nothing here writes a format itself.

// DownloadFormat is a format a record is offered in.
type DownloadFormat string

const (
	DownloadKIF     DownloadFormat = "kif"      // KIF in UTF-8 (file extension .kifu, Kakinoki's name for it)
	DownloadKIFSJIS DownloadFormat = "kif-sjis" // KIF in Shift_JIS (.kif), for older programs
	DownloadCSA     DownloadFormat = "csa"      // CSA V3.0, UTF-8
	DownloadUSI     DownloadFormat = "usi"      // a USI position command (sfen + moves)
)

// DownloadFormats lists the formats in the order the pages offer them.
var DownloadFormats = []DownloadFormat{DownloadKIF, DownloadKIFSJIS, DownloadCSA, DownloadUSI}

// ParseDownloadFormat reads a format name and a KIF charset ("" or utf-8,
// sjis / shift_jis); anything else is a field error naming format or
// charset.
func ParseDownloadFormat(format, charset string) (DownloadFormat, error) {
	v := &ValidationError{}
	f := DownloadFormat(strings.ToLower(strings.TrimSpace(format)))
	if f == "" {
		f = DownloadKIF
	}
	if !slices.Contains(DownloadFormats, f) {
		v.Add(0, "format", "downloads.err.format", nil)
		return "", v
	}
	switch strings.ToLower(strings.TrimSpace(charset)) {
	case "", "utf-8", "utf8":
	case "sjis", "shift_jis", "shift-jis", "cp932":
		if f != DownloadKIF && f != DownloadKIFSJIS {
			v.Add(0, "charset", "downloads.err.charset_kif_only", nil)
			return "", v
		}
		f = DownloadKIFSJIS
	default:
		v.Add(0, "charset", "downloads.err.charset", nil)
		return "", v
	}
	return f, nil
}

// Extension is the file extension the format is saved with.
func (f DownloadFormat) Extension() string {
	switch f {
	case DownloadKIF:
		return ".kifu"
	case DownloadKIFSJIS:
		return ".kif"
	case DownloadCSA:
		return ".csa"
	}
	return ".usi"
}

// ContentType is the media type sent with the file.
func (f DownloadFormat) ContentType() string {
	if f == DownloadKIFSJIS {
		return "text/plain; charset=Shift_JIS"
	}
	return "text/plain; charset=utf-8"
}

func (f DownloadFormat) kifu() kifu.Format {
	switch f {
	case DownloadKIF, DownloadKIFSJIS:
		return kifu.FormatKIF
	case DownloadCSA:
		return kifu.FormatCSA
	}
	return kifu.FormatUSI
}

// RecordFile is one written record.
type RecordFile struct {
	GameID int64
	// Name is the file name: date, sente and gote ("2026-06-01_山田太郎_鈴木花子.kifu").
	Name string
	// ASCIIName is the same for programs that only take ASCII names
	// ("kisen-game-12-20260601.kifu").
	ASCIIName   string
	ContentType string
	Body        []byte
}

// gameRecordFacts is what a written record is built from besides the
// record: the game and the names the header gets when the record has none.
type gameRecordFacts struct {
	game        store.Game
	sente, gote string
	event       string
	official    officialFacts
}

// GameRecordFile writes a game's record in force in format f. The game
// page's rule decides who may have it (Game: drafts, and games of
// unpublished stages and classes, only for their staff); a game without a
// record is ErrNotFound.
func (o *Office) GameRecordFile(ctx context.Context, actor Actor, gameID int64, f DownloadFormat) (RecordFile, error) {
	g, e, err := o.Game(ctx, actor, gameID)
	if err != nil {
		return RecordFile{}, err
	}
	rec, hasRecord, err := o.store.LatestGameRecord(ctx, gameID)
	if err != nil {
		return RecordFile{}, err
	}
	var of officialFacts
	if of.result, of.ok, err = o.store.EffectiveResult(ctx, gameID); err != nil {
		return RecordFile{}, err
	}
	if _, of.void, err = o.store.GameVoidOf(ctx, gameID); err != nil {
		return RecordFile{}, err
	}
	settings, err := ParseEventSettings(e.Settings)
	if err != nil {
		return RecordFile{}, err
	}
	if of.time, err = gameTimeControl(ctx, o.store, g, settings.Time); err != nil {
		return RecordFile{}, err
	}
	players, err := o.store.PlayersByIDs(ctx, gamePlayerIDs([]store.Game{g}))
	if err != nil {
		return RecordFile{}, err
	}
	facts := factsOf(g, players, e.Name)
	facts.official = of
	// The recorder's live record (issue 26) is the record in force when
	// it was written after the newest stored record version.
	live, err := o.store.GameMoves(ctx, gameID)
	if err != nil {
		return RecordFile{}, err
	}
	if r, ok := liveKifu(g, live, rec, hasRecord); ok {
		return writeKifuFile(facts, r, f)
	}
	if !hasRecord && !headerOnly(of, f) {
		return RecordFile{}, fmt.Errorf("game %d has no record: %w", gameID, store.ErrNotFound)
	}
	if !hasRecord {
		return writeRecordFile(facts, nil, f)
	}
	return writeRecordFile(facts, &rec, f)
}

// headerOnly reports whether a game without a record is still offered in
// format f: as KIF or CSA, a header and the decided result, once the
// game has one (a forfeit above all, which has no moves). USI holds no
// result, and an undecided game without a record has nothing to say.
func headerOnly(of officialFacts, f DownloadFormat) bool {
	if f == DownloadUSI || !of.ok || of.void {
		return false
	}
	return of.result.Result != ResultPending
}

// RecordSet is the records of an event or a stage, ready to be packed.
type RecordSet struct {
	// Name names the set ("新人王戦_本戦"), ASCIIName the same in ASCII.
	Name, ASCIIName string
	Files           []RecordFile
}

// EventRecordFiles writes the record in force of every game of an event
// that has one, in format f: void games are left out, and so, for anyone
// but the event's staff, are the games of unpublished stages and classes.
// A fixed number of statements whatever the number of games.
func (o *Office) EventRecordFiles(ctx context.Context, actor Actor, eventID int64, f DownloadFormat) (RecordSet, error) {
	e, err := mayViewEventID(ctx, o.store, actor, eventID)
	if err != nil {
		return RecordSet{}, err
	}
	gs, err := o.store.GameSetOfEvent(ctx, eventID)
	if err != nil {
		return RecordSet{}, err
	}
	hidden, err := o.HiddenGames(ctx, actor, eventID, gs)
	if err != nil {
		return RecordSet{}, err
	}
	var ids []int64
	for id := range gs.Games {
		if !gs.Void[id] && !hidden[id] {
			ids = append(ids, id)
		}
	}
	files, err := o.recordFiles(ctx, e, gs, ids, f)
	if err != nil {
		return RecordSet{}, err
	}
	return RecordSet{Name: safeFileName(e.Name), ASCIIName: fmt.Sprintf("kisen-event-%d", e.ID), Files: files}, nil
}

// StageRecordFiles writes the records of a knockout stage's games (every
// game of every bracket game's redo chain, void ones left out) in format f.
// The stage's own rule decides who may have them (Stage: unpublished
// stages only for the staff).
func (o *Office) StageRecordFiles(ctx context.Context, actor Actor, stageID int64, f DownloadFormat) (RecordSet, error) {
	st, err := o.Stage(ctx, actor, stageID)
	if err != nil {
		return RecordSet{}, err
	}
	e, err := o.store.EventByID(ctx, st.EventID)
	if err != nil {
		return RecordSet{}, err
	}
	roots, err := o.store.GameIDsOfStage(ctx, stageID)
	if err != nil {
		return RecordSet{}, err
	}
	gs, err := o.store.GameSetOfEvent(ctx, st.EventID)
	if err != nil {
		return RecordSet{}, err
	}
	var ids []int64
	for _, root := range roots {
		for _, id := range chainOf(gs, root) {
			if !gs.Void[id] {
				ids = append(ids, id)
			}
		}
	}
	files, err := o.recordFiles(ctx, e, gs, ids, f)
	if err != nil {
		return RecordSet{}, err
	}
	return RecordSet{Name: safeFileName(e.Name + "_" + st.Name), ASCIIName: fmt.Sprintf("kisen-stage-%d", st.ID), Files: files}, nil
}

// chainOf lists a game and every redo game replaying it, at any depth,
// within the set (void redo games included: the caller decides).
func chainOf(gs store.GameSet, root int64) []int64 {
	children := map[int64][]int64{}
	for _, g := range gs.Games {
		if g.RedoOfID != nil {
			children[*g.RedoOfID] = append(children[*g.RedoOfID], g.ID)
		}
	}
	var out []int64
	seen := map[int64]bool{}
	queue := []int64{root}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if seen[id] {
			continue
		}
		seen[id] = true
		if _, ok := gs.Games[id]; ok {
			out = append(out, id)
		}
		queue = append(queue, children[id]...)
	}
	return out
}

// recordFiles writes the records of the games ids that have one: the
// records in one statement, the players in one more. Files are in play
// order (date, then game), numbered so that names stay unique.
func (o *Office) recordFiles(ctx context.Context, e store.Event, gs store.GameSet, ids []int64, f DownloadFormat) ([]RecordFile, error) {
	recs, err := o.store.LatestRecordsOfEvent(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	// The recorders' live records (issue 26), in one more statement.
	live, err := o.store.GameMovesOfEvent(ctx, e.ID)
	if err != nil {
		return nil, err
	}
	var games []store.Game
	for _, id := range ids {
		_, ok := recs[id]
		if _, isLive := liveKifu(gs.Games[id], live[id], recs[id], ok); ok || isLive {
			games = append(games, gs.Games[id])
		}
	}
	slices.SortFunc(games, func(a, b store.Game) int {
		return cmp.Or(cmp.Compare(gameDate(a), gameDate(b)), cmp.Compare(a.ID, b.ID))
	})
	players, err := o.store.PlayersByIDs(ctx, gamePlayerIDs(games))
	if err != nil {
		return nil, err
	}
	settings, err := ParseEventSettings(e.Settings)
	if err != nil {
		return nil, err
	}
	out := make([]RecordFile, 0, len(games))
	for i, g := range games {
		facts := factsOf(g, players, e.Name)
		facts.official.result, facts.official.ok = gs.Effective(g.ID)
		facts.official.void = gs.Void[g.ID]
		facts.official.time = timeControlOf(settings.Time, g, gs.Games)
		rec, hasRecord := recs[g.ID]
		var file RecordFile
		if r, isLive := liveKifu(g, live[g.ID], rec, hasRecord); isLive {
			file, err = writeKifuFile(facts, r, f)
		} else {
			file, err = writeRecordFile(facts, &rec, f)
		}
		if err != nil {
			return nil, err
		}
		file.Name = fmt.Sprintf("%03d_%s", i+1, file.Name)
		out = append(out, file)
	}
	return out, nil
}

func gamePlayerIDs(games []store.Game) []int64 {
	var out []int64
	for _, g := range games {
		for _, p := range []*int64{g.SentePlayerID, g.GotePlayerID} {
			if p != nil {
				out = append(out, *p)
			}
		}
	}
	return out
}

func factsOf(g store.Game, players map[int64]store.Player, event string) gameRecordFacts {
	name := func(id *int64) string {
		if id == nil {
			return ""
		}
		return players[*id].Name
	}
	return gameRecordFacts{game: g, sente: name(g.SentePlayerID), gote: name(g.GotePlayerID), event: event}
}

// gameDate is the game's day as YYYY-MM-DD: the day it was scheduled, else
// the day it was created (Japan time).
func gameDate(g store.Game) string {
	if g.ScheduledOn != nil && *g.ScheduledOn != "" {
		return *g.ScheduledOn
	}
	return g.CreatedAt.In(playerTokyo).Format("2006-01-02")
}

// writeRecordFile reads the stored text back (it was read when saved, so
// an error here is corrupt data, not input) and writes it in format f with
// the game's facts: the registered players, the event, the date and the
// time control in the header (the uploaded values they replace kept as
// comments), and the official result at the end (kifu.Record.SetOfficial).
// rec nil is a game without a record: a header and the result only.
func writeRecordFile(facts gameRecordFacts, rec *store.GameRecord, f DownloadFormat) (RecordFile, error) {
	r := &kifu.Record{}
	if rec != nil {
		from, err := kifu.ParseFormat(rec.Format)
		if err != nil {
			from = kifu.FormatUnknown
		}
		res, err := kifu.Read([]byte(rec.Text), "", from)
		if err != nil {
			return RecordFile{}, fmt.Errorf("stored record %d of game %d: %w", rec.Version, rec.GameID, err)
		}
		r = res.Record
	} else if h, ok := rules.HandicapByName(facts.game.Handicap); ok {
		r.Handicap = h
	}
	return writeKifuFile(facts, r, f)
}

// writeKifuFile writes record r of a game in format f with the game's
// facts (writeRecordFile).
func writeKifuFile(facts gameRecordFacts, r *kifu.Record, f DownloadFormat) (RecordFile, error) {
	gameID := facts.game.ID
	date := gameDate(facts.game)
	scheduled := facts.game.ScheduledOn != nil && *facts.game.ScheduledOn != ""
	if t, ok := r.Header.StartTime(); !ok || (scheduled && t.Format("2006-01-02") != date) {
		// The game's day when it has one; a record's own date, with its
		// time, stands when it is that day or the game has no day.
		setHeader(&r.Header, kifu.KeyStart, strings.ReplaceAll(date, "-", "/"))
	}
	setHeader(&r.Header, kifu.KeyEvent, facts.event)
	setHeader(&r.Header, kifu.KeySente, facts.sente)
	setHeader(&r.Header, kifu.KeyGote, facts.gote)
	allowance, byoyomi, csaTime := timeControlWords(facts.official.time)
	switch f {
	case DownloadCSA:
		setHeader(&r.Header, kifu.KeyTimeLimit, csaTime) // $TIME:21600+60+0
		setHeader(&r.Header, keyByoyomi, byoyomi)
	case DownloadKIF, DownloadKIFSJIS:
		setHeader(&r.Header, kifu.KeyTimeLimit, allowance)
		setHeader(&r.Header, keyByoyomi, byoyomi)
	}
	if f != DownloadUSI {
		r.SetOfficial(official(facts.game, facts.official, len(r.Main.Nodes) > 0))
	}
	text, err := kifu.Write(r, f.kifu())
	if err != nil {
		return RecordFile{}, fmt.Errorf("write record of game %d as %s: %w", gameID, f, err)
	}
	body := []byte(text)
	if f == DownloadKIFSJIS {
		if body, err = kifu.EncodeShiftJIS(text); err != nil {
			// A character Shift_JIS lacks (a name in a rare kanji): the
			// user is told to take the UTF-8 file instead.
			v := &ValidationError{}
			v.Add(0, "charset", "downloads.err.sjis_unencodable", nil)
			return RecordFile{}, v
		}
	}
	if t, ok := r.Header.StartTime(); ok && !scheduled {
		date = t.Format("2006-01-02")
	}
	base := date
	for _, n := range []string{facts.sente, facts.gote} {
		if n = safeFileName(n); n != "" {
			base += "_" + n
		}
	}
	ext := f.Extension()
	return RecordFile{GameID: gameID, Name: base + ext,
		ASCIIName:   fmt.Sprintf("kisen-game-%d-%s%s", gameID, strings.ReplaceAll(date, "-", ""), ext),
		ContentType: f.ContentType(), Body: body}, nil
}

// safeFileName keeps a name usable as a file name on every system: no
// path separators, reserved characters, control characters or spaces.
func safeFileName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r), r == '_':
			// dropped: "青木 棋士1" → "青木棋士1"; "_" separates the parts
		case unicode.IsControl(r), strings.ContainsRune(`/\:*?"<>|`, r):
			b.WriteRune('-')
		default:
			b.WriteRune(r)
		}
	}
	out := strings.Trim(b.String(), ".-")
	if len([]rune(out)) > 60 {
		out = string([]rune(out)[:60])
	}
	return out
}
