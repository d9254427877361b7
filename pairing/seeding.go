package pairing

import "fmt"

// MaxBracketSize bounds a bracket: the largest real events have a few
// hundred entrants, and the draw's fallback keeps a bit per pair of players
// (8 MB at this size), so a huge input cannot exhaust memory.
const MaxBracketSize = 1 << 13

// BracketSize is the smallest power of two that holds n places (at least 2).
func BracketSize(n int) (int, error) {
	if n < 2 {
		return 0, fmt.Errorf("bracket of %d places: %w", n, ErrInvalid)
	}
	if n > MaxBracketSize {
		return 0, fmt.Errorf("bracket of %d places exceeds the maximum %d: %w", n, MaxBracketSize, ErrInvalid)
	}
	size := 2
	for size < n {
		size *= 2
	}
	return size, nil
}

// SeedLines returns, for each slot of a bracket of the given size (a power
// of two ≥ 2), the seed line (1-based) that the standard seeding puts there:
// 1 meets size, 1 and 2 sit in opposite halves, 1–4 in different quarters,
// 1–8 in different eighths, and so on. Each doubling replaces line x by the
// pair (x, 2m+1−x), which keeps every line's round-r opponent the line that
// mirrors it within the 2^r block, so the top seeds meet as late as possible.
func SeedLines(size int) ([]int, error) {
	if size < 2 || size > MaxBracketSize || size&(size-1) != 0 {
		return nil, fmt.Errorf("bracket size %d is not a power of two in [2, %d]: %w", size, MaxBracketSize, ErrInvalid)
	}
	lines := []int{1}
	for m := 1; m < size; m *= 2 {
		next := make([]int, 0, 2*m)
		for _, x := range lines {
			next = append(next, x, 2*m+1-x)
		}
		lines = next
	}
	return lines, nil
}

// lineSlots inverts SeedLines: slot index (0-based) of every line, indexed
// by line (index 0 unused).
func lineSlots(lines []int) []int {
	at := make([]int, len(lines)+1)
	for slot, line := range lines {
		at[line] = slot
	}
	return at
}
