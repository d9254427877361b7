package adjudication

import "fmt"

// Side is sente (先手, ▲; 下手 in handicap games) or gote (後手, △; 上手 in
// handicap games, who moves first there). It marshals as "sente"/"gote".
type Side uint8

const (
	Sente Side = 0
	Gote  Side = 1
)

// Opponent is the other side.
func (s Side) Opponent() Side { return s ^ 1 }

// Valid reports whether s is Sente or Gote.
func (s Side) Valid() bool { return s <= Gote }

// String is "sente" or "gote".
func (s Side) String() string {
	switch s {
	case Sente:
		return "sente"
	case Gote:
		return "gote"
	}
	return fmt.Sprintf("side(%d)", uint8(s))
}

// Japanese is 先手 or 後手.
func (s Side) Japanese() string {
	if s == Gote {
		return "後手"
	}
	return "先手"
}

// MarshalText writes "sente" or "gote".
func (s Side) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("side %d is neither sente nor gote", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "sente"/"gote" (also 先手/後手 and 下手/上手).
func (s *Side) UnmarshalText(b []byte) error {
	v, err := ParseSide(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSide reads a side name: sente, gote, 先手, 後手, 下手 (sente in a
// handicap game) or 上手 (gote in a handicap game).
func ParseSide(s string) (Side, error) {
	switch s {
	case "sente", "先手", "下手", "▲", "☗":
		return Sente, nil
	case "gote", "後手", "上手", "△", "☖":
		return Gote, nil
	}
	return 0, fmt.Errorf("%q is not a side (want sente or gote)", s)
}

func sidePtr(s Side) *Side { return &s }

// Player identifies who played a side. Both fields are optional; the
// outcome echoes them so a redo game's sides read naturally.
type Player struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// Players are the two players by side.
type Players struct {
	Sente Player `json:"sente"`
	Gote  Player `json:"gote"`
}

// Of is the player of side s.
func (p Players) Of(s Side) Player {
	if s == Gote {
		return p.Gote
	}
	return p.Sente
}

// Swapped is the same two players with colours exchanged (D-R1).
func (p Players) Swapped() Players { return Players{Sente: p.Gote, Gote: p.Sente} }

// Times is one duration per side (remaining time, allowance).
type Times struct {
	Sente Duration `json:"sente"`
	Gote  Duration `json:"gote"`
}

// Of is side s's time.
func (t Times) Of(s Side) Duration {
	if s == Gote {
		return t.Gote
	}
	return t.Sente
}

func (t *Times) set(s Side, d Duration) {
	if s == Gote {
		t.Gote = d
	} else {
		t.Sente = d
	}
}

// Points are jishogi points per side (D-J: rook and bishop and their
// promotions 5, every other piece but the king 1).
type Points struct {
	Sente int `json:"sente"`
	Gote  int `json:"gote"`
}

// Of is side s's points.
func (p Points) Of(s Side) int {
	if s == Gote {
		return p.Gote
	}
	return p.Sente
}
