package store_test

import (
	"context"
	"database/sql"
	"testing"

	"kisen/store"
	"kisen/store/storetest"
)

// Issue 12 part 5: after a burst the pool keeps its connections idle for
// the next one (Go's default keeps two and closes the rest), and never
// holds more open than the limit.
func TestPool_KeepsTheBurstIdle(t *testing.T) {
	t.Parallel()
	storetest.Dialects(t, func(t *testing.T, o store.Options) {
		ctx := context.Background()
		o.MaxOpenConns = 6
		o.MaxIdleConns = 0 // the default (storetest's databases keep 2)
		s, err := store.Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if got := s.SQL().Stats().MaxOpenConnections; got != 6 {
			t.Fatalf("max open %d, want 6", got)
		}
		burst := func(n int) {
			t.Helper()
			conns := make([]*sql.Conn, 0, n)
			for range n {
				c, err := s.SQL().Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				conns = append(conns, c)
			}
			for _, c := range conns {
				_ = c.Close()
			}
		}
		burst(6)
		st := s.SQL().Stats()
		if st.Idle != 6 || st.OpenConnections != 6 {
			t.Fatalf("after a burst of 6: idle %d open %d, want both 6 (idle defaults to max open)", st.Idle, st.OpenConnections)
		}
		before := st.MaxIdleClosed
		burst(6)
		if st := s.SQL().Stats(); st.MaxIdleClosed != before || st.OpenConnections != 6 {
			t.Fatalf("a second burst closed %d idle connections (open %d); want the first burst's reused", st.MaxIdleClosed-before, st.OpenConnections)
		}

		o.MaxIdleConns = 2
		s2, err := store.Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		s = s2
		burst(6)
		if st := s2.SQL().Stats(); st.Idle != 2 {
			t.Fatalf("idle limit 2: %d idle", st.Idle)
		}
	})
}
