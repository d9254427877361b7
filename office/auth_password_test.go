package office_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"kisen/office"
)

func TestPassword_HashVerifies(t *testing.T) {
	t.Parallel()
	h, err := office.HashPassword("correct horse battery", cheapParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pw   string
		want bool
	}{
		{"correct horse battery", true},
		{"correct horse batterY", false},
		{"correct horse battery ", false},
		{"", false},
	} {
		ok, err := office.VerifyPassword(h, tc.pw)
		if err != nil || ok != tc.want {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", tc.pw, ok, err, tc.want)
		}
	}
}

func TestPassword_EncodedParametersAreParsed(t *testing.T) {
	t.Parallel()
	p := office.PasswordParams{Memory: 96, Time: 3, Threads: 2, SaltLen: 12, KeyLen: 24}
	h, err := office.HashPassword("pw", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=96,t=3,p=2$") {
		t.Fatalf("encoded form %q", h)
	}
	got, err := office.HashParams(h)
	if err != nil || got != p {
		t.Fatalf("HashParams = %+v, %v; want %+v", got, err, p)
	}
	// A known salt gives a deterministic string; a second salt a different one.
	h1, _ := office.HashPassword("pw", p, bytes.NewReader(bytes.Repeat([]byte{1}, 12)))
	h2, _ := office.HashPassword("pw", p, bytes.NewReader(bytes.Repeat([]byte{2}, 12)))
	if h1 == h2 || !strings.Contains(h1, "$AQEBAQEBAQEBAQEB$") {
		t.Fatalf("salt not used as given: %q %q", h1, h2)
	}
}

func TestPassword_DefaultParametersAreTheDocumentedOnes(t *testing.T) {
	t.Parallel()
	p := office.DefaultPasswordParams
	if p.Memory != 65536 || p.Time != 2 || p.Threads != 2 || p.SaltLen != 16 || p.KeyLen != 32 {
		t.Fatalf("default parameters changed: %+v (update docs/accounts-and-events.md)", p)
	}
}

func TestPassword_TamperedHashFails(t *testing.T) {
	t.Parallel()
	h, err := office.HashPassword("s3cret-password", cheapParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(h, "$")
	flip := func(s string) string { // change one base64 character
		b := []byte(s)
		if b[0] == 'A' {
			b[0] = 'B'
		} else {
			b[0] = 'A'
		}
		return string(b)
	}
	join := func(p ...string) string { return strings.Join(p, "$") }
	cases := []struct {
		name    string
		hash    string
		badHash bool // malformed (error), otherwise a clean mismatch
	}{
		{"key changed", join(parts[0], parts[1], parts[2], parts[3], parts[4], flip(parts[5])), false},
		{"salt changed", join(parts[0], parts[1], parts[2], parts[3], flip(parts[4]), parts[5]), false},
		{"passes changed", join(parts[0], parts[1], parts[2], "m=64,t=2,p=1", parts[4], parts[5]), false},
		{"algorithm argon2i", join(parts[0], "argon2i", parts[2], parts[3], parts[4], parts[5]), true},
		{"version 16", join(parts[0], parts[1], "v=16", parts[3], parts[4], parts[5]), true},
		{"missing field", join(parts[0], parts[1], parts[2], parts[3], parts[5]), true},
		{"zero passes", join(parts[0], parts[1], parts[2], "m=64,t=0,p=1", parts[4], parts[5]), true},
		{"huge memory", join(parts[0], parts[1], parts[2], "m=4294967295,t=1,p=1", parts[4], parts[5]), true},
		{"memory below lanes", join(parts[0], parts[1], parts[2], "m=8,t=1,p=4", parts[4], parts[5]), true},
		{"leading zero", join(parts[0], parts[1], parts[2], "m=064,t=1,p=1", parts[4], parts[5]), true},
		{"padded base64", join(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]+"="), true},
		{"empty", "", true},
		{"plain text", "s3cret-password", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, err := office.VerifyPassword(tc.hash, "s3cret-password")
			if ok {
				t.Fatal("tampered hash verified")
			}
			if got := errors.Is(err, office.ErrBadHash); got != tc.badHash {
				t.Fatalf("error %v; want malformed=%v", err, tc.badHash)
			}
		})
	}
}

func TestPassword_RejectsBadParameters(t *testing.T) {
	t.Parallel()
	for _, p := range []office.PasswordParams{{}, {Memory: 64, Time: 1, Threads: 1, SaltLen: 0, KeyLen: 32}} {
		if _, err := office.HashPassword("pw", p, nil); err == nil {
			t.Errorf("HashPassword with %+v succeeded", p)
		}
	}
}

// FuzzVerifyPassword: whatever the stored string, verification never
// panics, a malformed string is always an error and never a match, and a
// string that parses has parameters inside the limits.
func FuzzVerifyPassword(f *testing.F) {
	good, _ := office.HashPassword("pw", cheapParams, nil)
	for _, s := range []string{good, "", "$argon2id$v=19$m=64,t=1,p=1$$", "$argon2id$v=19$m=8,t=1,p=1$AAAA$AAAAAA", "$$$$$"} {
		f.Add(s, "pw")
	}
	f.Fuzz(func(t *testing.T, encoded, pw string) {
		p, perr := office.HashParams(encoded)
		if perr == nil && (p.Memory > 1<<16 || p.Time > 4) {
			t.Skip("parses, but too costly to verify in a fuzz loop")
		}
		ok, err := office.VerifyPassword(encoded, pw)
		if (err == nil) != (perr == nil) {
			t.Fatalf("VerifyPassword error %v but HashParams error %v", err, perr)
		}
		if err != nil {
			if ok {
				t.Fatal("malformed hash matched")
			}
			if !errors.Is(err, office.ErrBadHash) {
				t.Fatalf("error %v does not wrap ErrBadHash", err)
			}
			return
		}
		if p.Memory < 8*uint32(p.Threads) || p.Time == 0 || p.KeyLen < 4 || p.SaltLen == 0 {
			t.Fatalf("accepted out-of-range parameters %+v", p)
		}
	})
}

// FuzzHashPassword: any password hashes, verifies, and a different one
// does not.
func FuzzHashPassword(f *testing.F) {
	for _, s := range []string{"", "password12", "パスワード十文字以上です", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pw string) {
		h, err := office.HashPassword(pw, cheapParams, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := office.VerifyPassword(h, pw); !ok || err != nil {
			t.Fatalf("own password did not verify: %v %v", ok, err)
		}
		if ok, _ := office.VerifyPassword(h, pw+"x"); ok {
			t.Fatal("a different password verified")
		}
		if p, err := office.HashParams(h); err != nil || p != cheapParams {
			t.Fatalf("parameters %+v, %v", p, err)
		}
	})
}

func BenchmarkHashPassword(b *testing.B) {
	for b.Loop() {
		if _, err := office.HashPassword("correct horse battery", office.DefaultPasswordParams, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerifyPassword(b *testing.B) {
	h, _ := office.HashPassword("correct horse battery", office.DefaultPasswordParams, nil)
	for b.Loop() {
		if ok, _ := office.VerifyPassword(h, "correct horse battery"); !ok {
			b.Fatal("no match")
		}
	}
}

// The server's office hashes with the strong default; the cheap set the
// tests use is reached only through UsePasswordParams, which `kisen serve`
// never calls.
func TestOffice_NewHashesPasswordsWithTheDefaultCost(t *testing.T) {
	t.Parallel()
	o := office.New(nil, time.Now)
	if got := o.Accounts().Params(); got != office.DefaultPasswordParams {
		t.Fatalf("office.New hashes with %+v, want the default %+v", got, office.DefaultPasswordParams)
	}
	o.UsePasswordParams(cheapParams)
	if got := o.Accounts().Params(); got != cheapParams {
		t.Fatalf("after UsePasswordParams: %+v, want %+v", got, cheapParams)
	}
	if got := office.New(nil, time.Now).Accounts().Params(); got != office.DefaultPasswordParams {
		t.Fatalf("a second office.New hashes with %+v: the cheap set leaked", got)
	}
}
