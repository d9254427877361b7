// Package adjudication turns an organiser's settings and a game's facts
// into an outcome: results, redo games (指し直し), foul claims, clocks and
// the arbiter's (立会人) rulings.
//
// It is a pure room: no framework, database, clock or global randomness.
// Times arrive as time.Time and time.Duration values; everything the rules
// engine knows about a game record (fouls, 千日手, jishogi points, the
// declaration conditions) arrives as plain values in Findings, which the
// sub-package adjudication/analysis computes from a record.
//
// The entry points are:
//
//   - Settings and DefaultSettings: the organiser's choices, validated;
//   - Decide(settings, facts): the outcome of one game;
//   - ParseGame / Game.Decide: the JSON form the command line and the web
//     share;
//   - NewClock: per-move time accounting (stopwatch or chess clock);
//   - RedoAllowance and NextRedo: the redo game's sides and time;
//   - EffectiveRulings: which arbiter rulings are in force.
package adjudication
