// Package rating computes player ratings (Elo, Glicko-2) from confirmed
// results.
//
// It is a pure room: no framework, database, clock or global randomness.
package rating
