// Package pairing draws knockout brackets under the federation's draw
// rules (公式棋戦規約), decides sente by 振り駒 and handicaps by 手合割, and
// pairs Swiss (スイス式) rounds with their standings (docs/swiss.md) and
// N勝通過M敗失格 preliminaries (pools.go, docs/pools.md), team events
// (団体戦: match results, standings, team Swiss and round robin; team_*.go,
// docs/team-events.md), and 竜王戦-style ranking groups with their
// 昇級者決定戦 and 残留決定戦 (ranking_groups.go, docs/ranking-groups.md).
//
// It is a pure room: no framework, database, clock or global randomness.
package pairing
