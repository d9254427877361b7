package office

import "kisen/store"

// FoldName is a name or reading as matching compares it (store.FoldName:
// NFKC, spaces and the 中黒 dropped, katakana to hiragana, lower case, the
// documented 異体字 to their everyday form). Entry matching, the league's
// name references, the desk's search and the public filters all use it.
func FoldName(s string) string { return store.FoldName(s) }

// NameVariants lists the folded 異体字 (for the docs and their test).
func NameVariants() map[rune]rune { return store.NameVariants() }
