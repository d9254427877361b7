package office_test

import (
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// A token acts as its scope's role in its own event only: made by an
// administrator, it is not one, and it never holds its creator's roles
// (issue 15 part 4). It expires at the end of its day in Japan.
func TestAPIToken_ActsOnlyAsItsScopeInItsEvent(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("root", "root-password", true)
		dirU, director := f.user("director", "director-pass", false)
		_, recorder := f.user("recorder", "recorder-pass", false)
		org := f.organiser("{}")
		ev := f.event(admin, org.ID, "竜王戦")    // a draft
		other := f.event(admin, org.ID, "名人戦") // a draft the token has nothing to do with
		for _, g := range []office.RoleGrant{{EventID: ev.ID, UserID: dirU.ID, Role: office.RoleDirector}} {
			if err := f.o.GrantEventRole(f.ctx, admin, g); err != nil {
				t.Fatal(err)
			}
		}
		expires := f.clock.Now().Add(48 * time.Hour).In(time.FixedZone("JST", 9*3600)).Format(office.DateLayout)
		mk := func(by office.Actor, scope string) office.Actor {
			t.Helper()
			made, err := f.o.CreateAPIToken(f.ctx, by, office.TokenInput{EventID: ev.ID, Name: "端末 " + scope, Scope: scope, ExpiresOn: expires})
			if err != nil {
				t.Fatal(err)
			}
			a, err := f.o.AuthenticateToken(f.ctx, made.Secret)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		// Only directors and administrators make tokens; a token makes none.
		if _, err := f.o.CreateAPIToken(f.ctx, recorder, office.TokenInput{EventID: ev.ID, Name: "x", Scope: office.ScopeResults, ExpiresOn: expires}); err == nil {
			t.Fatal("a user without a role made a token")
		}
		results := mk(admin, office.ScopeResults)
		byDirector := mk(director, office.ScopeRulings)
		drafts := mk(admin, office.ScopeReadDrafts)
		if _, err := f.o.CreateAPIToken(f.ctx, results, office.TokenInput{EventID: ev.ID, Name: "y", Scope: office.ScopeResults, ExpiresOn: expires}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("a token made a token: %v", err)
		}
		for _, tc := range []struct {
			name  string
			actor office.Actor
			event int64
			roles []string
			want  error
		}{
			{"results token as recorder", results, ev.ID, []string{office.RoleRecorder}, nil},
			{"results token not director (though made by an admin)", results, ev.ID, []string{office.RoleDirector}, office.ErrNotFound},
			{"results token in another event", results, other.ID, []string{office.RoleRecorder}, office.ErrNotFound},
			{"rulings token as arbiter", byDirector, ev.ID, []string{office.RoleArbiter}, nil},
			{"rulings token not its director's director", byDirector, ev.ID, []string{office.RoleDirector}, office.ErrNotFound},
			{"read_drafts token writes nothing", drafts, ev.ID, []string{office.RoleRecorder, office.RoleDirector, office.RoleArbiter}, office.ErrForbidden},
		} {
			err := f.o.RequireEventRole(f.ctx, tc.actor, tc.event, tc.roles...)
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			}
		}
		// Only the read_drafts token sees the draft, and only its own.
		if _, err := f.o.Event(f.ctx, drafts, ev.ID); err != nil {
			t.Errorf("read_drafts token on its draft: %v", err)
		}
		if _, err := f.o.Event(f.ctx, drafts, other.ID); !errors.Is(err, office.ErrNotFound) {
			t.Errorf("read_drafts token on another draft: %v", err)
		}
		if _, err := f.o.Event(f.ctx, results, ev.ID); !errors.Is(err, office.ErrNotFound) {
			t.Errorf("results token reads the draft: %v", err)
		}
		if es, err := f.o.Events(f.ctx, results); err != nil || len(es) != 0 {
			t.Errorf("a token lists its creator's drafts: %v %v", es, err)
		}
		// Expiry at the end of the day in Japan; revocation at once.
		made, err := f.o.CreateAPIToken(f.ctx, admin, office.TokenInput{EventID: ev.ID, Name: "期限", Scope: office.ScopeResults, ExpiresOn: expires})
		if err != nil {
			t.Fatal(err)
		}
		if !made.Token.ExpiresAt.After(f.clock.Now().Add(48*time.Hour)) || made.Token.ExpiresAt.Sub(f.clock.Now()) > 72*time.Hour {
			t.Fatalf("expires %v (now %v, date %s)", made.Token.ExpiresAt, f.clock.Now(), expires)
		}
		f.clock.Advance(made.Token.ExpiresAt.Sub(f.clock.Now()) - time.Second)
		if _, err := f.o.AuthenticateToken(f.ctx, made.Secret); err != nil {
			t.Fatalf("a second before expiry: %v", err)
		}
		f.clock.Advance(time.Second)
		if _, err := f.o.AuthenticateToken(f.ctx, made.Secret); !errors.Is(err, office.ErrUnauthorized) {
			t.Fatalf("at expiry: %v", err)
		}
		for _, bad := range []string{"", "kisen_", "Bearer x", made.Secret + "x"} {
			if _, err := f.o.AuthenticateToken(f.ctx, bad); !errors.Is(err, office.ErrUnauthorized) {
				t.Errorf("secret %q: %v", bad, err)
			}
		}
		// Bad input names the field and writes nothing.
		before, _ := f.o.APITokens(f.ctx, admin, ev.ID)
		_, err = f.o.CreateAPIToken(f.ctx, admin, office.TokenInput{EventID: ev.ID, Name: " ", Scope: "root", ExpiresOn: "2099-01-01"})
		codes := fieldCodes(err)
		if codes["name"] != "api.err.name_required" || codes["scope"] != "api.err.scope" || codes["expires_on"] != "api.err.expiry_range" {
			t.Fatalf("codes %v", codes)
		}
		if after, _ := f.o.APITokens(f.ctx, admin, ev.ID); len(after) != len(before) {
			t.Fatal("a refused token was written")
		}
	})
}

// Revoking another event's token answers exactly as a missing token
// (not found), whether that token is live or already revoked; only this
// event's revoked token is a conflict (issue 21: ids cannot be
// enumerated across events).
func TestAPIToken_RevokeAnotherEventsTokenIsNotFound(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("root", "root-password", true)
		org := f.organiser("{}")
		ev := f.event(admin, org.ID, "竜王戦")
		other := f.event(admin, org.ID, "名人戦")
		expires := f.clock.Now().Add(48 * time.Hour).In(time.FixedZone("JST", 9*3600)).Format(office.DateLayout)
		mine, err := f.o.CreateAPIToken(f.ctx, admin, office.TokenInput{EventID: ev.ID, Name: "a", Scope: office.ScopeResults, ExpiresOn: expires})
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := f.o.CreateAPIToken(f.ctx, admin, office.TokenInput{EventID: other.ID, Name: "b", Scope: office.ScopeResults, ExpiresOn: expires})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.o.RevokeAPIToken(f.ctx, admin, ev.ID, theirs.Token.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("another event's live token: %v", err)
		}
		if err := f.o.RevokeAPIToken(f.ctx, admin, other.ID, theirs.Token.ID); err != nil {
			t.Fatal(err)
		}
		if err := f.o.RevokeAPIToken(f.ctx, admin, ev.ID, theirs.Token.ID); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("another event's revoked token: %v", err)
		}
		if err := f.o.RevokeAPIToken(f.ctx, admin, ev.ID, theirs.Token.ID+1000); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("a missing token: %v", err)
		}
		if err := f.o.RevokeAPIToken(f.ctx, admin, ev.ID, mine.Token.ID); err != nil {
			t.Fatal(err)
		}
		if err := f.o.RevokeAPIToken(f.ctx, admin, ev.ID, mine.Token.ID); !errors.Is(err, office.ErrConflict) {
			t.Fatalf("this event's revoked token: %v", err)
		}
	})
}
