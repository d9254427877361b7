package office

import (
	"errors"
	"strings"
	"testing"
	"time"

	"kisen/adjudication"
)

// TestFactsError_RoomErrorsGetTheirOwnMessage runs real inputs through the
// room (the path EndGame, ClaimFoul and AddRuling take) and checks each
// error the room returns is shown with its own message id on the right
// form field: the English sentence of the room never reaches the page.
func TestFactsError_RoomErrorsGetTheirOwnMessage(t *testing.T) {
	t.Parallel()
	sente, gote := adjudication.Sente, adjudication.Gote
	base := func() adjudication.Game {
		g := adjudication.Game{Settings: adjudication.DefaultSettings()}
		g.GameID = "1"
		g.Players = adjudication.Players{Sente: adjudication.Player{ID: "1", Name: "A"}, Gote: adjudication.Player{ID: "2", Name: "B"}}
		return g
	}
	resignedRecord := "position startpos moves 7g7f 3c3d 8h2b+"
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	foulLoss := func(id string, s adjudication.Side, supersedes string, when time.Time) adjudication.Ruling {
		return adjudication.Ruling{ID: id, GameID: "1", Kind: adjudication.RulingFoulLoss, At: when, Arbiter: adjudication.Player{Name: "立会"},
			Player: &s, Reason: "反則", Supersedes: supersedes}
	}
	during := adjudication.FoundDuring
	cases := []struct {
		name       string
		edit       func(g *adjudication.Game)
		form, code string
	}{
		{"no ending", func(g *adjudication.Game) {}, "kind", "adjudication.err.end_kind"},
		{"unknown ending", func(g *adjudication.Game) { g.Ending.Kind = "draw" }, "kind", "adjudication.err.end_kind"},
		{"resign without side", func(g *adjudication.Game) { g.Ending.Kind = adjudication.EndResign }, "by", "adjudication.err.end_by"},
		{"sennichite with a side", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndSennichite, By: &sente}
		}, "by", "adjudication.err.end_by_none"},
		{"forfeit without side", func(g *adjudication.Game) { g.Ending.Kind = adjudication.EndForfeit }, "by", "adjudication.err.end_by_forfeit"},
		{"both absent but resigned", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &sente, BothAbsent: true}
		}, "by", "adjudication.err.end_both_absent"},
		{"mate that is not mate", func(g *adjudication.Game) {
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndMate, By: &gote}, resignedRecord
		}, "kind", "adjudication.err.end_mate_not_mate"},
		{"500 moves too early", func(g *adjudication.Game) {
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndMaxMoves}, resignedRecord
		}, "kind", "adjudication.err.end_max_moves_short"},
		{"sennichite without repetition", func(g *adjudication.Game) {
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndSennichite}, resignedRecord
		}, "kind", "adjudication.err.end_sennichite_not_repeated"},
		{"declaration with none", func(g *adjudication.Game) {
			g.Settings.Declaration = adjudication.DeclarationNone
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndDeclaration, By: &sente}, resignedRecord
		}, "kind", "adjudication.err.end_declaration_none"},
		{"declaration without record", func(g *adjudication.Game) {
			left := true
			g.Ending = adjudication.Ending{Kind: adjudication.EndDeclaration, By: &sente, TimeLeft: &left}
		}, "kind", "adjudication.err.declaration_facts"},
		{"mate without the mated side", func(g *adjudication.Game) { g.Ending.Kind = adjudication.EndMate }, "by", "adjudication.err.end_by_mated"},
		{"foul without offender", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndFoul, Foul: adjudication.FoulNifu}
		}, "by", "adjudication.err.end_by_foul_offender"},
		{"foul loss without offender", func(g *adjudication.Game) { g.Ending.Kind = adjudication.EndArbiterFoulLoss }, "by", "adjudication.err.end_by_foul_loss"},
		{"declaration out of turn", func(g *adjudication.Game) {
			left := true
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndDeclaration, By: &sente, TimeLeft: &left}, resignedRecord
		}, "by", "adjudication.err.end_by_declarer_turn"},
		{"fouls of both sides at one ply", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Fouls = []adjudication.FoulClaim{{Kind: adjudication.FoulNifu, Offender: &gote, Found: adjudication.FoundAfter},
				{Kind: adjudication.FoulNifu, Offender: &sente, Found: adjudication.FoundAfter}}
		}, "ply", "adjudication.err.claim_same_ply"},
		{"forfeit with moves", func(g *adjudication.Game) {
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndForfeit, By: &sente}, resignedRecord
		}, "kind", "adjudication.err.end_forfeit_has_moves"},
		{"unknown foul", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndFoul, By: &sente, Foul: "bogus"}
		}, "foul", "adjudication.err.end_foul"},
		{"foul named for a resignation", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &sente, Foul: adjudication.FoulNifu}
		}, "foul", "adjudication.err.end_foul"},
		{"jishogi without points", func(g *adjudication.Game) { g.Ending.Kind = adjudication.EndJishogiAgreement }, "points_sente", "adjudication.err.points_required"},
		{"points not 54", func(g *adjudication.Game) {
			g.Ending.Kind, g.Points = adjudication.EndJishogiAgreement, &adjudication.Points{Sente: 30, Gote: 30}
		}, "points_sente", "adjudication.err.points"},
		{"remaining too long", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &sente}
			g.Remaining = &adjudication.Times{Sente: adjudication.Duration(1000 * time.Hour)}
		}, "remaining_sente", "adjudication.err.remaining"},
		{"claim on a forfeit", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndForfeit, By: &sente}
			g.Fouls = []adjudication.FoulClaim{{Kind: adjudication.FoulNifu, Offender: &gote, Found: adjudication.FoundAfter}}
		}, "claim", "adjudication.err.claim_forfeit"},
		{"claim after the last move", func(g *adjudication.Game) {
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}, resignedRecord
			g.Fouls = []adjudication.FoulClaim{{Kind: adjudication.FoulNifu, Offender: &gote, Found: adjudication.FoundAfter, Ply: 40}}
		}, "ply", "adjudication.err.claim_ply_after_record"},
		{"claim of an unknown foul", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Fouls = []adjudication.FoulClaim{{Kind: "bogus", Offender: &gote, Found: adjudication.FoundAfter}}
		}, "foul", "adjudication.err.end_foul"},
		{"claim without offender", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Fouls = []adjudication.FoulClaim{{Kind: adjudication.FoulNifu, Found: adjudication.FoundAfter}}
		}, "offender", "adjudication.err.side"},
		{"claim found when", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Fouls = []adjudication.FoulClaim{{Kind: adjudication.FoulNifu, Offender: &gote, Found: "later"}}
		}, "found", "adjudication.err.found"},
		{"next game during play", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Fouls = []adjudication.FoulClaim{{Kind: adjudication.FoulNifu, Offender: &gote, Found: during, NextGameStarted: true}}
		}, "next_game", "adjudication.err.claim_next_game"},
		{"unknown claimant", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Fouls = []adjudication.FoulClaim{{Kind: adjudication.FoulNifu, Offender: &gote, Found: adjudication.FoundAfter, ClaimedBy: "spectator"}}
		}, "claim", "adjudication.err.claim_claimant"},
		{"foul losses against both", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndArbiterFoulLoss}
			g.Rulings = []adjudication.Ruling{foulLoss("1", sente, "", at), foulLoss("2", gote, "", at.Add(time.Minute))}
		}, "supersedes", "adjudication.err.rulings_both_foul_losses"},
		{"supersedes a missing ruling", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Rulings = []adjudication.Ruling{foulLoss("1", sente, "9", at)}
		}, "supersedes", "adjudication.err.supersedes_missing"},
		{"supersedes a later ruling", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Rulings = []adjudication.Ruling{foulLoss("1", sente, "", at.Add(time.Hour)), foulLoss("2", gote, "1", at)}
		}, "supersedes", "adjudication.err.rulings_order"},
		{"supersedes twice", func(g *adjudication.Game) {
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
			g.Rulings = []adjudication.Ruling{foulLoss("1", sente, "", at), foulLoss("2", gote, "1", at.Add(time.Minute)), foulLoss("3", gote, "1", at.Add(2*time.Minute))}
		}, "supersedes", "adjudication.err.supersedes_twice"},
		{"bad event settings", func(g *adjudication.Game) {
			g.Settings.Jishogi = adjudication.Jishogi27
			g.Ending = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}
		}, "", "adjudication.err.event_settings"},
		{"unreadable record", func(g *adjudication.Game) {
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}, "position startpos moves 7g7f 9a9z"
		}, "", "adjudication.err.record_unreadable"},
		{"record of another handicap", func(g *adjudication.Game) {
			g.Handicap = "香落ち"
			g.Ending, g.Record = adjudication.Ending{Kind: adjudication.EndResign, By: &gote}, "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n"
		}, "", "adjudication.err.record_handicap_stored"},
	}
	hit := map[string]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := base()
			tc.edit(&g)
			_, _, _, err := decide(g)
			var fe *adjudication.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("want a field error from the room, got %v", err)
			}
			var v *ValidationError
			if !errors.As(factsError(err), &v) || len(v.Fields) != 1 {
				t.Fatalf("%v: not one form error", err)
			}
			if got := v.Fields[0]; got.Field != tc.form || got.Code != tc.code || len(got.Args) != 0 {
				t.Fatalf("room error %q → %s/%s %v; want %s/%s with no English detail", fe.Error(), got.Field, got.Code, got.Args, tc.form, tc.code)
			}
			hit[tc.code] = true
		})
	}
	// An error no rule foresees still gets a message of its own.
	if _, code := factsMessage(&adjudication.FieldError{Field: "something.new", Msg: "new"}); code != factsFallback {
		t.Fatalf("unforeseen error → %s", code)
	}
	var missed []string
	for _, id := range FactsMessageIDs() {
		if !hit[id] {
			missed = append(missed, id)
		}
	}
	t.Logf("message ids not produced by this table (reachable only through inputs the web forms cannot send): %s", strings.Join(missed, ", "))
}

// FuzzFactsMessage: any error the room could report maps to one of the
// listed message ids (so the locale test covers it) and to a form field
// the pages show messages for.
func FuzzFactsMessage(f *testing.F) {
	f.Add("ending.kind", "mate, but the record's final position is not checkmate")
	f.Add("fouls[3].ply", "40 is after the record's last move (3)")
	f.Add("rulings[1].supersedes", "no ruling has id \"9\"")
	f.Add("", "")
	ids := map[string]bool{}
	for _, id := range FactsMessageIDs() {
		ids[id] = true
	}
	forms := map[string]bool{"": true, "by": true, "kind": true, "foul": true, "points_sente": true, "remaining_sente": true,
		"claim": true, "ply": true, "offender": true, "found": true, "supersedes": true}
	f.Fuzz(func(t *testing.T, field, msg string) {
		form, code := factsMessage(&adjudication.FieldError{Field: field, Msg: msg})
		if !ids[code] || !forms[form] {
			t.Fatalf("%q/%q → %q on %q", field, msg, code, form)
		}
	})
}
