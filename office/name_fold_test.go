package office_test

import (
	"testing"

	"kisen/office"
)

// FoldName: spaces (ASCII and 全角), katakana and the documented 異体字
// make no difference; different characters still do (issue 23 §1).
func TestFoldName_SameAndDifferent(t *testing.T) {
	t.Parallel()
	same := []struct{ a, b string }{
		{"高橋悠斗", "高橋 悠斗"},
		{"高橋悠斗", "高橋　悠斗"},
		{"わたなべ あおい", "ワタナベアオイ"},
		{"わたなべあおい", "ﾜﾀﾅﾍﾞｱｵｲ"},
		{"髙橋", "高橋"},
		{"山﨑", "山崎"},
		{"山嵜", "山崎"},
		{"渡邊", "渡辺"},
		{"渡邉", "渡辺"},
		{"齋藤", "斎藤"},
		{"齊藤", "斉藤"},
		{"澤田", "沢田"},
		{"長濱", "長浜"},
		{"廣瀬", "広瀬"},
		{"櫻井", "桜井"},
		{"國枝", "国枝"},
		{"𠮷田", "吉田"},
		{"ジョン・スミス", "じょんすみす"},
		{"Ｔａｒｏ", "taro"},
	}
	for _, c := range same {
		if x, y := office.FoldName(c.a), office.FoldName(c.b); x != y {
			t.Errorf("FoldName(%q) = %q, FoldName(%q) = %q; want equal", c.a, x, c.b, y)
		}
	}
	different := []struct{ a, b string }{
		{"龍之介", "竜之介"}, // separate characters in names: not folded
		{"斎藤", "斉藤"},   // 齋 and 齊 fold to different everyday forms
		{"嶋田", "島田"},
		{"高橋悠斗", "高橋優斗"},
		{"わたなべあおい", "わたなべあい"},
		{"おおの", "おうの"},
	}
	for _, c := range different {
		if office.FoldName(c.a) == office.FoldName(c.b) {
			t.Errorf("FoldName(%q) == FoldName(%q); want different", c.a, c.b)
		}
	}
}

// Every variant folds to a character that is not itself folded (one
// step, no chains), and is not 龍, which names people apart from 竜.
func TestFoldName_VariantTableIsOneStep(t *testing.T) {
	t.Parallel()
	vs := office.NameVariants()
	for from, to := range vs {
		if _, again := vs[to]; again {
			t.Errorf("%c → %c folds again", from, to)
		}
		if from == to {
			t.Errorf("%c folds to itself", from)
		}
	}
	if _, ok := vs['龍']; ok {
		t.Error("龍 is folded; 龍 and 竜 are different names")
	}
}

// BenchmarkFoldName: one name as the director's list and a paste fold
// every registered player's name and reading once per page.
func BenchmarkFoldName(b *testing.B) {
	for b.Loop() {
		office.FoldName("高橋 悠斗")
		office.FoldName("たかはし ゆうと")
	}
}
