// Package accounts is the web room of sign-in and accounts: the first
// administrator, signing in and out, a user's own account page and the
// administrator's users (docs/rooms.md).
package accounts

import "kisen/web/site"

// Room serves the account pages over the shared server.
type Room struct {
	*site.Server
}
