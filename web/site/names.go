package site

import (
	"context"
	"strconv"
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
