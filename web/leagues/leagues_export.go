package leagues

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// icsEscape escapes a TEXT value (RFC 5545 §3.3.11): backslash, semicolon,
// comma and line breaks.
func IcsEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `;`, `\;`, `,`, `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)
	return r.Replace(s)
}

// icsLine writes one content line folded at 75 octets (RFC 5545 §3.1),
// never inside a UTF-8 sequence, each physical line ending in CRLF.
func IcsLine(b *bytes.Buffer, line string) {
	limit := 75
	for len(line) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		b.WriteString(line[:cut])
		b.WriteString("\r\n ")
		line = line[cut:]
		limit = 74 // the leading space counts
	}
	b.WriteString(line)
	b.WriteString("\r\n")
}

// leagueICS exports a class's games as an iCalendar file: one all-day
// VEVENT per dated game, DTSTAMP from the office clock, UIDs stable for a
// game (class, round and pair).
func (s *Room) leagueICS(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	done, read, err := s.NotModifiedClass(c, cid)
	if done || err != nil {
		return err
	}
	st, err := s.standingsRead(ctx, site.Actor(c), cid, read)
	if err != nil {
		return err
	}
	title := ClassTitle(ctx, st.Class.Class)
	event := site.LocalName(ctx, st.Event.Name, st.Event.NameEn)
	stamp := s.Office.Now().UTC().Format("20060102T150405Z")
	var b bytes.Buffer
	IcsLine(&b, "BEGIN:VCALENDAR")
	IcsLine(&b, "VERSION:2.0")
	IcsLine(&b, "PRODID:-//Kisen//League schedule//JA")
	IcsLine(&b, "CALSCALE:GREGORIAN")
	IcsLine(&b, "X-WR-CALNAME:"+IcsEscape(event+" "+title))
	n := names(st.Players)
	lz := site.L(ctx)
	for _, r := range st.Schedule.Rounds {
		for _, g := range r.Games {
			if g.Date.IsZero() {
				continue
			}
			a, b2 := g.Sente, g.Gote
			if b2 < a {
				a, b2 = b2, a
			}
			summary := lz.TData("league.ics.summary", map[string]any{"Event": event, "Class": title, "Round": r.Number,
				"Sente": n.full(g.Sente), "Gote": n.full(g.Gote)})
			IcsLine(&b, "BEGIN:VEVENT")
			IcsLine(&b, fmt.Sprintf("UID:kisen-league-%d-r%d-%s-%s@kisen", cid, r.Number, a, b2))
			IcsLine(&b, "DTSTAMP:"+stamp)
			IcsLine(&b, "DTSTART;VALUE=DATE:"+g.Date.Format("20060102"))
			IcsLine(&b, "DTEND;VALUE=DATE:"+g.Date.AddDate(0, 0, 1).Format("20060102"))
			IcsLine(&b, "SUMMARY:"+IcsEscape(summary))
			IcsLine(&b, "DESCRIPTION:"+IcsEscape(lz.TData("league.ics.description", map[string]any{"Class": title, "Round": r.Number,
				"Sente": n.full(g.Sente), "Gote": n.full(g.Gote)})))
			IcsLine(&b, "END:VEVENT")
		}
	}
	IcsLine(&b, "END:VCALENDAR")
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="league-%d.ics"`, cid))
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", b.Bytes())
}

// playerRef is how a player is written in the CSV: the federation number
// when there is one (the import reads it back), else the name.
func playerRef(p office.Player) string {
	if p.Number != nil && *p.Number != "" {
		return *p.Number
	}
	return p.Name
}

// leagueCSV exports a class's schedule and results, one row per player and
// round — the columns the history import reads (class, junni, player,
// round, opponent) followed by side, date and result — so this term's
// export can be imported as next term's history elsewhere.
func (s *Room) leagueCSV(c echo.Context) error {
	ctx := c.Request().Context()
	cid, err := site.PathParam(c, "cid")
	if err != nil {
		return err
	}
	done, read, err := s.NotModifiedClass(c, cid)
	if done || err != nil {
		return err
	}
	st, err := s.standingsRead(ctx, site.Actor(c), cid, read)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	w := office.NewCSVWriter(&b)
	_ = w.Write(append(append([]string{}, office.LeagueHistoryCSVColumns...), "side", "date", "result", "opponent_name", "player_name"))
	for _, r := range st.Rows {
		p := st.Players[r.PlayerID]
		for i, cell := range r.Cells {
			rec := []string{st.Class.Class, strconv.Itoa(r.Row.Junni), playerRef(p), strconv.Itoa(i + 1), "", "", cell.Date, "", "", p.Name}
			if !cell.Rest {
				o := st.Players[cell.Opponent]
				rec[4], rec[8] = playerRef(o), o.Name
				rec[5] = "gote"
				if cell.Sente {
					rec[5] = "sente"
				}
				rec[7] = cell.Result
			} else {
				rec[7] = "rest"
			}
			_ = w.Write(rec, 1, 3) // junni and round are numbers
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="league-%d.csv"`, cid))
	return c.Blob(http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
}
