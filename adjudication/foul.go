package adjudication

import (
	"fmt"
	"strings"
	"time"
)

// FoulKind is a stable code for a foul (反則). The first seven are the
// rules engine's codes for an illegal move; the rest are fouls a record
// cannot show, which a player, a third party or the arbiter reports.
type FoulKind string

const (
	FoulNifu             FoulKind = "nifu"              // 二歩
	FoulDeadPiece        FoulKind = "dead_piece"        // 行き所のない駒
	FoulUchifuzume       FoulKind = "uchifuzume"        // 打ち歩詰め
	FoulIgnoredCheck     FoulKind = "ignored_check"     // 王手放置
	FoulIllegalMovement  FoulKind = "illegal_movement"  // 不可能な着手
	FoulIllegalPromotion FoulKind = "illegal_promotion" // 成れない駒の成り
	FoulWrongSide        FoulKind = "wrong_side"        // 相手の駒を動かす
	FoulPerpetualCheck   FoulKind = "perpetual_check"   // 連続王手の千日手
	FoulWrongStart       FoulKind = "wrong_start"       // 先後誤り
	FoulTwoMoves         FoulKind = "two_moves"         // 二手指し
	FoulMatta            FoulKind = "matta"             // 待った
	FoulTimeForfeit      FoulKind = "time_forfeit"      // 時間切れ
	FoulClockBeforeMove  FoulKind = "clock_before_move" // 着手完了前に時計を押す
	FoulAdvice           FoulKind = "advice"            // 助言の利用・他の盤での検討
	FoulRefusedRuling    FoulKind = "refused_ruling"    // 立会人の裁定に従わない
	FoulClockHand        FoulKind = "clock_hand"        // 指した手と反対の手で時計を押す (D-X6)
	FoulNoCheckCall      FoulKind = "no_check_call"     // 「王手」と言わない: never a foul (004)
)

type foulInfo struct {
	ja      string
	article string
}

// info describes a foul kind; ok is false for an unknown code. The
// articles are 000 第10条第1項's items (D-X1) unless noted.
func (k FoulKind) info() (foulInfo, bool) {
	switch k {
	case FoulNifu:
		return foulInfo{"二歩", "000 第10条第1項一"}, true
	case FoulDeadPiece:
		return foulInfo{"行き所のない駒", "000 第10条第1項二"}, true
	case FoulUchifuzume:
		return foulInfo{"打ち歩詰め", "000 第10条第1項三"}, true
	case FoulIgnoredCheck:
		return foulInfo{"王手放置", "000 第10条第1項四"}, true
	case FoulPerpetualCheck:
		return foulInfo{"連続王手の千日手", "000 第10条第1項五"}, true
	case FoulWrongStart:
		return foulInfo{"先後誤り", "000 第10条第1項六"}, true
	case FoulTwoMoves:
		return foulInfo{"二手指し", "000 第10条第1項七"}, true
	case FoulMatta:
		return foulInfo{"待った", "000 第10条第1項八"}, true
	case FoulTimeForfeit:
		return foulInfo{"時間切れ", "000 第10条第1項九"}, true
	case FoulClockBeforeMove:
		return foulInfo{"着手完了前に時計を押す", "000 第10条第1項十"}, true
	case FoulAdvice:
		return foulInfo{"助言の利用", "000 第10条第1項十一"}, true
	case FoulIllegalMovement, FoulIllegalPromotion, FoulWrongSide:
		return foulInfo{"不可能な着手", "000 第10条第1項十二"}, true
	case FoulRefusedRuling:
		return foulInfo{"立会人の裁定に従わない", "000 第10条第1項十三"}, true
	case FoulClockHand:
		return foulInfo{"反対の手で時計を押す", "000 第10条第12項"}, true
	case FoulNoCheckCall:
		return foulInfo{"王手の発声なし", "004"}, true
	}
	return foulInfo{}, false
}

// Valid reports whether k is a known code.
func (k FoulKind) Valid() bool { _, ok := k.info(); return ok }

// Japanese is the foul's Japanese name.
func (k FoulKind) Japanese() string { i, _ := k.info(); return i.ja }

// Article is the seed article that makes it a foul.
func (k FoulKind) Article() string { i, _ := k.info(); return i.article }

// claimableAfterGame is false for 待った and time forfeit: they cannot be
// pointed out once the game is over (D-X4, 000 第10条第6項).
func (k FoulKind) claimableAfterGame() bool {
	return k != FoulMatta && k != FoulTimeForfeit
}

// Found says when a foul came to light: during the game or after it.
type Found string

const (
	FoundDuring Found = "during"
	FoundAfter  Found = "after"
)

// Claimant is who pointed a foul out.
type Claimant string

const (
	ClaimByOpponent   Claimant = "opponent"
	ClaimByThirdParty Claimant = "third_party" // 第三者 (D-X5, 000 第10条第9項)
	ClaimByArbiter    Claimant = "arbiter"
	ClaimByRecorder   Claimant = "recorder"
)

// FoulClaim is a foul someone pointed out, with when it came to light.
type FoulClaim struct {
	Kind FoulKind `json:"kind"`
	// Offender is the side that committed it.
	Offender *Side `json:"offender"`
	// Ply is the 1-based move at which it was committed; 0 when unknown
	// (then taken as the last move of the game).
	Ply int `json:"ply,omitempty"`
	// Found is "during" (the game stopped for it, D-X2) or "after" (D-X3).
	Found Found `json:"found"`
	// NextGameStarted: it came to light only after the next game of the
	// same event had begun, so the result stands (D-X3, 000 第10条第5項).
	NextGameStarted bool `json:"next_game_started,omitempty"`
	// NextGame is where NextGameStarted came from when the organiser's
	// system filled it in: found from the event's games, or set by the
	// arbiter against what was found, with the reason. Claims made before
	// it existed (a checkbox) have none. Kept with the facts for the
	// ruling log; the decision reads NextGameStarted only.
	NextGame *NextGameBasis `json:"next_game,omitempty"`
	// ClaimedBy is who pointed it out (default opponent).
	ClaimedBy Claimant `json:"claimed_by,omitempty"`
	// Disputed: the players do not agree that it happened; the arbiter
	// (or the event's responsible person) decides (D-X5, 000 第10条第7項).
	Disputed bool `json:"disputed,omitempty"`
	// PriorWarnings counts earlier warnings for the same clock_hand
	// offence in this game (D-X6).
	PriorWarnings int `json:"prior_warnings,omitempty"`
}

// NextGameBasis is how a claim's NextGameStarted was settled
// (000 第10条第5項).
type NextGameBasis struct {
	// Source is "derived" (as found from the event's games) or
	// "overridden" (the arbiter set the value, with a reason).
	Source string `json:"source"`
	// Found is what was derived, whatever Source says.
	Found bool `json:"found"`
	// GameID is the game found to have started ("" when none).
	GameID string `json:"game_id,omitempty"`
	// StartedAt is when that game started.
	StartedAt *time.Time `json:"started_at,omitempty"`
	// AsOf is the time of the claim the question was asked at.
	AsOf time.Time `json:"as_of"`
	// Reason is the arbiter's, required when overridden.
	Reason string `json:"reason,omitempty"`
}

// Sources of NextGameBasis.
const (
	NextGameDerived    = "derived"
	NextGameOverridden = "overridden"
)

func (b NextGameBasis) validate(started bool) error {
	switch b.Source {
	case NextGameDerived:
		if b.Found != started {
			return fieldErr("next_game.found", "a derived value must be the one found")
		}
	case NextGameOverridden:
		if strings.TrimSpace(b.Reason) == "" {
			return fieldErr("next_game.reason", "is required when the value found is overridden")
		}
	default:
		return fieldErr("next_game.source", "%q is neither derived nor overridden", b.Source)
	}
	if b.Found != (b.GameID != "") {
		return fieldErr("next_game.game_id", "names the game found to have started, and only then")
	}
	return nil
}

func (c FoulClaim) validate() error {
	if !c.Kind.Valid() {
		return fieldErr("kind", "%q is not a foul (want one of %s)", c.Kind, foulKindList())
	}
	if c.Offender == nil {
		return fieldErr("offender", "is required (sente or gote)")
	}
	if !c.Offender.Valid() {
		return fieldErr("offender", "is neither sente nor gote")
	}
	if c.Ply < 0 || c.Ply > maxPlies {
		return fieldErr("ply", "%d is outside 0 … %d", c.Ply, maxPlies)
	}
	switch c.Found {
	case FoundDuring:
		if c.NextGameStarted {
			return fieldErr("next_game_started", "only a foul found after the game can be found after the next game began")
		}
	case FoundAfter:
	default:
		return fieldErr("found", "%q is not when a foul was found (want during or after)", c.Found)
	}
	switch c.ClaimedBy {
	case "", ClaimByOpponent, ClaimByThirdParty, ClaimByArbiter, ClaimByRecorder:
	default:
		return fieldErr("claimed_by", "%q is not a claimant (want opponent, third_party, arbiter or recorder)", c.ClaimedBy)
	}
	if c.NextGame != nil {
		if err := c.NextGame.validate(c.NextGameStarted); err != nil {
			return err
		}
	}
	if c.PriorWarnings < 0 || c.PriorWarnings > 1000 {
		return fieldErr("prior_warnings", "%d is outside 0 … 1000", c.PriorWarnings)
	}
	if c.PriorWarnings > 0 && c.Kind != FoulClockHand {
		return fieldErr("prior_warnings", "only counts for clock_hand")
	}
	return nil
}

func foulKindList() string {
	all := []FoulKind{FoulNifu, FoulDeadPiece, FoulUchifuzume, FoulIgnoredCheck, FoulIllegalMovement,
		FoulIllegalPromotion, FoulWrongSide, FoulPerpetualCheck, FoulWrongStart, FoulTwoMoves, FoulMatta,
		FoulTimeForfeit, FoulClockBeforeMove, FoulAdvice, FoulRefusedRuling, FoulClockHand, FoulNoCheckCall}
	ss := make([]string, len(all))
	for i, k := range all {
		ss[i] = string(k)
	}
	return strings.Join(ss, ", ")
}

func (c FoulClaim) String() string {
	return fmt.Sprintf("%s by %s at ply %d (found %s)", c.Kind, c.Offender, c.Ply, c.Found)
}
