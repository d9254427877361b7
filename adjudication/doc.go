// Package adjudication turns an organiser's settings and a game's facts
// into an outcome: results, redo games (指し直し), foul claims, clocks and
// the arbiter's (立会人) rulings.
//
// It is a pure room: no framework, database, clock or global randomness.
package adjudication
