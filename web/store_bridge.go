package web

import "kisen/store"

// storeBridge holds the store for the files still being moved to office
// use cases (issue 22 §1); it goes when they have moved.
type storeBridge struct{ store *store.Store }
