// Package web is Kisen's web application: the route table (routes.go)
// over the rooms that share package site (docs/rooms.md).
package web

import (
	"kisen/web/accounts"
	"kisen/web/api"
	"kisen/web/day"
	"kisen/web/events"
	"kisen/web/games"
	"kisen/web/knockouts"
	"kisen/web/leagues"
	"kisen/web/live"
	"kisen/web/players"
	"kisen/web/site"
)

// Deps is what the server is built from: the office's use cases (over
// the store and the clock, composed by cmd/kisen) are its only way to the
// data (docs/rooms.md).
type Deps = site.Deps

// The rooms, named apart so that Server embeds each (their handlers are
// the route table's, routes.go).
type (
	playersRoom   = players.Room
	eventsRoom    = events.Room
	liveRoom      = live.Room
	apiRoom       = api.Room
	dayRoom       = day.Room
	knockoutsRoom = knockouts.Room
	leaguesRoom   = leagues.Room
	accountsRoom  = accounts.Room
	gamesRoom     = games.Room
)

// Server is the web application: the shared server and the state of the
// areas that keep their own (the API's document and rate limiter).
type Server struct {
	*site.Server
	*playersRoom
	*eventsRoom
	*liveRoom
	*apiRoom
	*dayRoom
	*knockoutsRoom
	*leaguesRoom
	*gamesRoom
	*accountsRoom
}

// New builds the server and its routes.
func New(d Deps) (*Server, error) {
	ss, err := site.New(d)
	if err != nil {
		return nil, err
	}
	pl := &players.Room{Server: ss}
	ko := &knockouts.Room{Server: ss}
	s := &Server{
		Server:        ss,
		playersRoom:   pl,
		apiRoom:       &api.Room{Server: ss, Players: pl},
		dayRoom:       &day.Room{Server: ss},
		knockoutsRoom: ko,
		leaguesRoom:   &leagues.Room{Server: ss},
		accountsRoom:  &accounts.Room{Server: ss},
		gamesRoom:     &games.Room{Server: ss},
	}
	if err := s.routes(); err != nil {
		return nil, err
	}
	return s, nil
}
