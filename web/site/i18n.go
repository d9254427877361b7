package site

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Languages Kisen speaks; the first is the default.
var Languages = []string{"ja", "en"}

//go:embed locales/ja/*.json locales/en/*.json
var localeFiles embed.FS

// Messages holds every visible string in both languages. Each area of the
// site keeps its own file per language (locales/ja/players.json, …); every
// file is a flat object of message id → text.
type Messages struct {
	bundle *i18n.Bundle
	keys   map[string]map[string]bool // lang → id set
	// plain keeps each message without template data once localized
	// (lang + "\x00" + id → text): a large page asks for the same words
	// thousands of times (issue 12).
	plain sync.Map
}

// LoadMessages reads the embedded message files.
func LoadMessages() (*Messages, error) {
	b := i18n.NewBundle(language.Japanese)
	b.RegisterUnmarshalFunc("json", json.Unmarshal)
	m := &Messages{bundle: b, keys: map[string]map[string]bool{}}
	for _, lang := range Languages {
		m.keys[lang] = map[string]bool{}
		names, err := fs.Glob(localeFiles, "locales/"+lang+"/*.json")
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			raw, err := localeFiles.ReadFile(name)
			if err != nil {
				return nil, err
			}
			var flat map[string]string
			if err := json.Unmarshal(raw, &flat); err != nil {
				return nil, fmt.Errorf("message file %s: %w", name, err)
			}
			tag := language.MustParse(lang)
			for id, text := range flat {
				if m.keys[lang][id] {
					return nil, fmt.Errorf("message file %s: id %q defined twice for %s", path.Base(name), id, lang)
				}
				m.keys[lang][id] = true
				if err := b.AddMessages(tag, &i18n.Message{ID: id, Other: text}); err != nil {
					return nil, fmt.Errorf("message file %s, id %q: %w", name, id, err)
				}
			}
		}
	}
	return m, nil
}

// IDs lists the message ids of one language, sorted.
func (m *Messages) IDs(lang string) []string {
	out := make([]string, 0, len(m.keys[lang]))
	for id := range m.keys[lang] {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Has reports whether a message id exists in a language.
func (m *Messages) Has(lang, id string) bool { return m.keys[lang][id] }

// Localizer is one request's translator.
type Localizer struct {
	Lang string
	l    *i18n.Localizer
	m    *Messages
}

// For returns the translator for lang (falling back to Japanese).
func (m *Messages) For(lang string) *Localizer {
	if lang != "en" {
		lang = "ja"
	}
	return &Localizer{Lang: lang, l: i18n.NewLocalizer(m.bundle, lang), m: m}
}

// T translates id; args are key/value pairs for the message template. A
// missing id shows the id itself (a test keeps that from shipping).
func (lz *Localizer) T(id string, args ...any) string {
	if lz.l == nil {
		return id
	}
	if len(args) == 0 {
		key := lz.Lang + "\x00" + id
		if s, ok := lz.m.plain.Load(key); ok {
			return s.(string)
		}
		s, err := lz.l.Localize(&i18n.LocalizeConfig{MessageID: id})
		if err != nil {
			return id
		}
		lz.m.plain.Store(key, s)
		return s
	}
	var data map[string]any
	if len(args) > 0 {
		data = make(map[string]any, len(args)/2)
		for i := 0; i+1 < len(args); i += 2 {
			data[fmt.Sprint(args[i])] = args[i+1]
		}
	}
	s, err := lz.l.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
	if err != nil {
		return id
	}
	return s
}

// TData translates id with a ready map of template data.
func (lz *Localizer) TData(id string, data map[string]any) string {
	if lz.l == nil {
		return id
	}
	s, err := lz.l.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data})
	if err != nil {
		return id
	}
	return s
}

type localizerKey struct{}

// WithLocalizer puts a translator into ctx for components.
func WithLocalizer(ctx context.Context, lz *Localizer) context.Context {
	return context.WithValue(ctx, localizerKey{}, lz)
}

// L returns the translator in ctx; without one, ids show as themselves.
func L(ctx context.Context) *Localizer {
	if lz, ok := ctx.Value(localizerKey{}).(*Localizer); ok {
		return lz
	}
	return &Localizer{Lang: "ja"}
}

// T translates id with the translator in ctx; used by templ components.
func T(ctx context.Context, id string, args ...any) string { return L(ctx).T(id, args...) }

// Lang is the language of the request in ctx.
func Lang(ctx context.Context) string { return L(ctx).Lang }
