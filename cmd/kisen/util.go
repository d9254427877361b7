package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

func keys(m map[string]command) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ", ")
}

// unavailable answers for a subcommand whose capability has not landed yet.
// It exits 2 and says so plainly; it is replaced by the real command.
func unavailable(name string) command {
	return func(_ context.Context, e env) int {
		fmt.Fprintf(e.stderr, "kisen %s: not available in this build yet\n", name)
		return 2
	}
}
