package office

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"kisen/store"
)

// Embeds (issue 15 part 6, docs/embeds.md): an organiser's published
// brackets and league tables may be shown inside the organiser's own site.
// Which sites may frame them is an organiser setting, the key
// embed_origins of the organiser's settings JSON: a list of origins
// (scheme://host[:port]). An empty list frames nowhere.

// maxEmbedOrigins bounds the list (a CSP header has to carry it).
const maxEmbedOrigins = 50

// embedSettings is the part of the organiser's settings JSON this file owns.
type embedSettings struct {
	Origins []string `json:"embed_origins"`
}

// ParseEmbedOrigins reads the form's text: one origin a line, blank lines
// ignored, a trailing "/" dropped, scheme and host lower-cased, duplicates
// kept once. A line that is not http(s)://host[:port] is an error naming
// its line.
func ParseEmbedOrigins(text string) ([]string, error) {
	v := &ValidationError{}
	var out []string
	seen := map[string]bool{}
	for i, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line := strings.TrimSpace(strings.ReplaceAll(raw, "　", " "))
		if line == "" {
			continue
		}
		o, ok := normaliseOrigin(line)
		if !ok {
			v.Add(0, "origins", "embeds.err.origin", map[string]any{"Line": i + 1, "Value": line})
			continue
		}
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	if len(out) > maxEmbedOrigins {
		v.Add(0, "origins", "embeds.err.too_many", map[string]any{"Max": maxEmbedOrigins})
	}
	return out, v.OrNil()
}

// normaliseOrigin checks one origin: http or https, a host name or IP
// address, an optional port, and nothing else (no user, path, query or
// fragment) — what a browser compares frame-ancestors against.
func normaliseOrigin(s string) (string, bool) {
	s = strings.TrimSuffix(s, "/")
	if strings.ContainsAny(s, " \t'\";,*") {
		return "", false
	}
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "#") {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	if !validHost(host) {
		return "", false
	}
	out := scheme + "://" + host
	if strings.Contains(host, ":") { // IPv6
		out = scheme + "://[" + host + "]"
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 || strings.HasPrefix(p, "0") {
			return "", false
		}
		out += ":" + p
	} else if strings.HasSuffix(u.Host, ":") {
		return "", false
	}
	return out, true
}

// validHost accepts a DNS name (letters, digits, hyphens; labels of 1–63)
// or an IP address.
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	if strings.Contains(h, ":") { // IPv6, already unbracketed by url.Hostname
		for _, r := range h {
			if !(r == ':' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
				return false
			}
		}
		return true
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

func embedOriginsOf(settings string) []string {
	var es embedSettings
	if json.Unmarshal([]byte(settings), &es) != nil {
		return nil
	}
	// Stored lists were checked when saved; check again so a hand-edited
	// row can never put anything but origins into a header.
	var out []string
	for _, o := range es.Origins {
		if n, ok := normaliseOrigin(o); ok {
			out = append(out, n)
		}
	}
	return out
}

// OrganiserEmbeds is an organiser with the origins allowed to frame its
// embeds.
type OrganiserEmbeds struct {
	Organiser store.Organiser
	Origins   []string
}

// OrganiserEmbedOrigins reads the setting (administrators, like the rest
// of the organiser's settings).
func (o *Office) OrganiserEmbedOrigins(ctx context.Context, actor Actor, organiserID int64) (OrganiserEmbeds, error) {
	if err := actor.RequireAdmin(); err != nil {
		return OrganiserEmbeds{}, err
	}
	org, err := o.store.OrganiserByID(ctx, organiserID)
	if err != nil {
		return OrganiserEmbeds{}, err
	}
	return OrganiserEmbeds{Organiser: org, Origins: embedOriginsOf(org.Settings)}, nil
}

// SetOrganiserEmbedOrigins saves the list as typed (ParseEmbedOrigins);
// empty text removes it. Other settings keys are kept. Unlike the
// adjudication settings, events do not copy it: it takes effect on every
// embed of the organiser at once.
func (o *Office) SetOrganiserEmbedOrigins(ctx context.Context, actor Actor, organiserID int64, text string) error {
	if err := actor.RequireAdmin(); err != nil {
		return err
	}
	origins, err := ParseEmbedOrigins(text)
	if err != nil {
		return err
	}
	return o.store.Tx(ctx, func(tx *store.Store) error {
		org, err := tx.OrganiserByID(ctx, organiserID)
		if err != nil {
			return err
		}
		all := map[string]json.RawMessage{}
		_ = json.Unmarshal([]byte(org.Settings), &all) // unreadable JSON is replaced, as on the other organiser forms
		if all == nil {
			all = map[string]json.RawMessage{}
		}
		if len(origins) == 0 {
			delete(all, "embed_origins")
		} else {
			all["embed_origins"] = json.RawMessage(mustJSON(origins))
		}
		return tx.SetOrganiserSettings(ctx, organiserID, mustJSON(all), o.now())
	})
}

// EmbedOrigins is the list in force for an event's embeds: its
// organiser's, read now (public: the embed page needs it for every
// visitor; it says only where the page may be shown).
func (o *Office) EmbedOrigins(ctx context.Context, e store.Event) ([]string, error) {
	org, err := o.store.OrganiserByID(ctx, e.OrganiserID)
	if err != nil {
		return nil, err
	}
	return embedOriginsOf(org.Settings), nil
}
