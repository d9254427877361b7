// Package web is Kisen's web application: the route table (routes.go)
// over the rooms, each a package under web/ that shares package site
// (docs/rooms.md, "The web rooms").
package web

import (
	offteams "kisen/office/teams"
	"kisen/web/accounts"
	"kisen/web/api"
	"kisen/web/day"
	"kisen/web/events"
	"kisen/web/games"
	"kisen/web/knockouts"
	"kisen/web/leagues"
	"kisen/web/live"
	"kisen/web/players"
	"kisen/web/recorder"
	"kisen/web/site"
	"kisen/web/teams"
)

// Deps is what the server is built from: the office's use cases (over
// the store and the clock, composed by cmd/kisen) are its only way to the
// data (docs/rooms.md).
type Deps = site.Deps

// The rooms, named apart so that Server can embed each one: their
// handlers are the route table's (routes.go).
type (
	accountsRoom  = accounts.Room
	apiRoom       = api.Room
	dayRoom       = day.Room
	eventsRoom    = events.Room
	gamesRoom     = games.Room
	knockoutsRoom = knockouts.Room
	leaguesRoom   = leagues.Room
	liveRoom      = live.Room
	playersRoom   = players.Room
	recorderRoom  = recorder.Room
	teamsRoom     = teams.Room
)

// Server is the web application: the shared server and every room over
// it.
type Server struct {
	*site.Server
	*accountsRoom
	*apiRoom
	*dayRoom
	*eventsRoom
	*gamesRoom
	*knockoutsRoom
	*leaguesRoom
	*liveRoom
	*playersRoom
	*recorderRoom
	*teamsRoom
}

// New builds the server, its rooms and its routes.
func New(d Deps) (*Server, error) {
	ss, err := site.New(d)
	if err != nil {
		return nil, err
	}
	pl := &players.Room{Server: ss}
	ko := &knockouts.Room{Server: ss}
	tm := offteams.New(ss.Office)
	s := &Server{
		Server:        ss,
		accountsRoom:  &accounts.Room{Server: ss},
		apiRoom:       &api.Room{Server: ss, Players: pl, Teams: tm},
		dayRoom:       &day.Room{Server: ss},
		eventsRoom:    &events.Room{Server: ss, Teams: tm},
		gamesRoom:     &games.Room{Server: ss},
		knockoutsRoom: ko,
		leaguesRoom:   &leagues.Room{Server: ss},
		liveRoom:      &live.Room{Server: ss, Knockouts: ko},
		playersRoom:   pl,
		recorderRoom:  &recorder.Room{Server: ss},
		teamsRoom:     &teams.Room{Server: ss, Teams: tm},
	}
	if err := s.routes(); err != nil {
		return nil, err
	}
	return s, nil
}
