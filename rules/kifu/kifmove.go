package kifu

import (
	"unicode/utf8"

	"kisen/rules"
)

// A KIF move text as KIF writers spell it — "７六歩(77)", "同　歩(76)",
// "２二角成(88)", "５五角打" — is read here directly, byte by byte, without
// the general notation parser (which also reads ▲△ marks, 右/左/直 and
// 上/寄/引, the newspaper form 76同歩 …). Anything this reader does not
// recognise goes to the general parser, so what is accepted and the
// errors given are unchanged; this only makes the common case fast.

// kifPieceOf maps the one-character piece names rules'
// ParseMoveTextParts reads (王/玉, 竜/龍, 杏 圭 全) to kinds.
func kifPieceOf(r rune) rules.PieceType {
	switch r {
	case '歩':
		return rules.Pawn
	case '香':
		return rules.Lance
	case '桂':
		return rules.Knight
	case '銀':
		return rules.Silver
	case '金':
		return rules.Gold
	case '角':
		return rules.Bishop
	case '飛':
		return rules.Rook
	case '玉', '王':
		return rules.King
	case 'と':
		return rules.ProPawn
	case '杏':
		return rules.ProLance
	case '圭':
		return rules.ProKnight
	case '全':
		return rules.ProSilver
	case '馬':
		return rules.Horse
	case '竜', '龍':
		return rules.Dragon
	}
	return rules.NoPieceType
}

// kifDigit reads a file or rank digit: ASCII, full-width or kanji.
func kifDigit(r rune) int {
	switch {
	case r >= '1' && r <= '9':
		return int(r - '0')
	case r >= '１' && r <= '９':
		return int(r - '０')
	}
	switch r {
	case '一':
		return 1
	case '二':
		return 2
	case '三':
		return 3
	case '四':
		return 4
	case '五':
		return 5
	case '六':
		return 6
	case '七':
		return 7
	case '八':
		return 8
	case '九':
		return 9
	}
	return 0
}

// fastKIFMove reads s (already trimmed) when it has one of the usual KIF
// shapes; ok is false otherwise, and the caller then uses the general
// parser. When ok, the result is what the general path gives.
func fastKIFMove(s string, prev rules.Move) (nm namedMove, ok bool) {
	r, n := utf8.DecodeRuneInString(s)
	s = s[n:]
	var to rules.Square
	if r == '同' {
		if prev == rules.NoMove || !prev.To().Valid() {
			return nm, false // the general path says why
		}
		to = prev.To()
		for {
			switch {
			case len(s) > 0 && (s[0] == ' ' || s[0] == '\t'):
				s = s[1:]
			case len(s) >= 3 && s[:3] == "\u3000":
				s = s[3:]
			default:
				goto piece
			}
		}
	} else {
		r2, n2 := utf8.DecodeRuneInString(s)
		file, rank := kifDigit(r), kifDigit(r2)
		if file == 0 || rank == 0 {
			return nm, false
		}
		s = s[n2:]
		to = rules.NewSquare(file, rank)
	}
piece:
	r, n = utf8.DecodeRuneInString(s)
	s = s[n:]
	pt := kifPieceOf(r)
	if r == '成' {
		r2, n2 := utf8.DecodeRuneInString(s)
		s = s[n2:]
		switch r2 {
		case '香':
			pt = rules.ProLance
		case '桂':
			pt = rules.ProKnight
		case '銀':
			pt = rules.ProSilver
		}
	}
	if pt == rules.NoPieceType {
		return nm, false
	}
	promote := false
	switch {
	case len(s) >= 3 && s[:3] == "打":
		if len(s) != 3 || !pt.IsHandType() {
			return nm, false
		}
		return namedMove{rules.NewDrop(pt, to), pt}, true
	case len(s) >= 3 && s[:3] == "成":
		promote, s = true, s[3:]
	case len(s) >= 6 && s[:6] == "不成":
		s = s[6:]
	case len(s) >= 3 && s[:3] == "生":
		s = s[3:]
	}
	if len(s) != 4 || s[0] != '(' || s[3] != ')' || s[1] < '1' || s[1] > '9' || s[2] < '1' || s[2] > '9' {
		return nm, false
	}
	from := rules.NewSquare(int(s[1]-'0'), int(s[2]-'0'))
	return namedMove{rules.NewMove(from, to, promote), pt}, true
}
