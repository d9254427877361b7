package office

import (
	"errors"
	"slices"
	"testing"

	"kisen/store"
)

// TestChainOf_D_R3_FollowsRedoGamesAtAnyDepth: a stage's zip and the
// public's hidden games take a bracket game's whole redo chain (a redo of
// a redo is still a redo, D-R3), and nothing of another chain.
func TestChainOf_D_R3_FollowsRedoGamesAtAnyDepth(t *testing.T) {
	t.Parallel()
	id := func(n int64) *int64 { return &n }
	gs := store.GameSet{Games: map[int64]store.Game{
		1: {ID: 1},
		2: {ID: 2, RedoOfID: id(1), RedoNumber: 1},
		3: {ID: 3, RedoOfID: id(2), RedoNumber: 2},
		4: {ID: 4},
		5: {ID: 5, RedoOfID: id(4), RedoNumber: 1},
	}}
	got := chainOf(gs, 1)
	slices.Sort(got)
	if !slices.Equal(got, []int64{1, 2, 3}) {
		t.Errorf("chain of 1: %v, want [1 2 3]", got)
	}
	if got := chainOf(gs, 3); !slices.Equal(got, []int64{3}) {
		t.Errorf("chain of 3: %v, want [3]", got)
	}
	if got := chainOf(gs, 99); len(got) != 0 {
		t.Errorf("chain of a game not in the set: %v", got)
	}
}

// TestParseDownloadFormat: the four formats, the charset only for KIF,
// anything else a field error naming format or charset.
func TestParseDownloadFormat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		format, charset string
		want            DownloadFormat
		field           string
	}{
		{"", "", DownloadKIF, ""},
		{"KIF", "UTF-8", DownloadKIF, ""},
		{"kif", "sjis", DownloadKIFSJIS, ""},
		{"kif", "Shift_JIS", DownloadKIFSJIS, ""},
		{"kif-sjis", "", DownloadKIFSJIS, ""},
		{"csa", "", DownloadCSA, ""},
		{"usi", "", DownloadUSI, ""},
		{"csa", "sjis", "", "charset"},
		{"kif", "latin1", "", "charset"},
		{"ki2", "", "", "format"},
		{"../etc", "", "", "format"},
	} {
		got, err := ParseDownloadFormat(tc.format, tc.charset)
		if tc.field == "" {
			if err != nil || got != tc.want {
				t.Errorf("%q %q: %q, %v; want %q", tc.format, tc.charset, got, err, tc.want)
			}
			continue
		}
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Field != tc.field {
			t.Errorf("%q %q: %v; want an error on %s", tc.format, tc.charset, err, tc.field)
		}
	}
}
