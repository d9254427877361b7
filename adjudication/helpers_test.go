package adjudication

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func sp(s Side) *Side { return &s }

func dur(s string) Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		panic(err) // test tables only
	}
	return Duration(d)
}

// amateur is the default settings for an amateur event.
func amateur() Settings {
	s := DefaultSettings()
	s.Kind = EventAmateur
	return s
}

func ended(kind EndingKind, by *Side) Facts {
	return Facts{
		GameID:  "g1",
		Players: Players{Sente: Player{ID: "p1", Name: "先手太郎"}, Gote: Player{ID: "p2", Name: "後手花子"}},
		Ending:  Ending{Kind: kind, By: by},
	}
}

// completeRecord is a record analysis of n legal moves ending in an
// ordinary position (nobody mated, no repetition).
func completeRecord(n int) *Findings {
	side := Sente
	if n%2 == 1 {
		side = Gote
	}
	return &Findings{Plies: n, Complete: true, FinalOccurrences: 1, SideToMove: side,
		Points: &Points{Sente: 27, Gote: 27}, Declaration: &DeclarationFacts{}}
}

func mustDecide(t *testing.T, s Settings, f Facts) Outcome {
	t.Helper()
	o, err := Decide(s, f)
	if err != nil {
		t.Fatalf("Decide: %v", err)
	}
	return o
}

// wantWin checks the winner and reason.
func wantWin(t *testing.T, o Outcome, winner Side, reason Reason) {
	t.Helper()
	if o.Result != winFor(winner) || o.Winner == nil || *o.Winner != winner || o.Loser == nil || *o.Loser != winner.Opponent() {
		t.Fatalf("result %s winner %v, want %s to win (outcome %+v)", o.Result, o.Winner, winner, o)
	}
	if o.Reason != reason {
		t.Fatalf("reason %s, want %s (outcome %+v)", o.Reason, reason, o)
	}
}

func wantRedo(t *testing.T, o Outcome, reason Reason) {
	t.Helper()
	if o.Result != Redo || o.Winner != nil || o.Reason != reason {
		t.Fatalf("result %s reason %s, want redo for %s (outcome %+v)", o.Result, o.Reason, reason, o)
	}
	if o.MatchComplete {
		t.Fatalf("a redo leaves the match incomplete (D-R3)")
	}
}

func wantRules(t *testing.T, o Outcome, rules ...string) {
	t.Helper()
	for _, r := range rules {
		if !slices.Contains(o.Rules, r) {
			t.Fatalf("rules %v lack %s", o.Rules, r)
		}
	}
}

func wantArticle(t *testing.T, o Outcome, article string) {
	t.Helper()
	if !slices.Contains(o.Articles, article) {
		t.Fatalf("articles %v lack %s", o.Articles, article)
	}
}

// wantFieldErr checks err is bad input naming field.
func wantFieldErr(t *testing.T, err error, field string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one naming %s", field)
	}
	var fe *FieldError
	if !errors.As(err, &fe) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("error %v is not a FieldError", err)
	}
	if fe.Field != field && !strings.HasPrefix(fe.Field, field+".") && !strings.HasPrefix(fe.Field, field+"[") {
		t.Fatalf("error names %q, want %q (%v)", fe.Field, field, err)
	}
}
