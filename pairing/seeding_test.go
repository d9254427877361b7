package pairing

import "testing"

func TestSeedLines_StandardOrder(t *testing.T) {
	t.Parallel()
	cases := []struct {
		size int
		want []int
	}{
		{2, []int{1, 2}},
		{4, []int{1, 4, 2, 3}},
		{8, []int{1, 8, 4, 5, 2, 7, 3, 6}},
	}
	for _, tc := range cases {
		got, err := SeedLines(tc.size)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tc.want {
			if got[i] != tc.want[i] {
				t.Fatalf("size %d: %v, want %v", tc.size, got, tc.want)
			}
		}
	}
}

// TestSeedLines_TopSeedsMeetLate checks, for every size up to 1,024, that
// lines 1..k sit in different blocks of size/k and that in every round two
// lines meeting in a block of 2^r sum to 2^r+1 at their first possible meeting
// (1 meets size in round 1; the better line always wins its block).
func TestSeedLines_TopSeedsMeetLate(t *testing.T) {
	t.Parallel()
	for size := 2; size <= 1024; size *= 2 {
		lines, err := SeedLines(size)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]bool, size+1)
		for _, l := range lines {
			if l < 1 || l > size || seen[l] {
				t.Fatalf("size %d: line %d repeated or out of range", size, l)
			}
			seen[l] = true
		}
		for block := 2; block <= size; block *= 2 {
			for first := 0; first < size; first += block {
				// The best line in each half of the block; they meet here.
				best := func(from int) int {
					b := size + 1
					for s := from; s < from+block/2; s++ {
						b = min(b, lines[s])
					}
					return b
				}
				x, y := best(first), best(first+block/2)
				if k := size / block * 2; x+y != k+1 {
					t.Fatalf("size %d block %d at %d: best lines %d and %d, want a pair summing to %d", size, block, first, x, y, k+1)
				}
			}
		}
	}
}

func TestBracketSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ n, want int }{{2, 2}, {3, 4}, {5, 8}, {8, 8}, {9, 16}, {1024, 1024}, {1025, 2048}} {
		if got, err := BracketSize(c.n); err != nil || got != c.want {
			t.Errorf("BracketSize(%d) = %d, %v; want %d", c.n, got, err, c.want)
		}
	}
	for _, n := range []int{-1, 0, 1, MaxBracketSize + 1} {
		if _, err := BracketSize(n); err == nil {
			t.Errorf("BracketSize(%d) accepted", n)
		}
	}
	for _, s := range []int{0, 3, 6, 1 << 20} {
		if _, err := SeedLines(s); err == nil {
			t.Errorf("SeedLines(%d) accepted", s)
		}
	}
}
