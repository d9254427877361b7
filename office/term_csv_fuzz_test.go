package office

import (
	"slices"
	"strings"
	"testing"
)

// FuzzLeagueHistoryCSV: any bytes → either rows, each with a known class,
// a positive 順位 and round, a player and a line past the header; or a
// validation error whose every field names a line (or the file) — never
// both, never a panic.
func FuzzLeagueHistoryCSV(f *testing.F) {
	f.Add([]byte("class,junni,player,round,opponent\nC2,1,300,1,301\nC2,2,301,1,300\n"))
	f.Add([]byte("\ufeffクラス,順位,棋士,回戦,相手\nC1,3,山田 太郎,2,\n"))
	f.Add([]byte("class,junni,player,round,opponent,side,date,result\nB2,1,1,1,2,sente,2026-06-09,win\n"))
	f.Add([]byte("class,junni,player\n"))
	f.Add([]byte("class,junni,player,round,opponent\n\"C2,1\n"))
	f.Add([]byte(""))
	f.Add([]byte("class,junni,player,round,opponent\nC2,1,\x00,1,\xff\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, v := parseLeagueHistoryCSV(data)
		if v != nil {
			if rows != nil {
				t.Fatal("rows returned with an error")
			}
			if len(v.Fields) == 0 {
				t.Fatal("an error without a reported field")
			}
			for _, fe := range v.Fields {
				if fe.Line < 0 || !strings.HasPrefix(fe.Code, "league.csv.") {
					t.Fatalf("bad report %+v", fe)
				}
			}
			return
		}
		if len(rows) == 0 {
			t.Fatal("no rows and no error")
		}
		for _, r := range rows {
			if !StorableText(r.Class) || !StorableText(r.Player) || !StorableText(r.Opponent) {
				t.Fatalf("a row with text that cannot be stored: %+v", r)
			}
			if r.Line < 2 || r.Junni < 1 || r.Round < 1 || r.Player == "" || r.Player == r.Opponent {
				t.Fatalf("row accepted: %+v", r)
			}
			if r.Class != "" && !slices.Contains(JunisenClasses, r.Class) {
				t.Fatalf("class accepted: %+v", r)
			}
		}
	})
}
