// Package rules is shogi itself: positions, legal moves, fouls (反則),
// repetition (千日手), jishogi points (持将棋) and the entering-king
// declaration (入玉宣言), and JSA move notation (棋譜の表記方法).
//
// It is a pure room: no framework, database, clock or global randomness.
package rules
