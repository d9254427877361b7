// Package league schedules round robins and the 順位戦 classes, fixes
// sente/gote in advance, and computes standings, promotion and 降級点.
//
// It is a pure room: no framework, database, clock or global randomness.
package league
