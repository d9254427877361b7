package office_test

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

// parallelLogins runs n sign-ins at once (login(i), one address) and
// returns how many passwords were checked and how many answers of each
// kind came back.
func parallelLogins(t *testing.T, f *fixture, n int, login func(i int) string, ip string) (checked int64, failed, limited int) {
	t.Helper()
	var count atomic.Int64
	acc := f.acc.WithCheckCounter(&count)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = acc.Login(f.ctx, office.LoginInput{Login: login(i), Password: "wrong-password", IP: ip})
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		switch {
		case errors.Is(err, office.ErrLoginFailed):
			failed++
		case errors.Is(err, office.ErrRateLimited):
			limited++
		default:
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	return count.Load(), failed, limited
}

// Issue 11: the attempt is counted before the password is checked, so 20
// wrong passwords for one account sent at once check at most
// LoginMaxFailures of them; the rest are refused unchecked.
func TestLogin_ParallelWrongPasswordsCheckAtMostTheLimit(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		f.user("sato", "password-of-sato", false)
		checked, failed, limited := parallelLogins(t, f, 20, func(int) string { return "sato" }, "192.0.2.1")
		if checked > office.LoginMaxFailures || failed != office.LoginMaxFailures || limited != 20-office.LoginMaxFailures {
			t.Fatalf("%d passwords checked, %d wrong, %d refused; want at most %d checked, %d wrong, %d refused",
				checked, failed, limited, office.LoginMaxFailures, office.LoginMaxFailures, 20-office.LoginMaxFailures)
		}
		var stored int64
		if err := s.DB(f.ctx).Model(&store.LoginAttempt{}).Where("login = ?", "sato").Count(&stored).Error; err != nil || stored != office.LoginMaxFailures {
			t.Fatalf("%d attempts counted, want %d (%v)", stored, office.LoginMaxFailures, err)
		}
	})
}

// Issue 11: the address has its own window: 20 parallel attempts on 20
// different accounts from one address that has room for only
// LoginMaxFailures more (issue 21: the ceiling is AddressMaxFailures)
// check at most LoginMaxFailures.
func TestLogin_ParallelAttemptsFromOneAddressAcrossAccounts(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		for i := range 20 {
			f.user(fmt.Sprintf("user%02d", i), "password-of-someone", false)
		}
		for i := range office.AddressMaxFailures - office.LoginMaxFailures {
			if err := s.RecordLoginFailure(f.ctx, fmt.Sprintf("earlier%03d", i), "203.0.113.5", f.clock.Now()); err != nil {
				t.Fatal(err)
			}
		}
		checked, failed, limited := parallelLogins(t, f, 20, func(i int) string { return fmt.Sprintf("user%02d", i) }, "203.0.113.5")
		if checked > office.LoginMaxFailures || failed != office.LoginMaxFailures || limited != 20-office.LoginMaxFailures {
			t.Fatalf("%d checked, %d wrong, %d refused; want at most %d checked", checked, failed, limited, office.LoginMaxFailures)
		}
	})
}
