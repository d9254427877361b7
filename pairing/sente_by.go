package pairing

// Ways a game's sente was chosen, one vocabulary for every game a draw
// starts: bracket games (knockout_games.sente_by) and a day's boards
// (day_pairings.sente_by). The web shows each in words.
const (
	SenteByFurigoma = "furigoma" // simulated 振り駒 (D-F1..F3), recorded
	SenteByObserved = "observed" // a physical 振り駒 entered as seen at the board
	SenteByHandicap = "handicap" // the 上手 of a handicap game moves first (D-H, 003/004)
	SenteByRank     = "rank"     // 平手, the lower rank is sente (004)
	SenteBySeries   = "series"   // a 番勝負's alternation
	SenteByDraw     = "draw"     // the Swiss draw balanced colours
)
