package office_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// TestParseEmbedOrigins: only scheme://host[:port] is an origin; the
// form's text is forgiving about case, blank lines, a trailing slash and
// repeats, and every bad line is named.
func TestParseEmbedOrigins(t *testing.T) {
	t.Parallel()
	got, err := office.ParseEmbedOrigins("https://example.jp\r\n\n  HTTP://LocalHost:8080/ \nhttps://example.jp\nhttp://[::1]:3000\nhttps://192.0.2.7\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://example.jp", "http://localhost:8080", "http://[::1]:3000", "https://192.0.2.7"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, err := office.ParseEmbedOrigins(" \n　\n"); err != nil || len(got) != 0 {
		t.Errorf("blank text: %v, %v; want an empty list", got, err)
	}
	for _, bad := range []string{
		"example.jp", "ftp://example.jp", "https://example.jp/path", "https://example.jp/embed/", "https://example.jp?x=1",
		"https://example.jp#top", "https://user@example.jp", "https://example.jp:0", "https://example.jp:70000", "https://example.jp:",
		"https://*.example.jp", "https://exa mple.jp", "javascript:alert(1)", "https://example.jp; script-src *", "'self'",
		"https://-bad.jp", "https://例え.jp", "*", "https://", "data:text/html,x",
	} {
		_, err := office.ParseEmbedOrigins("https://ok.example\n" + bad)
		var ve *office.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Field != "origins" || ve.Fields[0].Args["Line"] != 2 {
			t.Errorf("%q: %v; want one error on line 2 of origins", bad, err)
		}
	}
	many := ""
	for i := range 51 {
		many += "https://site" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".example\n"
	}
	if _, err := office.ParseEmbedOrigins(many); err == nil {
		t.Error("51 origins accepted; want at most 50")
	}
}

// TestOrganiserEmbedOrigins_SavedAmongOtherSettings: administrators save
// the list into the organiser's settings without touching other keys; the
// embed pages read it from the event's organiser; others may not change it;
// an empty form removes it.
func TestOrganiserEmbedOrigins_SavedAmongOtherSettings(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("admin", "correct horse battery", true)
		_, someone := f.user("someone", "correct horse battery", false)
		org := f.organiser(`{"require_confirmation": true}`)
		ev := f.event(admin, org.ID, "アマ大会")

		if got, err := f.o.EmbedOrigins(f.ctx, ev); err != nil || len(got) != 0 {
			t.Fatalf("before any list: %v, %v", got, err)
		}
		if err := f.o.SetOrganiserEmbedOrigins(f.ctx, someone, org.ID, "https://example.jp"); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("a non-administrator saved the list: %v", err)
		}
		if err := f.o.SetOrganiserEmbedOrigins(f.ctx, admin, org.ID, "https://example.jp\nnot an origin"); err == nil {
			t.Fatal("a bad line was saved")
		}
		if err := f.o.SetOrganiserEmbedOrigins(f.ctx, admin, org.ID, "https://example.jp\nhttp://localhost:8080/"); err != nil {
			t.Fatal(err)
		}
		want := []string{"https://example.jp", "http://localhost:8080"}
		oe, err := f.o.OrganiserEmbedOrigins(f.ctx, admin, org.ID)
		if err != nil || !slices.Equal(oe.Origins, want) {
			t.Fatalf("read back %v, %v; want %v", oe.Origins, err, want)
		}
		// Events do not copy it: an event created before the list uses it.
		if got, err := f.o.EmbedOrigins(f.ctx, ev); err != nil || !slices.Equal(got, want) {
			t.Fatalf("the event's embeds: %v, %v; want %v", got, err, want)
		}
		stored, err := s.OrganiserByID(f.ctx, org.ID)
		if err != nil {
			t.Fatal(err)
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stored.Settings), &keys); err != nil || string(keys["require_confirmation"]) != "true" {
			t.Fatalf("other settings keys lost: %s", stored.Settings)
		}
		if err := f.o.SetOrganiserEmbedOrigins(f.ctx, admin, org.ID, "\n"); err != nil {
			t.Fatal(err)
		}
		if got, err := f.o.EmbedOrigins(f.ctx, ev); err != nil || len(got) != 0 {
			t.Fatalf("after clearing: %v, %v", got, err)
		}
	})
}
