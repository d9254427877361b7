package kifu

import (
	"fmt"
	"time"

	"kisen/rules"
)

// EndKind is what a terminal word (終局の表記) says happened. KIF and KI2
// write Kakinoki's words, CSA its % commands; the table below maps each to
// the other formats and to a Result.
type EndKind uint8

const (
	EndNone EndKind = iota
	EndResign
	EndCheckmate
	EndTimeUp
	EndIllegalMove   // the side to move lost by a foul (KIF 反則負け, CSA %ILLEGAL_MOVE)
	EndIllegalAction // Loser lost by a foul it committed (KIF 反則勝ち/反則負け, CSA %±ILLEGAL_ACTION)
	EndDeclareWin    // the side to move declared (入玉宣言) and won
	EndDeclareDraw   // CSA %HIKIWAKE: a declaration that ended without result
	EndJishogi
	EndSennichite
	EndMaxMoves
	EndAbort // 中断
	EndForfeitWin
	EndForfeitLoss
	EndNoMate // 不詰 (tsume problems)
	EndError
	numEndKinds
)

// Outcome is who won.
type Outcome uint8

const (
	OutcomeUnknown   Outcome = iota // no terminal word
	OutcomeSenteWin                 // 先手（下手）の勝ち
	OutcomeGoteWin                  // 後手（上手）の勝ち
	OutcomeNoResult                 // 千日手, 持将棋 …: no winner, usually a redo (D-R1)
	OutcomeSuspended                // 中断: the game did not finish
	// OutcomeBothLose is an official result no terminal word says (both
	// players lost by default); only Official uses it, a record never reads
	// as it.
	OutcomeBothLose
)

var outcomeNames = [...]string{"unknown", "sente_win", "gote_win", "no_result", "suspended", "both_lose"}

// String is a stable code: "sente_win", "gote_win", "no_result", …
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

// MarshalText writes the stable code.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

type endInfo struct {
	code    string // stable machine code
	kif     string // Kakinoki word; "" when KIF has none
	csa     string // CSA command; "" when CSA has none
	english string
	// loser says who lost: 'm' the side to move, 'o' the other side, 'x'
	// Terminal.Loser, 0 nobody.
	loser   byte
	outcome Outcome // for kinds without a loser
}

var endTable = [numEndKinds]endInfo{
	EndNone:          {"none", "", "", "no result recorded", 0, OutcomeUnknown},
	EndResign:        {"resign", "投了", "%TORYO", "resignation", 'm', 0},
	EndCheckmate:     {"checkmate", "詰み", "%TSUMI", "checkmate", 'm', 0},
	EndTimeUp:        {"time_up", "切れ負け", "%TIME_UP", "loss on time", 'm', 0},
	EndIllegalMove:   {"illegal_move", "反則負け", "%ILLEGAL_MOVE", "foul by the side to move", 'm', 0},
	EndIllegalAction: {"illegal_action", "反則勝ち", "%ILLEGAL_ACTION", "foul", 'x', 0},
	EndDeclareWin:    {"declaration", "入玉勝ち", "%KACHI", "entering-king declaration", 'o', 0},
	EndDeclareDraw:   {"declaration_draw", "持将棋", "%HIKIWAKE", "declaration without result", 0, OutcomeNoResult},
	EndJishogi:       {"jishogi", "持将棋", "%JISHOGI", "jishogi (impasse)", 0, OutcomeNoResult},
	EndSennichite:    {"sennichite", "千日手", "%SENNICHITE", "sennichite (repetition)", 0, OutcomeNoResult},
	EndMaxMoves:      {"max_moves", "持将棋", "%MAX_MOVES", "move limit reached", 0, OutcomeNoResult},
	EndAbort:         {"suspended", "中断", "%CHUDAN", "suspended", 0, OutcomeSuspended},
	EndForfeitWin:    {"forfeit_win", "不戦勝", "", "win by default", 'o', 0},
	EndForfeitLoss:   {"forfeit_loss", "不戦敗", "", "loss by default", 'm', 0},
	EndNoMate:        {"no_mate", "不詰", "%FUZUMI", "no mate (problem)", 0, OutcomeNoResult},
	EndError:         {"error", "中断", "%ERROR", "error", 0, OutcomeSuspended},
}

// String is the stable machine code ("resign", "time_up", …).
func (k EndKind) String() string {
	if k < numEndKinds {
		return endTable[k].code
	}
	return "invalid"
}

// KIFWord is the Kakinoki terminal word written for k (KIF and KI2).
// Kinds KIF cannot say get the nearest word: %MAX_MOVES and %HIKIWAKE
// become 持将棋 (D-J4: the move limit is a 持将棋), %ERROR becomes 中断.
func (k EndKind) KIFWord() string {
	if k < numEndKinds {
		return endTable[k].kif
	}
	return ""
}

// kifWords maps every word the KIF reader accepts to its kind. 宣言勝ち
// and 時間切れ are spellings other programs use.
var kifWords = map[string]EndKind{
	"投了": EndResign, "詰み": EndCheckmate, "切れ負け": EndTimeUp, "時間切れ": EndTimeUp,
	"反則負け": EndIllegalMove, "反則勝ち": EndIllegalAction, "入玉勝ち": EndDeclareWin,
	"宣言勝ち": EndDeclareWin, "持将棋": EndJishogi, "千日手": EndSennichite, "中断": EndAbort,
	"不戦勝": EndForfeitWin, "不戦敗": EndForfeitLoss, "不詰": EndNoMate,
}

// csaWords maps CSA special moves to kinds (V2.2 and V3.0).
var csaWords = map[string]EndKind{
	"%TORYO": EndResign, "%TSUMI": EndCheckmate, "%TIME_UP": EndTimeUp,
	"%ILLEGAL_MOVE": EndIllegalMove, "%+ILLEGAL_ACTION": EndIllegalAction,
	"%-ILLEGAL_ACTION": EndIllegalAction, "%KACHI": EndDeclareWin, "%HIKIWAKE": EndDeclareDraw,
	"%JISHOGI": EndJishogi, "%SENNICHITE": EndSennichite, "%MAX_MOVES": EndMaxMoves,
	"%CHUDAN": EndAbort, "%FUZUMI": EndNoMate, "%ERROR": EndError,
}

// Terminal is the word that closes a line, with its time and comments.
type Terminal struct {
	Kind EndKind
	// Loser is who lost, for EndIllegalAction (whose word names the side
	// rather than the side to move). Other kinds derive it from the side
	// to move.
	Loser       rules.Color
	Time, Total time.Duration
	HasTime     bool
	Comments    []string
	SourceLine  int
}

// Result is the common result model: who won and why.
type Result struct {
	Outcome Outcome `json:"outcome"`
	// Reason is the EndKind's stable code ("resign", "sennichite", …).
	Reason string `json:"reason"`
	// Word is the terminal word as KIF writes it (投了, 千日手 …).
	Word string `json:"word,omitempty"`
}

// Result judges t when toMove was the side to move as the word was
// written (the side that resigned, was mated, ran out of time, declared).
func (t *Terminal) Result(toMove rules.Color) Result {
	info := endTable[EndNone]
	if t.Kind < numEndKinds {
		info = endTable[t.Kind]
	}
	res := Result{Reason: info.code, Word: t.KIFWordFor(toMove)}
	var loser rules.Color
	switch info.loser {
	case 'm':
		loser = toMove
	case 'o':
		loser = toMove.Opponent()
	case 'x':
		loser = t.Loser
	default:
		res.Outcome = info.outcome
		return res
	}
	if loser == rules.Sente {
		res.Outcome = OutcomeGoteWin
	} else {
		res.Outcome = OutcomeSenteWin
	}
	return res
}

// KIFWordFor is the KIF word for t when toMove is to move: a foul by the
// side to move is 反則負け, by the other side 反則勝ち.
func (t *Terminal) KIFWordFor(toMove rules.Color) string {
	if t.Kind == EndIllegalAction && t.Loser == toMove {
		return "反則負け"
	}
	return t.Kind.KIFWord()
}

// CSAWordFor is the CSA command for t, "" when CSA has none (不戦勝,
// 不戦敗: the CSA writer then keeps the word in a comment).
func (t *Terminal) CSAWordFor(toMove rules.Color) string {
	if t.Kind == EndIllegalAction {
		if t.Loser == rules.Sente {
			return "%+ILLEGAL_ACTION"
		}
		return "%-ILLEGAL_ACTION"
	}
	if t.Kind < numEndKinds {
		return endTable[t.Kind].csa
	}
	return ""
}

// newKIFTerminal builds the terminal for a KIF word read when toMove was
// to move.
func newKIFTerminal(word string, toMove rules.Color) (*Terminal, bool) {
	k, ok := kifWords[word]
	if !ok {
		return nil, false
	}
	t := &Terminal{Kind: k}
	if k == EndIllegalAction { // 反則勝ち: the side that just moved fouled
		t.Loser = toMove.Opponent()
	}
	return t, true
}

// newCSATerminal builds the terminal for a CSA special move.
func newCSATerminal(word string, toMove rules.Color) (*Terminal, error) {
	k, ok := csaWords[word]
	if !ok {
		return nil, fmt.Errorf("unknown special move %q", word)
	}
	t := &Terminal{Kind: k}
	switch word {
	case "%+ILLEGAL_ACTION":
		t.Loser = rules.Sente
	case "%-ILLEGAL_ACTION":
		t.Loser = rules.Gote
	}
	return t, nil
}
