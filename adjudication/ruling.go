package adjudication

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// RulingKind is what an arbiter (立会人) decided (D-K1, 000 第11条第5項).
type RulingKind string

const (
	RulingEnvironment  RulingKind = "environment"   // 一 対局環境の改善措置
	RulingClockStop    RulingKind = "clock_stop"    // 二 対局時計の一時的な停止
	RulingClockRestart RulingKind = "clock_restart" // 三 対局時計の再開
	RulingTimeAdjust   RulingKind = "time_adjust"   // 四 持時間の増減
	RulingCaution      RulingKind = "caution"       // 五 注意
	RulingWarning      RulingKind = "warning"       // 五 警告
	RulingFoulLoss     RulingKind = "foul_loss"     // 六 反則負けの宣告
	RulingOther        RulingKind = "other"         // 七 その他必要な措置
)

// RulingKinds lists every kind in the order of 000 第11条第5項.
func RulingKinds() []RulingKind {
	return []RulingKind{RulingEnvironment, RulingClockStop, RulingClockRestart, RulingTimeAdjust,
		RulingCaution, RulingWarning, RulingFoulLoss, RulingOther}
}

// Valid reports whether k is one of RulingKinds.
func (k RulingKind) Valid() bool {
	switch k {
	case RulingEnvironment, RulingClockStop, RulingClockRestart, RulingTimeAdjust,
		RulingCaution, RulingWarning, RulingFoulLoss, RulingOther:
		return true
	}
	return false
}

// Ruling is one decision on one game. Rulings are never edited or
// deleted: an appeal or a correction is a new ruling whose Supersedes names
// the one it replaces (D-K1; 000 第10条第8項 for appeals).
type Ruling struct {
	ID     string     `json:"id"`
	GameID string     `json:"game_id"`
	Kind   RulingKind `json:"kind"`
	// At is when the ruling was made (passed in; never read from a clock).
	At time.Time `json:"at"`
	// Arbiter is who ruled. ByOrganiser marks a ruling by the organiser or
	// their delegate where the game has no arbiter (D-K2, 000 第11条第10項);
	// Arbiter then names that person.
	Arbiter     Player `json:"arbiter"`
	ByOrganiser bool   `json:"by_organiser,omitempty"`
	// Player is the side the ruling concerns (required for time_adjust,
	// caution, warning and foul_loss).
	Player *Side `json:"player,omitempty"`
	// Delta is the time added (positive) or removed (negative) by a
	// time_adjust ruling.
	Delta Duration `json:"delta,omitempty"`
	// Reason is required: every ruling says why.
	Reason string `json:"reason"`
	// Supersedes is the ID of the ruling this one replaces, if any.
	Supersedes string `json:"supersedes,omitempty"`
}

// Validate checks one ruling on its own.
func (r Ruling) Validate() error {
	if strings.TrimSpace(r.ID) == "" {
		return fieldErr("id", "is required")
	}
	if strings.TrimSpace(r.GameID) == "" {
		return fieldErr("game_id", "is required")
	}
	if !r.Kind.Valid() {
		return fieldErr("kind", "%q is not a ruling kind (want one of %s)", r.Kind, kindList())
	}
	if r.At.IsZero() {
		return fieldErr("at", "is required (when the ruling was made)")
	}
	if strings.TrimSpace(r.Arbiter.ID) == "" && strings.TrimSpace(r.Arbiter.Name) == "" {
		if r.ByOrganiser {
			return fieldErr("arbiter", "name the organiser or delegate who ruled (D-K2, 000 第11条第10項)")
		}
		return fieldErr("arbiter", "name the arbiter, or set by_organiser when the game has none (D-K2)")
	}
	if strings.TrimSpace(r.Reason) == "" {
		return fieldErr("reason", "is required: every ruling records why (D-K1)")
	}
	switch r.Kind {
	case RulingTimeAdjust, RulingCaution, RulingWarning, RulingFoulLoss:
		if r.Player == nil {
			return fieldErr("player", "a %s ruling names the player (sente or gote)", r.Kind)
		}
	}
	if r.Player != nil && !r.Player.Valid() {
		return fieldErr("player", "is neither sente nor gote")
	}
	if r.Kind == RulingTimeAdjust {
		if r.Delta == 0 {
			return fieldErr("delta", "a time_adjust ruling adds or removes some time (e.g. \"+5m\" or \"-5m\")")
		}
		if d := r.Delta.D(); d > maxAllowance || d < -maxAllowance {
			return fieldErr("delta", "%s is more than %s", d, maxAllowance)
		}
	} else if r.Delta != 0 {
		return fieldErr("delta", "only a time_adjust ruling changes time")
	}
	if r.Supersedes != "" && r.Supersedes == r.ID {
		return fieldErr("supersedes", "a ruling cannot supersede itself")
	}
	return nil
}

func kindList() string {
	ks := RulingKinds()
	ss := make([]string, len(ks))
	for i, k := range ks {
		ss[i] = string(k)
	}
	return strings.Join(ss, ", ")
}

// EffectiveRulings is the rulings in force: every ruling no other ruling
// supersedes, ordered by time (input order among equal times). It rejects
// duplicate ids, superseding a missing ruling or one of another game, an
// appeal made before the ruling it replaces, two rulings superseding the
// same one (supersede the latest instead) and cycles.
func EffectiveRulings(rs []Ruling) ([]Ruling, error) {
	byID := make(map[string]int, len(rs))
	for i, r := range rs {
		if err := r.Validate(); err != nil {
			return nil, prefixed(fmt.Sprintf("rulings[%d]", i), err)
		}
		if j, dup := byID[r.ID]; dup {
			return nil, fieldErr(fmt.Sprintf("rulings[%d].id", i), "%q is also rulings[%d]'s id", r.ID, j)
		}
		byID[r.ID] = i
	}
	supersededBy := make(map[string]int, len(rs))
	for i, r := range rs {
		if r.Supersedes == "" {
			continue
		}
		field := fmt.Sprintf("rulings[%d].supersedes", i)
		j, ok := byID[r.Supersedes]
		if !ok {
			return nil, fieldErr(field, "no ruling has id %q", r.Supersedes)
		}
		old := rs[j]
		if old.GameID != r.GameID {
			return nil, fieldErr(field, "%q is a ruling on game %q, not %q", old.ID, old.GameID, r.GameID)
		}
		if r.At.Before(old.At) {
			return nil, fieldErr(field, "%q was made at %s, after this ruling (%s); a ruling is only superseded by a later one", old.ID, old.At.Format(time.RFC3339), r.At.Format(time.RFC3339))
		}
		if k, twice := supersededBy[old.ID]; twice {
			return nil, fieldErr(field, "%q is already superseded by %q; supersede that one instead", old.ID, rs[k].ID)
		}
		supersededBy[old.ID] = i
	}
	// Follow each chain of supersessions once; meeting a ruling of the
	// chain being walked again is a cycle.
	state := make([]uint8, len(rs)) // 0 unseen, 1 on the current walk, 2 done
	for i := range rs {
		j := i
		for state[j] == 0 {
			state[j] = 1
			next, ok := byID[rs[j].Supersedes]
			if !ok {
				break
			}
			if state[next] == 1 {
				return nil, fieldErr(fmt.Sprintf("rulings[%d].supersedes", j), "rulings supersede each other in a cycle through %q", rs[j].ID)
			}
			j = next
		}
		for k, ok := i, true; ok && state[k] == 1; k, ok = byID[rs[k].Supersedes] {
			state[k] = 2
		}
	}
	var out []Ruling
	for _, r := range rs {
		if _, gone := supersededBy[r.ID]; !gone {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b Ruling) int { return a.At.Compare(b.At) })
	return out, nil
}
