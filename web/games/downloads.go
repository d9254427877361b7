package games

import (
	"archive/zip"
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/office"
	"kisen/web/site"
)

// downloadRoutes: a game's record as KIF (UTF-8 or Shift_JIS), CSA or a
// USI position, and an event's or a stage's records as one zip (issue 15
// part 5, docs/downloads.md). Who may download is who may see the page the
// link is on.
func (s *Room) DownloadRoutes(e *echo.Echo) {
	e.GET("/games/:id/record.kif", s.recordDownload(office.DownloadKIF))
	e.GET("/games/:id/record.csa", s.recordDownload(office.DownloadCSA))
	e.GET("/games/:id/record.usi", s.recordDownload(office.DownloadUSI))
	e.GET("/events/:id/records.zip", s.eventRecordsZip)
	e.GET("/stages/:id/records.zip", s.stageRecordsZip)
}

// downloadLink is one link of the download lists on the game, event and
// stage pages.
type downloadLink struct {
	Href   string
	Label  string // message id
	TestID string
}

// gameDownloadLinks are the game page's links.
func gameDownloadLinks(gameID int64) []downloadLink {
	base := site.GameURL(gameID) + "/record"
	return []downloadLink{
		{Href: base + ".kif", Label: "downloads.format.kif", TestID: "download-kif"},
		{Href: base + ".kif?charset=sjis", Label: "downloads.format.kif-sjis", TestID: "download-kif-sjis"},
		{Href: base + ".csa", Label: "downloads.format.csa", TestID: "download-csa"},
		{Href: base + ".usi", Label: "downloads.format.usi", TestID: "download-usi"},
	}
}

// resultDownloadLinks are the game page's links for a game without a
// record but with a decided result: KIF and CSA only (USI holds no result).
func resultDownloadLinks(gameID int64) []downloadLink {
	return gameDownloadLinks(gameID)[:3]
}

// zipDownloadLinks are the links to a set's zip, one per format.
func ZipDownloadLinks(path, testPrefix string) []downloadLink {
	var out []downloadLink
	for _, f := range office.DownloadFormats {
		out = append(out, downloadLink{Href: path + "?format=" + string(f), Label: "downloads.format." + string(f), TestID: testPrefix + string(f)})
	}
	return out
}

// downloadFormat reads ?format= (zips) or the route's format and
// ?charset= (KIF); a bad value is a localised 422 naming the field.
func (s *Room) downloadFormat(c echo.Context, format string) (office.DownloadFormat, bool, error) {
	f, err := office.ParseDownloadFormat(format, c.QueryParam("charset"))
	if msgs, ok := site.FieldMsgsOf(c.Request().Context(), err); ok {
		return "", false, s.Render(c, http.StatusUnprocessableEntity, DownloadErrorPage(s.Page(c, site.L(c.Request().Context()).T("downloads.title")), msgs))
	}
	return f, err == nil, err
}

func (s *Room) recordDownload(f office.DownloadFormat) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := site.PathID(c)
		if err != nil {
			return err
		}
		f, ok, err := s.downloadFormat(c, string(f))
		if !ok {
			return err
		}
		if done, err := s.NotModifiedGame(c, id, site.CondOpts{NotLive: true}); done || err != nil {
			return err
		}
		file, err := s.Office.GameRecordFile(c.Request().Context(), site.Actor(c), id, f)
		if msgs, ok := site.FieldMsgsOf(c.Request().Context(), err); ok {
			return s.Render(c, http.StatusUnprocessableEntity, DownloadErrorPage(s.Page(c, site.L(c.Request().Context()).T("downloads.title")), msgs))
		}
		if err != nil {
			return err
		}
		h := c.Response().Header()
		h.Set(echo.HeaderContentDisposition, ContentDisposition(file.ASCIIName, file.Name))
		h.Set("Cache-Control", "private, no-cache") // as the conditional GET (cache.go) says
		return c.Blob(http.StatusOK, file.ContentType, file.Body)
	}
}

func (s *Room) eventRecordsZip(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	f, ok, err := s.downloadFormat(c, c.QueryParam("format"))
	if !ok {
		return err
	}
	if done, err := s.Conditional(c, func(context.Context) (int64, error) { return id, nil }, site.CondOpts{NotLive: true}); done || err != nil {
		return err
	}
	set, err := s.Office.EventRecordFiles(c.Request().Context(), site.Actor(c), id, f)
	return s.sendZip(c, set, f, err)
}

func (s *Room) stageRecordsZip(c echo.Context) error {
	id, err := site.PathID(c)
	if err != nil {
		return err
	}
	f, ok, err := s.downloadFormat(c, c.QueryParam("format"))
	if !ok {
		return err
	}
	if done, err := s.Conditional(c, s.EventOfStage(site.Actor(c), id), site.CondOpts{NotLive: true}); done || err != nil {
		return err
	}
	set, err := s.Office.StageRecordFiles(c.Request().Context(), site.Actor(c), id, f)
	return s.sendZip(c, set, f, err)
}

// sendZip streams the set as a zip, one file per game. Every record was
// written before the first byte (office), so an error never sends half an
// archive; only a failed write to the client can stop it.
func (s *Room) sendZip(c echo.Context, set office.RecordSet, f office.DownloadFormat, err error) error {
	if msgs, ok := site.FieldMsgsOf(c.Request().Context(), err); ok {
		return s.Render(c, http.StatusUnprocessableEntity, DownloadErrorPage(s.Page(c, site.L(c.Request().Context()).T("downloads.title")), msgs))
	}
	if err != nil {
		return err
	}
	suffix := "_" + string(f) + ".zip"
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "application/zip")
	h.Set(echo.HeaderContentDisposition, ContentDisposition(set.ASCIIName+suffix, set.Name+suffix))
	h.Set("Cache-Control", "private, no-cache")
	c.Response().WriteHeader(http.StatusOK)
	buf := bufio.NewWriterSize(c.Response(), 32<<10)
	zw := zip.NewWriter(buf)
	now := time.Now()
	for _, file := range set.Files {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: file.Name, Method: zip.Deflate, Modified: now})
		if err != nil {
			return fmt.Errorf("zip %s: %w", file.Name, err)
		}
		if _, err := w.Write(file.Body); err != nil {
			return fmt.Errorf("zip %s: %w", file.Name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	return buf.Flush()
}

// contentDisposition names a download for every browser: an ASCII
// filename for old clients and the real (Japanese) name as RFC 5987
// filename* (RFC 6266 §4.3: clients that know filename* prefer it).
func ContentDisposition(ascii, name string) string {
	return fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, strings.ReplaceAll(ascii, `"`, ""), rfc5987(name))
}

// rfc5987 percent-encodes every byte outside RFC 5987's attr-char.
func rfc5987(s string) string {
	const attrChar = "!#$&+-.^_`|~"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte(attrChar, ch) >= 0 {
			b.WriteByte(ch)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", ch)
	}
	return b.String()
}
