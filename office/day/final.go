package day

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"kisen/office"
	"kisen/pairing"
	"kisen/store"
)

// The class's final knockout (決勝トーナメント, issue 14 part 4,
// docs/final-knockout.md): from the class's finished preliminary, its
// qualifiers in order are placed by pairing.PlaceFinal — block winners on
// the top seed lines, each block split over the halves, relations out of
// round 1 — into a knockout stage of the day's event, optionally with a
// 交流戦 for the first-round losers. The director previews the bracket,
// builds it (one transaction), then reviews and publishes the stage on the
// stage's usual pages.

// LogFinal is the desk log action of a built final.
const LogFinal = "final"

// FinalQualifier is one qualifier as the final takes them: their block and
// place in it (pools in blocks) or their place in the preliminary's order
// (Swiss, pools by records).
type FinalQualifier struct {
	PlayerID int64  `json:"player"`
	Name     string `json:"name"`
	Block    string `json:"block,omitempty"`
	Place    int    `json:"place,omitempty"`
	Standing int    `json:"standing,omitempty"`
}

// FinalTogether is a pair of one block who can meet before the final
// because the field left no way to split them over the halves.
type FinalTogether struct {
	Block string    `json:"block"`
	Names [2]string `json:"names"`
	Round int       `json:"round"`
}

// FinalPreview is a class's final before it is built: what the director
// confirms. Seed and Fingerprint go back with the confirmation, which
// places again from the same seed and refuses (409) if anything changed.
type FinalPreview struct {
	ClassID     int64
	ClassName   string
	Seed        uint64
	Fingerprint string
	Size        int
	Qualifiers  []FinalQualifier
	// Slots hold a player id per bracket slot, 0 for a bye; round-1 game k
	// is Slots[2k] against Slots[2k+1].
	Slots    []int64
	Names    map[int64]string
	NotKept  []Avoidance // Board is the round-1 game
	Together []FinalTogether
	// request is what pairing.PlaceFinal was given, kept with the final
	// so a swap on the stage page is judged by the final's rules.
	request pairing.FinalRequest
}

// Games lists the preview's round-1 games in order: the two players of
// each, 0 for a bye.
func (p FinalPreview) Games() [][2]int64 {
	out := make([][2]int64, 0, len(p.Slots)/2)
	for s := 0; s+1 < len(p.Slots); s += 2 {
		out = append(out, [2]int64{p.Slots[s], p.Slots[s+1]})
	}
	return out
}

// FinalInput builds a previewed final.
type FinalInput struct {
	ClassID     int64
	Seed        uint64
	Fingerprint string
	Consolation bool // 交流戦 for the first-round losers
	ThirdPlace  bool // 三位決定戦
}

// Final is a class's built final: the record and its stage.
type Final struct {
	store.DayFinal
	Stage store.KnockoutStage
}

// ErrFinalBuilt refuses a second final for a class (HTTP 409).
var ErrFinalBuilt = fmt.Errorf("the class's final is already built: %w", office.ErrConflict)

// PreviewFinal places the class's qualifiers from seed without writing
// anything (directors). The preliminary must be finished.
func (d *Day) PreviewFinal(ctx context.Context, actor office.Actor, classID int64, seed uint64) (FinalPreview, error) {
	c, err := d.store.DayClassByID(ctx, classID)
	if err != nil {
		return FinalPreview{}, err
	}
	if _, err := requireDay(ctx, d.store, actor, c.EventID, deskRoles); err != nil {
		return FinalPreview{}, err
	}
	if _, ok, err := d.store.DayFinalOfClass(ctx, c.ID); err != nil {
		return FinalPreview{}, err
	} else if ok {
		return FinalPreview{}, ErrFinalBuilt
	}
	st, err := loadClassState(ctx, d.store, c, d.today)
	if err != nil {
		return FinalPreview{}, err
	}
	return placeFinal(st, seed)
}

// BuildFinal writes the final the director previewed, in one transaction
// (directors): a knockout stage of the day's event named after the class
// with the qualifiers as entrants and the previewed slots as its draw (left
// drawn, for review and publication on the stage's pages), and the class's
// final record. The placement is made again from the same seed inside the
// transaction; if it is not the previewed one (a corrected result changed
// the qualifiers) the build is refused with ErrDrawChanged, and a second
// build of the class with ErrFinalBuilt.
func (d *Day) BuildFinal(ctx context.Context, actor office.Actor, in FinalInput) (Final, error) {
	var out Final
	err := d.store.Tx(ctx, func(tx *store.Store) error {
		c, err := tx.DayClassByID(ctx, in.ClassID)
		if err != nil {
			return err
		}
		if _, err := requireDay(ctx, tx, actor, c.EventID, deskRoles); err != nil {
			return err
		}
		if _, ok, err := tx.DayFinalOfClass(ctx, c.ID); err != nil {
			return err
		} else if ok {
			return ErrFinalBuilt
		}
		st, err := loadClassState(ctx, tx, c, d.today)
		if err != nil {
			return err
		}
		p, err := placeFinal(st, in.Seed)
		if err != nil {
			return err
		}
		if p.Fingerprint != in.Fingerprint {
			return fmt.Errorf("class %d final: %w", c.ID, ErrDrawChanged)
		}
		players := make([]int64, len(p.Qualifiers))
		for i, q := range p.Qualifiers {
			players[i] = q.PlayerID
		}
		now := d.now()
		stage, err := office.CreateDrawnStageIn(ctx, tx, actor, office.DrawnStageInput{
			Stage: office.StageInput{EventID: c.EventID, Name: finalName(c.Name), NameEn: finalNameEn(c.NameEn), Kind: string(pairing.MainEvent),
				ThirdPlace: in.ThirdPlace, AllowanceMinutes: st.class.Settings.AllowanceMinutes},
			Consolation: in.Consolation, Players: players, Slots: p.Slots, Seed: in.Seed, DrawDate: d.today(), Method: "final",
			HandicapPolicy: finalHandicap(st.class.Settings.Handicap), EvenGap: st.class.Settings.EvenGap,
		}, now)
		if err != nil {
			return err
		}
		rec := store.DayFinal{ClassID: c.ID, StageID: stage.ID, Seed: strconv.FormatUint(in.Seed, 10), Qualifiers: mustJSON(p.Qualifiers),
			NotKept: jsonList(p.NotKept), Together: jsonList(p.Together), Request: mustJSON(p.request), BuiltBy: actor.UserID, BuiltAt: now}
		if err := tx.CreateDayFinal(ctx, &rec); errors.Is(err, store.ErrConflict) {
			return ErrFinalBuilt
		} else if err != nil {
			return err
		}
		out = Final{DayFinal: rec, Stage: stage}
		return tx.AppendDayLog(ctx, &store.DayLogEntry{EventID: c.EventID, ClassID: &c.ID, Action: LogFinal,
			Detail: mustJSON(map[string]any{"stage": stage.ID, "seed": rec.Seed, "qualifiers": len(players), "consolation": in.Consolation}), ActorID: actor.UserID, At: now})
	})
	return out, err
}

// FinalOf is a class's built final; ok is false when none is built
// (anyone who may see the event).
func (d *Day) FinalOf(ctx context.Context, actor office.Actor, classID int64) (Final, bool, error) {
	c, err := d.store.DayClassByID(ctx, classID)
	if err != nil {
		return Final{}, false, err
	}
	if _, err := d.o.Event(ctx, actor, c.EventID); err != nil {
		return Final{}, false, err
	}
	f, ok, err := d.store.DayFinalOfClass(ctx, classID)
	if err != nil || !ok {
		return Final{}, false, err
	}
	stage, err := d.store.StageByID(ctx, f.StageID)
	if err != nil {
		return Final{}, false, err
	}
	return Final{DayFinal: f, Stage: stage}, true, nil
}

func jsonList[T any](xs []T) string {
	if len(xs) == 0 {
		return "[]"
	}
	return mustJSON(xs)
}

// finalName is the stage's name: the class's name and 決勝トーナメント.
func finalName(class string) string { return class + " 決勝トーナメント" }

func finalNameEn(class string) string {
	if class == "" {
		return ""
	}
	return class + " final"
}

// qualifiers lists the class's qualifiers in the preliminary's order, as
// ClassView.Qualifiers gives them, once the preliminary is finished.
// Decisions (docs/final-knockout.md): a withdrawn qualifier does not enter
// the final; in blocks a qualifier keeps their block and place (1 for the
// 2-0 block winner); without blocks (pools by records, Swiss) their place
// in the order is their standing (ties in that order broken as listed).
func (st *classState) qualifiers() ([]FinalQualifier, error) {
	set := st.class.Settings
	switch st.class.Format {
	case FormatPools, FormatSwiss:
	default:
		return nil, invalid("class", "day_final.err.no_preliminary", nil)
	}
	last, ok := st.lastRound()
	if !ok || !last.Complete() || st.class.Format == FormatSwiss && len(st.rounds) < set.Rounds {
		return nil, invalid("class", "day_final.err.unfinished", nil)
	}
	v := ClassView{Class: st.class, Entrants: st.entrants, Rounds: st.rounds, Names: st.names}
	if st.class.Format == FormatPools {
		sd, err := v.Standings()
		if err != nil {
			return nil, err
		}
		for _, l := range sd.Pools {
			if l.Status == pairing.StatusPlaying && !l.Withdrawn {
				return nil, invalid("class", "day_final.err.unfinished", nil)
			}
		}
	}
	qs, err := v.Qualifiers()
	if err != nil {
		return nil, err
	}
	blocks := st.class.Format == FormatPools && set.PoolMode == string(pairing.PoolBlocks)
	out := make([]FinalQualifier, 0, len(qs))
	for i, q := range qs {
		x := FinalQualifier{PlayerID: q.PlayerID, Name: q.Name}
		if blocks {
			x.Block, x.Place = q.Block, max(q.Place, 1)
		} else {
			x.Standing = i + 1
		}
		out = append(out, x)
	}
	if len(out) < 2 {
		return nil, invalid("class", "day_final.err.too_few", map[string]any{"N": len(out)})
	}
	return out, nil
}

// placeFinal is the preview from seed: the qualifiers, their relations as
// the class keeps them, and pairing.PlaceFinal.
func placeFinal(st *classState, seed uint64) (FinalPreview, error) {
	qs, err := st.qualifiers()
	if err != nil {
		return FinalPreview{}, err
	}
	req := pairing.FinalRequest{Relations: st.class.Settings.poolsRelations(), Seed: seed}
	for _, q := range qs {
		req.Qualifiers = append(req.Qualifiers, pairing.FinalQualifier{ID: pid(q.PlayerID), Name: q.Name, Block: q.Block, Place: q.Place, Standing: q.Standing,
			Club: st.byPlayer[q.PlayerID].Affiliation, Master: st.masterOf(q.PlayerID), Family: st.family[q.PlayerID]})
	}
	pl, err := pairing.PlaceFinal(req)
	var np *pairing.NoFinalPlacementError
	switch {
	case errors.As(err, &np):
		names := make([]string, len(np.Players))
		for i, id := range np.Players {
			names[i] = st.names[idOf(id)]
		}
		return FinalPreview{}, invalid("class", "day_final.err.never", map[string]any{"Names": strings.Join(names, "、")})
	case err != nil:
		return FinalPreview{}, err
	}
	p := FinalPreview{ClassID: st.class.ID, ClassName: st.class.Name, Seed: seed, Size: pl.Size, Qualifiers: qs, Slots: make([]int64, len(pl.Slots)), Names: map[int64]string{}, request: req}
	for s, id := range pl.Slots {
		p.Slots[s] = idOf(id)
	}
	for _, q := range qs {
		p.Names[q.PlayerID] = q.Name
	}
	for _, x := range pl.NotKept {
		p.NotKept = append(p.NotKept, Avoidance{Relation: normRelation(x.Relation), Names: x.Names, Board: x.Game})
	}
	for _, x := range pl.Together {
		p.Together = append(p.Together, FinalTogether{Block: x.Block, Names: x.Names, Round: x.Round})
	}
	p.Fingerprint = finalFingerprint(p)
	return p, nil
}

// finalFingerprint names what the director saw: the qualifiers with their
// blocks, places and standings, and the slots.
func finalFingerprint(p FinalPreview) string {
	h := fnv.New64a()
	for _, q := range p.Qualifiers {
		fmt.Fprintf(h, "%d/%s/%d/%d;", q.PlayerID, q.Block, q.Place, q.Standing)
	}
	fmt.Fprint(h, "|")
	for _, id := range p.Slots {
		fmt.Fprintf(h, "%d,", id)
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// finalHandicap is the final's 手合割 policy, its class's: a knockout has no
// colour balance to keep, so a Swiss class's balanced colours become
// 振り駒 (D-F1) in its final.
func finalHandicap(class string) string {
	switch class {
	case HandicapTable:
		return office.StageHandicapTable
	case HandicapMixed:
		return office.StageHandicapMixed
	default:
		return office.StageHandicapToss
	}
}
