package site

import (
	"fmt"
	"net/http"
)

// loadAndSave is the session middleware with its failures answered through
// the one error mapping: an outage noticed while reading the session, or
// while saving it (scs re-saves every session on each request because of
// the idle timeout), is a 503 page like any other, not scs's bare 500.
func (s *Server) LoadAndSave(next http.Handler) http.Handler {
	h := s.Sessions.LoadAndSave(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&sealedWriter{ResponseWriter: w}, r)
	})
}

// sealedWriter lets the session error handler answer once and then drops
// what the handler goes on writing (scs saves the session when the handler
// starts its response, so the handler's page would follow the error page).
type sealedWriter struct {
	http.ResponseWriter
	started bool // something was written
	sealed  bool // the error answer is written; ignore the rest
}

func (w *sealedWriter) WriteHeader(code int) {
	if w.sealed {
		return
	}
	w.started = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *sealedWriter) Write(b []byte) (int, error) {
	if w.sealed {
		return len(b), nil
	}
	w.started = true
	return w.ResponseWriter.Write(b)
}

func (w *sealedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// sessionError is the session manager's ErrorFunc.
func (s *Server) sessionError(w http.ResponseWriter, r *http.Request, err error) {
	sw, ok := w.(*sealedWriter)
	if !ok || sw.started || sw.sealed {
		s.Log.ErrorContext(r.Context(), "session", "err", err)
		return
	}
	c := s.Echo.NewContext(r, sw)
	c.Set("lang", L(r.Context()).Lang)
	s.HandleError(fmt.Errorf("session: %w", err), c)
	sw.sealed = true
}
