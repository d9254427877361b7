package office

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"kisen/pairing"
)

// furigomaRecords are stored 振り駒 records as mustJSON writes them
// (simulated with high odds of standing and overlapping pieces, so ties and
// long records occur, and judged observed ones), and hand-written ones in
// other shapes that must take encoding/json's way.
func furigomaRecords(t testing.TB) []string {
	var out []string
	rng := pairing.NewRand(12)
	for i := range 300 {
		f, err := pairing.Simulate(rng, strconv.Itoa(i), strconv.Itoa(i+1000), pairing.TossOdds{Standing: 0.2, Overlapping: 0.2})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, mustJSON(f))
	}
	judged, err := pairing.Judge("7", "8", []pairing.Toss{{Pieces: []pairing.Face{"fu", "fu", "to", "to", "standing"}}})
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, mustJSON(judged), mustJSON(pairing.Furigoma{}), mustJSON(pairing.Furigoma{Tosser: "1", Tosses: []pairing.Toss{}}),
		mustJSON(pairing.Furigoma{Tosser: "名人", Other: "a\"b<c>", Tosses: []pairing.Toss{{Pieces: []pairing.Face{"x", "", "fu", "to", "重"}}}}),
		"", "{}", "null", "[]", `{"tosser":"1","other":"2"}`, `{"Tosser":"1","Other":"2","Tosses":[],"Decided":true,"Sente":"1","Extra":1}`,
		`{"Tosser":"1","Other":"2","Tosses":[{"Pieces":["fu","fu","fu"]}],"Decided":true,"Sente":"1"}`,
		`{"Tosser":"1","Other":"2","Tosses":[{"Pieces":["fu","fu","fu","fu","fu","fu"]}],"Decided":true,"Sente":"1"}`,
		`{"Tosser":"1","Other":"2","Tosses":[{"Pieces":["fu","fu","fu","fu","fu"]},],"Decided":true,"Sente":"1"}`,
		`{"Tosser":"1","Other":"2","Tosses":null,"Decided":false,"Sente":""}`,
		`{"Tosser":"1","Other":"2","Tosses":null,"Decided":false,"Sente":""} `,
		`{"Tosser":"1","Other":"2","Tosses":null,"Decided":1,"Sente":""}`,
		`{"Tosser":"\u0031","Other":"2","Tosses":null,"Decided":true,"Sente":"1"}`,
		`{"Tosser":"1","Other":"2","Tosses":null,"Decided":true,"Sente":"1"`,
		`{"Tosser":"1","Other":"2","Tosses":null,"Decided":true,"Sente":"1}`)
	return out
}

// TestUnmarshalFurigoma_SameAsJSON: the hand-read shape gives exactly what
// json.Unmarshal gives (value and whether it failed) for every record.
func TestUnmarshalFurigoma_SameAsJSON(t *testing.T) {
	t.Parallel()
	fast := 0
	for _, raw := range furigomaRecords(t) {
		checkUnmarshalFurigoma(t, raw)
		if _, ok := scanFurigoma(raw); ok {
			fast++
		}
	}
	if fast < 300 { // every record mustJSON wrote took the hand-read way
		t.Errorf("%d records read by hand, want at least 300", fast)
	}
}

func checkUnmarshalFurigoma(t *testing.T, raw string) {
	t.Helper()
	var want, got pairing.Furigoma
	wantErr := json.Unmarshal([]byte(raw), &want)
	gotErr := unmarshalFurigoma(raw, &got)
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("%q: error %v, json.Unmarshal's %v", raw, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: %#v, json.Unmarshal gives %#v", raw, got, want)
	}
}

func FuzzUnmarshalFurigoma(f *testing.F) {
	for _, raw := range furigomaRecords(f) {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) { checkUnmarshalFurigoma(t, raw) })
}
