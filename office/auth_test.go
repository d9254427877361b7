package office_test

import (
	"errors"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func TestLogin_RightAndWrongPassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		u, _ := f.user("sato", "password-of-sato", false)
		disabled, _ := f.user("kato", "password-of-kato", false)
		if err := s.UpdateUser(f.ctx, disabled.ID, store.UserUpdate{Disabled: ptr(true)}, f.clock.Now()); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name, login, pw string
			ok              bool
		}{
			{"right", "sato", "password-of-sato", true},
			{"login is case-insensitive", " SATO ", "password-of-sato", true},
			{"wrong password", "sato", "password-of-kato", false},
			{"unknown login", "nobody", "password-of-sato", false},
			{"disabled user", "kato", "password-of-kato", false},
		} {
			got, err := f.acc.Login(f.ctx, office.LoginInput{Login: tc.login, Password: tc.pw, IP: "192.0.2.9"})
			if tc.ok && (err != nil || got.ID != u.ID) {
				t.Errorf("%s: %v", tc.name, err)
			}
			if !tc.ok && !errors.Is(err, office.ErrLoginFailed) {
				t.Errorf("%s: %v, want ErrLoginFailed", tc.name, err)
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

func TestLogin_RateLimitAfterFiveFailures(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		try := func(pw, ip string) error {
			_, err := f.acc.Login(f.ctx, office.LoginInput{Login: "sato", Password: pw, IP: ip})
			return err
		}
		for i := range office.LoginMaxFailures {
			if err := try("wrong-password", "192.0.2.1"); !errors.Is(err, office.ErrLoginFailed) {
				t.Fatalf("failure %d: %v", i+1, err)
			}
			f.clock.Advance(time.Minute)
		}
		// Refused now even with the right password, and from another address
		// (the login's counter), until the first failure leaves the window.
		if err := try("password-of-sato", "192.0.2.1"); !errors.Is(err, office.ErrRateLimited) {
			t.Fatalf("6th attempt: %v, want ErrRateLimited", err)
		}
		if err := try("password-of-sato", "198.51.100.7"); !errors.Is(err, office.ErrRateLimited) {
			t.Fatalf("6th attempt from elsewhere: %v, want ErrRateLimited", err)
		}
		// Failures at t0..t0+4m; at t0+15m the first has left the window.
		f.clock.Advance(office.LoginWindow - office.LoginMaxFailures*time.Minute - time.Second)
		if err := try("password-of-sato", "192.0.2.1"); !errors.Is(err, office.ErrRateLimited) {
			t.Fatalf("just inside the window: %v, want ErrRateLimited", err)
		}
		f.clock.Advance(time.Second)
		if err := try("password-of-sato", "192.0.2.1"); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

func TestLogin_SuccessResetsTheLoginsCounter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		try := func(pw, ip string) error {
			_, err := f.acc.Login(f.ctx, office.LoginInput{Login: "sato", Password: pw, IP: ip})
			return err
		}
		for range office.LoginMaxFailures - 1 {
			_ = try("wrong-password", "192.0.2.1")
		}
		if err := try("password-of-sato", "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		// From a fresh address, four more failures are allowed again: the
		// login's count restarted at zero.
		for i := range office.LoginMaxFailures - 1 {
			if err := try("wrong-password", "198.51.100.7"); !errors.Is(err, office.ErrLoginFailed) {
				t.Fatalf("failure %d after reset: %v", i+1, err)
			}
		}
		if err := try("password-of-sato", "198.51.100.7"); err != nil {
			t.Fatalf("login refused though only 4 failures since the success: %v", err)
		}
	})
}

func TestLogin_RateLimitPerAddressAcrossLogins(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		for _, login := range []string{"a1", "a2", "a3", "a4", "a5"} {
			_, _ = f.acc.Login(f.ctx, office.LoginInput{Login: login, Password: "x", IP: "203.0.113.5"})
		}
		_, err := f.acc.Login(f.ctx, office.LoginInput{Login: "sato", Password: "password-of-sato", IP: "203.0.113.5"})
		if !errors.Is(err, office.ErrRateLimited) {
			t.Fatalf("address with 5 failures: %v, want ErrRateLimited", err)
		}
		if _, err := f.acc.Login(f.ctx, office.LoginInput{Login: "sato", Password: "password-of-sato", IP: "203.0.113.6"}); err != nil {
			t.Fatalf("other address: %v", err)
		}
	})
}

func TestChangePassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, sato := f.user("sato", "password-of-sato", false)
		cases := []struct {
			name  string
			in    office.PasswordChange
			field string
			code  string
		}{
			{"wrong current", office.PasswordChange{Current: "nope", New: "new-password-1", New2: "new-password-1"}, "current", "accounts.err.current_wrong"},
			{"too short", office.PasswordChange{Current: "password-of-sato", New: "short", New2: "short"}, "new", "accounts.err.password_short"},
			{"mismatch", office.PasswordChange{Current: "password-of-sato", New: "new-password-1", New2: "new-password-2"}, "new2", "accounts.err.password_mismatch"},
			{"unchanged", office.PasswordChange{Current: "password-of-sato", New: "password-of-sato", New2: "password-of-sato"}, "new", "accounts.err.password_same"},
		}
		for _, tc := range cases {
			err := f.acc.ChangePassword(f.ctx, sato, tc.in)
			if got := fieldCodes(err)[tc.field]; got != tc.code {
				t.Errorf("%s: field %s code %q (err %v), want %q", tc.name, tc.field, got, err, tc.code)
			}
		}
		if err := f.acc.ChangePassword(f.ctx, office.Actor{}, office.PasswordChange{}); !errors.Is(err, office.ErrForbidden) {
			t.Fatalf("public: %v", err)
		}
		err := f.acc.ChangePassword(f.ctx, sato, office.PasswordChange{Current: "password-of-sato", New: "brand-new-password", New2: "brand-new-password"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.acc.Login(f.ctx, office.LoginInput{Login: "sato", Password: "password-of-sato"}); !errors.Is(err, office.ErrLoginFailed) {
			t.Fatalf("old password still works: %v", err)
		}
		if _, err := f.acc.Login(f.ctx, office.LoginInput{Login: "sato", Password: "brand-new-password"}); err != nil {
			t.Fatalf("new password: %v", err)
		}
	})
}

func TestPasswordRule_NotEqualToLogin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("root", "root-password", true)
		_, err := f.acc.CreateUser(f.ctx, admin, office.NewUser{Login: "longlogin10", DisplayName: "x", Password: "LongLogin10", Password2: "LongLogin10"})
		if got := fieldCodes(err)["password"]; got != "accounts.err.password_is_login" {
			t.Fatalf("password equal to login: %q (%v)", got, err)
		}
	})
}
