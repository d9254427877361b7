// Package rating computes player ratings (Elo, Glicko-2) from confirmed
// results, with a per-player history for charts and head-to-head records.
//
// The entry points are Recompute (every game from scratch) and
// (*State).Apply (new games on top of a state). Both run the same code in
// the same canonical order (date, event id, game id), so applying games
// incrementally gives bit-for-bit the ratings of a full recompute.
// Eligible says which games count and why the others do not.
//
// It is a pure room: no framework, database, clock or global randomness.
package rating
