// Package pairing draws knockout brackets under the federation's draw
// rules (公式棋戦規約), decides sente by 振り駒 and handicaps by 手合割, and
// pairs Swiss (スイス式) rounds with their standings (docs/swiss.md) and
// N勝通過M敗失格 preliminaries (pools.go, docs/pools.md), and team events
// (団体戦: match results, standings, team Swiss and round robin; team_*.go,
// docs/team-events.md).
//
// It is a pure room: no framework, database, clock or global randomness.
package pairing
