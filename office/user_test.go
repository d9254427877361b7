package office_test

import (
	"errors"
	"testing"

	"kisen/office"
	"kisen/store"
	"kisen/store/storetest"
)

func TestUsers_OnlyAdministratorsManage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		u, user := f.user("sato", "password-of-sato", false)
		in := office.NewUser{Login: "kato", DisplayName: "加藤", Password: "kato-password", Password2: "kato-password"}
		for name, a := range map[string]office.Actor{"public": {}, "user": user} {
			if _, err := f.acc.CreateUser(f.ctx, a, in); !errors.Is(err, office.ErrForbidden) {
				t.Errorf("%s CreateUser: %v", name, err)
			}
			if _, err := f.acc.Users(f.ctx, a); !errors.Is(err, office.ErrForbidden) {
				t.Errorf("%s Users: %v", name, err)
			}
			if err := f.acc.SetUserAdmin(f.ctx, a, u.ID, true); !errors.Is(err, office.ErrForbidden) {
				t.Errorf("%s SetUserAdmin: %v", name, err)
			}
			if err := f.acc.SetUserDisabled(f.ctx, a, u.ID, true); !errors.Is(err, office.ErrForbidden) {
				t.Errorf("%s SetUserDisabled: %v", name, err)
			}
		}
		if got, _ := s.UserByID(f.ctx, u.ID); got.IsAdmin || got.Disabled {
			t.Fatalf("refused change was written: %+v", got)
		}
	})
}

func TestUsers_CreateValidates(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		_, admin := f.user("root", "root-password", true)
		f.user("sato", "password-of-sato", false)
		cases := []struct {
			name  string
			in    office.NewUser
			field string
			code  string
		}{
			{"login missing", office.NewUser{DisplayName: "x", Password: "0123456789", Password2: "0123456789"}, "login", "accounts.err.required"},
			{"login taken (any case)", office.NewUser{Login: "SATO", DisplayName: "x", Password: "0123456789", Password2: "0123456789"}, "login", "accounts.err.login_taken"},
			{"login characters", office.NewUser{Login: "佐藤", DisplayName: "x", Password: "0123456789", Password2: "0123456789"}, "login", "accounts.err.login_chars"},
			{"name missing", office.NewUser{Login: "kato", DisplayName: "  ", Password: "0123456789", Password2: "0123456789"}, "display_name", "accounts.err.required"},
			{"password 9 characters", office.NewUser{Login: "kato", DisplayName: "x", Password: "012345678", Password2: "012345678"}, "password", "accounts.err.password_short"},
			{"confirmation differs", office.NewUser{Login: "kato", DisplayName: "x", Password: "0123456789", Password2: "0123456789x"}, "password2", "accounts.err.password_mismatch"},
		}
		for _, tc := range cases {
			_, err := f.acc.CreateUser(f.ctx, admin, tc.in)
			if !errors.Is(err, office.ErrInvalid) || fieldCodes(err)[tc.field] != tc.code {
				t.Errorf("%s: %v, want %s on %s", tc.name, err, tc.code, tc.field)
			}
		}
		users, _ := s.Users(f.ctx)
		if len(users) != 2 {
			t.Fatalf("invalid input created users: %d", len(users))
		}
		// Ten characters (not bytes): a Japanese password of ten characters passes.
		u, err := f.acc.CreateUser(f.ctx, admin, office.NewUser{Login: "kato", DisplayName: "加藤", Password: "将棋の駒は全部で四十枚", Password2: "将棋の駒は全部で四十枚"})
		if err != nil || u.IsAdmin {
			t.Fatalf("create: %+v %v", u, err)
		}
		if _, err := f.acc.Login(f.ctx, office.LoginInput{Login: "kato", Password: "将棋の駒は全部で四十枚"}); err != nil {
			t.Fatalf("new user cannot sign in: %v", err)
		}
	})
}

func TestUsers_LastActiveAdministratorIsKept(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		root, rootA := f.user("root", "root-password", true)
		other, _ := f.user("sato", "password-of-sato", false)
		lastAdmin := func(err error) bool { return fieldCodes(err)["user"] == "accounts.err.last_admin" }
		if err := f.acc.SetUserAdmin(f.ctx, rootA, root.ID, false); !lastAdmin(err) {
			t.Fatalf("revoke last admin: %v", err)
		}
		if err := f.acc.SetUserDisabled(f.ctx, rootA, root.ID, true); !lastAdmin(err) {
			t.Fatalf("disable last admin: %v", err)
		}
		// With a second active admin both become possible.
		if err := f.acc.SetUserAdmin(f.ctx, rootA, other.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := f.acc.SetUserDisabled(f.ctx, rootA, other.ID, true); err != nil {
			t.Fatal(err)
		}
		// other is a disabled admin: root is the last *active* one again.
		if err := f.acc.SetUserAdmin(f.ctx, rootA, root.ID, false); !lastAdmin(err) {
			t.Fatalf("revoke last active admin: %v", err)
		}
		if err := f.acc.SetUserDisabled(f.ctx, rootA, other.ID, false); err != nil {
			t.Fatal(err)
		}
		if err := f.acc.SetUserAdmin(f.ctx, rootA, root.ID, false); err != nil {
			t.Fatalf("revoke with another active admin: %v", err)
		}
		if n, _ := s.CountActiveAdmins(f.ctx); n != 1 {
			t.Fatalf("%d active admins, want 1", n)
		}
		if err := f.acc.SetUserDisabled(f.ctx, rootA, 999999, true); !errors.Is(err, office.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
	})
}
