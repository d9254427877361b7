package office

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// PasswordParams are the argon2id cost parameters a new hash is made with.
// Every hash carries its own parameters, so changing them later never
// breaks old hashes.
type PasswordParams struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// DefaultPasswordParams: 64 MiB, 2 passes, 2 lanes, 16-byte salt, 32-byte
// key — within the argon2id ranges RFC 9106 and OWASP recommend for
// interactive logins, and about a few hundred milliseconds per hash on a
// small server (see BenchmarkHashPassword).
var DefaultPasswordParams = PasswordParams{Memory: 64 * 1024, Time: 2, Threads: 2, SaltLen: 16, KeyLen: 32}

// Limits on parameters read back from a stored hash, so a corrupt or
// hostile row cannot make verification allocate without bound.
const (
	maxHashMemory  = 1 << 21 // 2 GiB in KiB
	maxHashTime    = 64
	maxHashKeyLen  = 1024
	maxHashSaltLen = 1024
)

// ErrBadHash says a stored password hash is not a well-formed argon2id
// string.
var ErrBadHash = errors.New("malformed password hash")

// HashPassword hashes pw with argon2id and a fresh salt from rnd (nil:
// crypto/rand) and returns the encoded string
// $argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<key> (base64, no
// padding).
func HashPassword(pw string, p PasswordParams, rnd io.Reader) (string, error) {
	if p.Memory == 0 || p.Time == 0 || p.Threads == 0 || p.SaltLen == 0 || p.KeyLen == 0 {
		return "", fmt.Errorf("password hash parameters %+v: every value must be positive", p)
	}
	if rnd == nil {
		rnd = rand.Reader
	}
	salt := make([]byte, p.SaltLen)
	if _, err := io.ReadFull(rnd, salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	key := argon2.IDKey([]byte(pw), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// parsedHash is an encoded hash taken apart.
type parsedHash struct {
	params PasswordParams
	salt   []byte
	key    []byte
}

// parseHash reads an encoded argon2id hash; every failure wraps ErrBadHash
// and says which part is wrong.
func parseHash(encoded string) (parsedHash, error) {
	var ph parsedHash
	parts := strings.Split(encoded, "$")
	// "", "argon2id", "v=19", "m=…,t=…,p=…", salt, key
	if len(parts) != 6 || parts[0] != "" {
		return ph, fmt.Errorf("%w: want 5 fields separated by $", ErrBadHash)
	}
	if parts[1] != "argon2id" {
		return ph, fmt.Errorf("%w: algorithm %q, want argon2id", ErrBadHash, parts[1])
	}
	if parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return ph, fmt.Errorf("%w: version %q, want v=%d", ErrBadHash, parts[2], argon2.Version)
	}
	params := strings.Split(parts[3], ",")
	if len(params) != 3 {
		return ph, fmt.Errorf("%w: parameters %q, want m=…,t=…,p=…", ErrBadHash, parts[3])
	}
	var m, t, p uint64
	for i, spec := range []struct {
		name string
		dst  *uint64
		max  uint64
		bits int
	}{{"m", &m, maxHashMemory, 32}, {"t", &t, maxHashTime, 32}, {"p", &p, 255, 8}} {
		val, ok := strings.CutPrefix(params[i], spec.name+"=")
		if !ok {
			return ph, fmt.Errorf("%w: parameter %d is %q, want %s=…", ErrBadHash, i+1, params[i], spec.name)
		}
		n, err := strconv.ParseUint(val, 10, spec.bits)
		if err != nil || n == 0 || n > spec.max || val != strconv.FormatUint(n, 10) {
			return ph, fmt.Errorf("%w: parameter %s=%q out of range 1..%d", ErrBadHash, spec.name, val, spec.max)
		}
		*spec.dst = n
	}
	// argon2 needs at least 8 KiB per lane.
	if m < 8*p {
		return ph, fmt.Errorf("%w: memory %d KiB below 8 KiB per lane (%d lanes)", ErrBadHash, m, p)
	}
	b64 := base64.RawStdEncoding.Strict()
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) == 0 || len(salt) > maxHashSaltLen {
		return ph, fmt.Errorf("%w: salt is not 1..%d bytes of unpadded base64", ErrBadHash, maxHashSaltLen)
	}
	key, err := b64.DecodeString(parts[5])
	if err != nil || len(key) < 4 || len(key) > maxHashKeyLen {
		return ph, fmt.Errorf("%w: key is not 4..%d bytes of unpadded base64", ErrBadHash, maxHashKeyLen)
	}
	ph.params = PasswordParams{Memory: uint32(m), Time: uint32(t), Threads: uint8(p), SaltLen: uint32(len(salt)), KeyLen: uint32(len(key))}
	ph.salt, ph.key = salt, key
	return ph, nil
}

// VerifyPassword reports whether pw matches the encoded hash, comparing
// in constant time. A malformed hash is an error (wrapping ErrBadHash),
// never a match.
func VerifyPassword(encoded, pw string) (bool, error) {
	ph, err := parseHash(encoded)
	if err != nil {
		return false, err
	}
	key := argon2.IDKey([]byte(pw), ph.salt, ph.params.Time, ph.params.Memory, ph.params.Threads, ph.params.KeyLen)
	return subtle.ConstantTimeCompare(key, ph.key) == 1, nil
}

// HashParams returns the parameters an encoded hash was made with.
func HashParams(encoded string) (PasswordParams, error) {
	ph, err := parseHash(encoded)
	return ph.params, err
}
