package store

import (
	"strings"
)

// searchKeySeparator joins the name and reading parts of a search key; it
// is taken out of queries so a match never spans both parts.
const searchKeySeparator = "|"

func playerSearchKey(name, reading string) string {
	return SearchKey(name) + searchKeySeparator + SearchKey(reading)
}

// searchPattern turns a user's query into a LIKE pattern over search_key,
// or "" when nothing searchable is left.
func searchPattern(q string) string {
	k := strings.ReplaceAll(SearchKey(q), searchKeySeparator, "")
	if k == "" {
		return ""
	}
	return "%" + likeEscape(k) + "%"
}
