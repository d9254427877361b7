package site

import (
	"context"
	"strconv"
	"strings"
)

// userNames maps user ids to display names for the logs.
func (s *Server) UserNames(ctx context.Context, ids ...int64) map[int64]string {
	return s.Office.UserNames(ctx, ids...)
}

func (s *Server) PlayerName(ctx context.Context, id *int64) string {
	if id == nil {
		return ""
	}
	p, err := s.Office.Player(ctx, *id)
	if err != nil {
		return "#" + strconv.FormatInt(*id, 10)
	}
	return p.Name
}

func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// viaToken names who entered a row: the person, and the API token it came
// through when it did (the token's name, issue 15).
func ViaToken(ctx context.Context, name, token string) string {
	if token == "" {
		return name
	}
	return name + " " + T(ctx, "api.via", "Name", token)
}

// orPlaceholder stands in for a reason not given yet, so a preview can
// say what will be stored while the page asks for the reason.
func OrPlaceholder(reason string) string {
	if strings.TrimSpace(reason) == "" {
		return "-"
	}
	return reason
}
