package office_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func TestLogin_RightAndWrongPassword(t *testing.T) {
	t.Parallel()
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

// loginTry signs in as login from ip with pw.
func (f *fixture) loginTry(login, pw, ip string) error {
	_, err := f.acc.Login(f.ctx, office.LoginInput{Login: login, Password: pw, IP: ip})
	return err
}

// Issue 21 item 9: five failures for a login from one address make the
// next attempt from there wait (PairDelay), even with the right password;
// the same login from another address is not held by that pair.
func TestLogin_FiveFailuresDelayTheLoginAtThatAddress(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		for i := range office.LoginMaxFailures {
			if err := f.loginTry("sato", "wrong-password", "192.0.2.1"); !errors.Is(err, office.ErrLoginFailed) {
				t.Fatalf("failure %d: %v", i+1, err)
			}
		}
		err := f.loginTry("sato", "password-of-sato", "192.0.2.1")
		at, _ := office.RetryAt(err)
		if !errors.Is(err, office.ErrRateLimited) || !at.Equal(f.clock.Now().Add(office.PairDelay)) {
			t.Fatalf("6th attempt: %v (retry at %s), want ErrRateLimited until now+%s", err, at, office.PairDelay)
		}
		f.clock.Advance(office.PairDelay - time.Second)
		if err := f.loginTry("sato", "password-of-sato", "192.0.2.1"); !errors.Is(err, office.ErrRateLimited) {
			t.Fatalf("a second before the delay ends: %v", err)
		}
		if err := f.loginTry("sato", "password-of-sato", "198.51.100.7"); err != nil {
			t.Fatalf("from another address: %v", err)
		}
		f.clock.Advance(time.Second)
		if err := f.loginTry("sato", "password-of-sato", "192.0.2.1"); err != nil {
			t.Fatalf("after the delay: %v", err)
		}
	})
}

// Issue 21 item 9: an attacker at a shared address failing for one login,
// however often, does not stop another person at that address from signing
// in with the right password (the old limit locked the address after 5).
func TestLogin_AttackerAtAnAddressDoesNotStopAnotherLoginThere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		f.user("kato", "password-of-kato", false)
		const venue = "203.0.113.5"
		failed := 0
		for range 40 {
			err := f.loginTry("sato", "wrong-password", venue)
			switch {
			case errors.Is(err, office.ErrLoginFailed):
				failed++
			case !errors.Is(err, office.ErrRateLimited):
				t.Fatal(err)
			}
			f.clock.Advance(20 * time.Second)
		}
		if failed < office.LoginMaxFailures {
			t.Fatalf("only %d failures stored", failed)
		}
		if err := f.loginTry("sato", "password-of-sato", venue); !errors.Is(err, office.ErrRateLimited) {
			t.Fatalf("the attacked login is not throttled at the venue: %v", err)
		}
		if err := f.loginTry("kato", "password-of-kato", venue); err != nil {
			t.Fatalf("another person at the venue is refused: %v", err)
		}
	})
}

// Issue 21 item 9: failures for one login from ever new addresses slow it
// down — after LoginFreeAttempts each attempt waits LoginDelay, doubling —
// but the wait never exceeds LoginMaxDelay, and once it has passed the
// right password gets in.
func TestLogin_FailuresFromManyAddressesSlowTheLoginBoundedly(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		addr := 0
		fresh := func() string { addr++; return fmt.Sprintf("10.0.%d.%d", addr/250, addr%250+1) }
		for i := range office.LoginFreeAttempts {
			if err := f.loginTry("sato", "wrong-password", fresh()); !errors.Is(err, office.ErrLoginFailed) {
				t.Fatalf("free failure %d: %v", i+1, err)
			}
		}
		want := office.LoginDelay
		var waits []time.Duration
		for step := range 7 {
			last := f.clock.Now()
			err := f.loginTry("sato", "password-of-sato", fresh())
			at, ok := office.RetryAt(err)
			if !ok {
				t.Fatalf("step %d: %v, want a delay", step, err)
			}
			waits = append(waits, at.Sub(last))
			if at.Sub(last) != want {
				t.Fatalf("step %d: wait %s, want %s (waits so far %v)", step, at.Sub(last), want, waits)
			}
			f.clock.Advance(want)
			if step < 6 {
				if err := f.loginTry("sato", "wrong-password", fresh()); !errors.Is(err, office.ErrLoginFailed) {
					t.Fatalf("step %d: the attempt after the wait: %v", step, err)
				}
			} else if err := f.loginTry("sato", "password-of-sato", fresh()); err != nil {
				t.Fatalf("the right password after the longest wait: %v", err)
			}
			want = min(2*want, office.LoginMaxDelay)
		}
		if waits[len(waits)-1] != office.LoginMaxDelay || waits[len(waits)-2] != office.LoginMaxDelay {
			t.Fatalf("waits %v do not reach the cap %s and stay there", waits, office.LoginMaxDelay)
		}
	})
}

// Issue 21 item 9: the address has its own, much higher ceiling: after
// AddressMaxFailures failures in the window (for any logins) it is refused
// until the oldest leaves the window; another address is not.
func TestLogin_AddressCeilingTrips(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		const venue = "203.0.113.5"
		oldest := f.clock.Now()
		for i := range office.AddressMaxFailures - 1 {
			if err := s.RecordLoginFailure(f.ctx, fmt.Sprintf("guess%03d", i), venue, oldest); err != nil {
				t.Fatal(err)
			}
		}
		f.clock.Advance(time.Minute)
		if err := f.loginTry("sato", "password-of-sato", venue); err != nil {
			t.Fatalf("below the ceiling (%d failures): %v", office.AddressMaxFailures-1, err)
		}
		if err := f.loginTry("guess-last", "x", venue); !errors.Is(err, office.ErrLoginFailed) {
			t.Fatalf("the %dth failure: %v", office.AddressMaxFailures, err)
		}
		err := f.loginTry("sato", "password-of-sato", venue)
		at, _ := office.RetryAt(err)
		if !errors.Is(err, office.ErrRateLimited) || !at.Equal(oldest.Add(office.LoginWindow)) {
			t.Fatalf("at the ceiling: %v (retry at %s), want refused until %s", err, at, oldest.Add(office.LoginWindow))
		}
		if err := f.loginTry("sato", "password-of-sato", "198.51.100.7"); err != nil {
			t.Fatalf("another address: %v", err)
		}
		f.clock.Advance(oldest.Add(office.LoginWindow).Sub(f.clock.Now()))
		if err := f.loginTry("sato", "password-of-sato", venue); err != nil {
			t.Fatalf("once the oldest left the window: %v", err)
		}
	})
}

// Issue 21 item 9: a success resets the (login, address) counter: four
// failures, a success, and four failures again from the same address are
// all answered "wrong", and the right password still gets in.
func TestLogin_SuccessResetsThePairCounter(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		for round := range 2 {
			for i := range office.LoginMaxFailures - 1 {
				if err := f.loginTry("sato", "wrong-password", "192.0.2.1"); !errors.Is(err, office.ErrLoginFailed) {
					t.Fatalf("round %d failure %d: %v", round, i+1, err)
				}
			}
			if err := f.loginTry("sato", "password-of-sato", "192.0.2.1"); err != nil {
				t.Fatalf("round %d: refused though the counter was reset: %v", round, err)
			}
		}
		var n int64
		if err := s.DB(f.ctx).Model(&store.LoginAttempt{}).Where("login = ? AND ip = ?", "sato", "192.0.2.1").Count(&n).Error; err != nil || n != 0 {
			t.Fatalf("%d attempts of the pair left after a success (%v)", n, err)
		}
	})
}

func TestChangePassword(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("root", "root-password", true)
		_, err := f.acc.CreateUser(f.ctx, admin, office.NewUser{Login: "longlogin10", DisplayName: "x", Password: "LongLogin10", Password2: "LongLogin10"})
		if got := fieldCodes(err)["password"]; got != "accounts.err.password_is_login" {
			t.Fatalf("password equal to login: %q (%v)", got, err)
		}
	})
}
