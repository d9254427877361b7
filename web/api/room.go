// Package api is the web room of the JSON API under /api/v1: reads with
// keyset paging, the writes (results, records, moves, rulings), the OpenAPI
// document, the rate limit and the tokens' pages (docs/rooms.md,
// docs/api.md).
package api

import (
	"kisen/office/teams"
	"kisen/web/players"
	"kisen/web/site"
)

// Room serves the API over the shared server.
type Room struct {
	*site.Server
	// Players gives the ratings list its rows (the players' room).
	Players *players.Room
	// Teams reads team events (api_teams.go).
	Teams *teams.Teams
	// API is the process's document and rate limiter, made by the
	// routes (api.go).
	API *APIState
}
