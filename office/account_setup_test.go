package office_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func setupInput(token, login string) office.SetupInput {
	return office.SetupInput{Token: token, Login: login, DisplayName: "管理者", Password: "first-admin-pass", Password2: "first-admin-pass"}
}

func TestSetup_TokenLifecycle(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		token, err := f.acc.NewSetupToken(f.ctx)
		if err != nil || len(token) < 40 {
			t.Fatalf("NewSetupToken = %q, %v", token, err)
		}
		// Only the hash is stored: the raw token appears in no setting.
		var rows []store.AppSetting
		if err := s.DB(f.ctx).Find(&rows).Error; err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if strings.Contains(r.Key, token) || strings.Contains(r.Value, token) {
				t.Fatalf("raw token stored in setting %q", r.Key)
			}
		}
		if err := f.acc.CheckSetupToken(f.ctx, token); err != nil {
			t.Fatalf("fresh token refused: %v", err)
		}
		if err := f.acc.CheckSetupToken(f.ctx, token+"x"); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("wrong token: %v, want ErrNotFound", err)
		}
		// Invalid form: nothing created, token still usable.
		bad := setupInput(token, "ad")
		bad.Password2 = "something-else"
		if _, err := f.acc.CompleteSetup(f.ctx, bad); fieldCodes(err)["login"] != "accounts.err.login_length" {
			t.Fatalf("bad form: %v", err)
		}
		if n, _ := s.CountActiveAdmins(f.ctx); n != 0 {
			t.Fatalf("invalid form created an administrator")
		}
		u, err := f.acc.CompleteSetup(f.ctx, setupInput(token, " Admin "))
		if err != nil {
			t.Fatal(err)
		}
		if !u.IsAdmin || u.Login != "admin" {
			t.Fatalf("created %+v", u)
		}
		// Consumed: the same token, and any new request, are refused.
		if _, err := f.acc.CompleteSetup(f.ctx, setupInput(token, "admin2")); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("second setup: %v, want ErrNotFound", err)
		}
		if tok, err := f.acc.NewSetupToken(f.ctx); tok != "" || err != nil {
			t.Fatalf("NewSetupToken with an admin = %q, %v; want empty", tok, err)
		}
		got, err := f.acc.Login(f.ctx, office.LoginInput{Login: "admin", Password: "first-admin-pass", IP: "192.0.2.1"})
		if err != nil || got.ID != u.ID {
			t.Fatalf("first admin cannot sign in: %v", err)
		}
	})
}

func TestSetup_ExpiredTokenRefused(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		token, err := f.acc.NewSetupToken(f.ctx)
		if err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(office.SetupTokenLifetime - time.Second)
		if err := f.acc.CheckSetupToken(f.ctx, token); err != nil {
			t.Fatalf("token refused a second before expiry: %v", err)
		}
		f.clock.Advance(time.Second)
		if _, err := f.acc.CompleteSetup(f.ctx, setupInput(token, "admin")); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("expired token: %v, want ErrNotFound", err)
		}
		// A new token works; minting it pruned the expired one.
		fresh, err := f.acc.NewSetupToken(f.ctx)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		s.DB(f.ctx).Model(&store.AppSetting{}).Where("key LIKE ?", "setup.token.%").Count(&n)
		if n != 1 {
			t.Fatalf("%d setup tokens stored, want 1 (expired one pruned)", n)
		}
		if _, err := f.acc.CompleteSetup(f.ctx, setupInput(fresh, "admin")); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSetup_EarlierTokensStayValid(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		t1, _ := f.acc.NewSetupToken(f.ctx)
		t2, _ := f.acc.NewSetupToken(f.ctx)
		if t1 == t2 {
			t.Fatal("two calls gave the same token")
		}
		for _, tok := range []string{t1, t2} {
			if err := f.acc.CheckSetupToken(f.ctx, tok); err != nil {
				t.Fatalf("token refused: %v", err)
			}
		}
		if _, err := f.acc.CompleteSetup(f.ctx, setupInput(t2, "admin")); err != nil {
			t.Fatal(err)
		}
		if err := f.acc.CheckSetupToken(f.ctx, t1); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("other token after setup: %v", err)
		}
	})
}

// Several processes sharing one database race to create the first
// administrator; exactly one wins.
func TestSetup_ConcurrentProcessesCreateOneAdmin(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, opts store.Options) {
		ctx := context.Background()
		c := newClock()
		var accs []office.Accounts
		var tokens []string
		for range 3 {
			st, err := store.Open(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = st.Close() })
			acc := office.New(st, c.Now).AccountsWithParams(cheapParams)
			tok, err := acc.NewSetupToken(ctx)
			if err != nil || tok == "" {
				t.Fatalf("token: %q %v", tok, err)
			}
			accs, tokens = append(accs, acc), append(tokens, tok)
		}
		const tries = 9
		var wg sync.WaitGroup
		errs := make([]error, tries)
		start := make(chan struct{})
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = accs[i%3].CompleteSetup(ctx, setupInput(tokens[i%3], fmt.Sprintf("admin%d", i)))
			}()
		}
		close(start)
		wg.Wait()
		wins := 0
		for i, err := range errs {
			switch {
			case err == nil:
				wins++
			case errors.Is(err, office.ErrNotFound):
			default:
				t.Errorf("try %d: unexpected error %v", i, err)
			}
		}
		st, _ := store.Open(ctx, opts)
		defer st.Close()
		var admins int64
		st.DB(ctx).Model(&store.User{}).Where("is_admin = ?", true).Count(&admins)
		if wins != 1 || admins != 1 {
			t.Fatalf("%d setups succeeded, %d administrators exist; want 1 and 1", wins, admins)
		}
	})
}
