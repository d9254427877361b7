package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"kisen/store"
	"kisen/store/storetest"
)

// A statement the append-only triggers refuse (migration 00080) reaches the
// error handler as store.ErrAppendOnly and is answered 409, not 500.
func TestErrors_AppendOnlyRefusalIsConflict(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		a := newTestApp(t, s)
		ctx := context.Background()
		db := s.DB(ctx)
		u := store.User{Login: "arbiter", DisplayName: "立会人", PasswordHash: "x"}
		o := store.Organiser{Name: "棋戦協会", Kind: "federation"}
		for _, v := range []any{&u, &o} {
			if err := db.Create(v).Error; err != nil {
				t.Fatal(err)
			}
		}
		ev := store.Event{OrganiserID: o.ID, Name: "王座戦", Kind: "knockout", StartDate: "2026-04-01", EndDate: "2026-04-30", CreatedBy: u.ID}
		if err := db.Create(&ev).Error; err != nil {
			t.Fatal(err)
		}
		g := store.Game{EventID: ev.ID}
		if err := db.Create(&g).Error; err != nil {
			t.Fatal(err)
		}
		if err := s.AppendResult(ctx, &store.GameResult{GameID: g.ID, Result: "sente_win", Reason: "resign", EnteredBy: u.ID, EnteredAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		err := s.Tx(ctx, func(tx *store.Store) error {
			return tx.DB(ctx).Exec("DELETE FROM game_results").Error
		})
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("Accept", "application/json")
		rec := httptest.NewRecorder()
		a.srv.HandleError(err, a.srv.Echo.NewContext(req, rec))
		var body struct{ Code string }
		_ = json.Unmarshal(rec.Body.Bytes(), &body)
		if rec.Code != http.StatusConflict || body.Code != "error.conflict" {
			t.Fatalf("%v → %d %s, want 409 error.conflict", err, rec.Code, rec.Body)
		}
	})
}
