package games

import (
	"strconv"
	"strings"

	"kisen/rules"
)

// boardView is one position of a game record, ready to draw as SVG: the
// 81 squares from sente's side, both hands, and the last move.
type boardView struct {
	GameID    int64
	Ply       int // the position after this many moves
	Plies     int // the record's length
	Squares   []BoardSquare
	SenteHand string // e.g. "飛 歩3", "" when empty
	GoteHand  string
	LastMove  string // the move that led here, in record notation
	Moves     []string
	HasRecord bool
	// Clock is both clocks at Ply (nil when the record has no times and
	// no arbiter changed the time).
	Clock *boardClock
}

// BoardView is a board at one ply for other rooms: the live board
// (web/live, BoardSVG) and the recorder's page (web/recorder, BoardFragment).
type BoardView = boardView

// boardClock is office.ClockAt as shown under the board.
type boardClock struct {
	Sente, Gote               string // time left, e.g. "4分30秒"
	SenteByoyomi, GoteByoyomi bool
	Forfeited                 string // the side's message id, "" when none
	Adjusted                  bool   // an arbiter's time change is in force
	Timed                     bool   // from the record's move times
}

// boardSquare is one square as drawn: X/Y are the top-left corner in the
// SVG's user units.
type BoardSquare struct {
	X, Y    int
	Kanji   string
	Gote    bool // drawn upside down (the gote player's piece)
	Last    bool // the last move's destination
	File    int
	Rank    int
	Present bool
}

const (
	boardCell   = 40
	boardMargin = 20
	boardSize   = boardMargin*2 + boardCell*9
)

// handOrder is how hands are written: the major pieces first.
var handOrder = []rules.PieceType{rules.Rook, rules.Bishop, rules.Gold, rules.Silver, rules.Knight, rules.Lance, rules.Pawn}

// newBoardView replays moves from start to ply (clamped to the record).
// Moves that cannot be played (a record saved with a foul) are applied as
// far as the rules engine lets them, so the board shows what was played.
func NewBoardView(gameID int64, startSFEN string, usi []string, ply int) (boardView, error) {
	v := boardView{GameID: gameID, Plies: len(usi), HasRecord: startSFEN != ""}
	pos := rules.NewPosition(rules.Even)
	if startSFEN != "" {
		p, err := rules.ParseSFEN(startSFEN)
		if err != nil {
			return v, err
		}
		pos = p
	}
	moves := make([]rules.Move, 0, len(usi))
	for _, s := range usi {
		m, err := rules.ParseUSIMove(s)
		if err != nil {
			return v, err
		}
		moves = append(moves, m)
	}
	ply = max(0, min(ply, len(moves)))
	v.Ply = ply
	prev := rules.NoSquare
	replay := pos.Clone()
	for i, m := range moves {
		text := replay.MoveText(m, prev, rules.StyleRecord)
		v.Moves = append(v.Moves, text)
		if i < ply {
			pos.Do(m)
			if i == ply-1 {
				v.LastMove = text
			}
		}
		replay.Do(m)
		prev = m.To()
	}
	last := rules.NoSquare
	if ply > 0 {
		last = moves[ply-1].To()
	}
	for rank := 1; rank <= 9; rank++ {
		for file := 9; file >= 1; file-- {
			sq := rules.NewSquare(file, rank)
			pc := pos.At(sq)
			v.Squares = append(v.Squares, BoardSquare{
				X: boardMargin + (9-file)*boardCell, Y: boardMargin + (rank-1)*boardCell,
				Kanji: pc.Type().Kanji(), Gote: pc.Color() == rules.Gote, Present: !pc.IsEmpty(),
				Last: sq == last, File: file, Rank: rank,
			})
		}
	}
	v.SenteHand = handText(pos, rules.Sente)
	v.GoteHand = handText(pos, rules.Gote)
	return v, nil
}

func handText(p *rules.Position, c rules.Color) string {
	var parts []string
	for _, pt := range handOrder {
		switch n := p.Hand(c, pt); {
		case n == 1:
			parts = append(parts, pt.Kanji())
		case n > 1:
			parts = append(parts, pt.Kanji()+strconv.Itoa(n))
		}
	}
	return strings.Join(parts, " ")
}

// boardURL is the game page at a ply.
func boardURL(gameID int64, ply int) string {
	return "/games/" + strconv.FormatInt(gameID, 10) + "?ply=" + strconv.Itoa(ply)
}

// svgNum formats an SVG coordinate.
func svgNum(n int) string { return strconv.Itoa(n) }

// pieceTransform turns a gote piece upside down about its square's centre.
func PieceTransform(s BoardSquare) string {
	if !s.Gote {
		return ""
	}
	return "rotate(180 " + svgNum(s.X+boardCell/2) + " " + svgNum(s.Y+boardCell/2) + ")"
}

// pieceFont shrinks two-character names (成香, 成桂, 成銀).
func pieceFont(k string) string {
	if len([]rune(k)) > 1 {
		return "16"
	}
	return "26"
}

func pieceClass(s BoardSquare) string {
	if s.Gote {
		return "board-piece gote"
	}
	return "board-piece"
}

var rankKanji = []string{"", "一", "二", "三", "四", "五", "六", "七", "八", "九"}

func kanjiRank(r int) string { return rankKanji[r] }
