package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kisen/adjudication"
	"kisen/office/day"
	"kisen/web/site"
)

// The OpenAPI 3.1 document of the API, generated from the Go types of
// api_types.go by reflection when the server starts: the document cannot
// drift from what the handlers encode, and the contract tests validate
// every answer against it (api_contract_test.go). No library is needed for
// this small subset of JSON Schema 2020-12 (OpenAPI 3.1's dialect):
// objects with required properties and no others, arrays, nullable
// pointers, enums, date and date-time strings.

// apiOperation is one documented route.
type apiOperation struct {
	Method, Path string // Path in OpenAPI form: /games/{id}
	Summary      string
	Params       []apiParam
	Body         any // request body type (nil: none)
	OK           any // 200 body type
	Status       int // 200 unless set
	Paged        bool
	Token        bool // needs a bearer token
	Errors       []int
	handler      echo.HandlerFunc
}

type apiParam struct {
	Name, In, Type, Doc string
	Required            bool
}

var timeType = reflect.TypeOf(time.Time{})

// apiEnums are the enums a type names with enum:"@name": value lists
// the code owns, read from the code so the document cannot drift from
// what the writes accept.
var apiEnums = map[string]func() []string{
	"ending":    func() []string { return KindsOf(adjudication.EndingKinds()) },
	"ruling":    func() []string { return KindsOf(adjudication.RulingKinds()) },
	"day_shown": day.ShownKinds, // a day class's standings status (api_day.go)
}

func KindsOf[K ~string](ks []K) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}

// schemaGen collects component schemas as it walks types.
type schemaGen struct {
	components map[string]any
}

func (g *schemaGen) ref(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if _, ok := g.components[t.Name()]; !ok {
		g.components[t.Name()] = nil // reserve: recursive types stop here
		g.components[t.Name()] = g.object(t)
	}
	return map[string]any{"$ref": "#/components/schemas/" + t.Name()}
}

func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		s := g.schema(f.Type)
		if d := f.Tag.Get("doc"); d != "" {
			s = withKey(s, "description", d)
		}
		if fm := f.Tag.Get("format"); fm != "" {
			s = withKey(s, "format", fm)
		}
		if e := f.Tag.Get("enum"); e != "" {
			vals := []any{}
			list := strings.Split(e, ",")
			if named, ok := strings.CutPrefix(e, "@"); ok {
				list = apiEnums[named]()
			}
			for _, v := range list {
				vals = append(vals, v)
			}
			if f.Type.Kind() == reflect.Pointer {
				vals = append(vals, nil)
			}
			s = withKey(s, "enum", vals)
		}
		props[name] = s
		if !strings.Contains(opts, "omitempty") {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

// withKey adds a keyword to a schema; a $ref is wrapped so siblings stay
// valid everywhere.
func withKey(s map[string]any, k string, v any) map[string]any {
	if _, ok := s["$ref"]; ok {
		return map[string]any{"allOf": []any{s}, k: v}
	}
	out := map[string]any{}
	for kk, vv := range s {
		out[kk] = vv
	}
	out[k] = v
	return out
}

func (g *schemaGen) schema(t reflect.Type) map[string]any {
	if t.Kind() == reflect.Pointer {
		inner := g.schema(t.Elem())
		if _, ok := inner["$ref"]; ok {
			return map[string]any{"oneOf": []any{inner, map[string]any{"type": "null"}}}
		}
		out := withKey(inner, "type", []any{inner["type"], "null"})
		return out
	}
	if t == timeType {
		return map[string]any{"type": "string", "format": "date-time"}
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Int32:
		return map[string]any{"type": "integer"}
	case reflect.Float64, reflect.Float32:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem())}
	case reflect.Struct:
		return g.ref(t)
	}
	panic("openapi: no schema for " + t.String()) // a programming error, caught by the first test
}

// openAPIDocument builds the document for the operations.
func OpenAPIDocument(ops []apiOperation) ([]byte, error) {
	g := &schemaGen{components: map[string]any{}}
	errRef := g.ref(reflect.TypeOf(APIError{}))
	paths := map[string]any{}
	for _, op := range ops {
		item, _ := paths[op.Path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[op.Path] = item
		}
		var params []any
		for _, p := range op.Params {
			params = append(params, map[string]any{"name": p.Name, "in": p.In, "required": p.Required,
				"description": p.Doc, "schema": map[string]any{"type": p.Type}})
		}
		if op.Paged {
			params = append(params,
				map[string]any{"name": "cursor", "in": "query", "required": false, "description": "opaque; next_cursor of the previous page", "schema": map[string]any{"type": "string"}},
				map[string]any{"name": "limit", "in": "query", "required": false, "description": "items per page (default 50, at most 200)",
					"schema": map[string]any{"type": "integer", "minimum": 1, "maximum": apiMaxLimit}})
		}
		status := op.Status
		if status == 0 {
			status = 200
		}
		jsonBody := func(ref map[string]any, desc string) map[string]any {
			return map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": ref}}}
		}
		responses := map[string]any{site.Itoa(status): jsonBody(g.ref(reflect.TypeOf(op.OK)), "OK")}
		errs := append([]int{429, 503}, op.Errors...)
		if op.Method == "get" {
			responses["304"] = map[string]any{"description": "Not Modified (If-None-Match matched the ETag)"}
			// A read needs no token, but one sent must be valid: a bad
			// one is 401, never read as the public.
			errs = append(errs, 401)
		}
		if op.Paged {
			errs = append(errs, 400) // a cursor this list did not give out
		}
		for _, code := range errs {
			responses[site.Itoa(code)] = jsonBody(errRef, httpStatusText(code))
		}
		o := map[string]any{"summary": op.Summary, "operationId": op.Method + strings.NewReplacer("/", "_", "{", "", "}", "").Replace(op.Path),
			"responses": responses}
		if len(params) > 0 {
			o["parameters"] = params
		}
		if op.Body != nil {
			o["requestBody"] = map[string]any{"required": true,
				"content": map[string]any{"application/json": map[string]any{"schema": g.ref(reflect.TypeOf(op.Body))}}}
		}
		// Every operation states its security: a write needs the bearer
		// token; a read is open to anyone ({}: no token) or to a token
		// (read_drafts reads a draft event).
		o["security"] = []any{map[string]any{}, map[string]any{"bearer": []any{}}}
		if op.Token {
			o["security"] = []any{map[string]any{"bearer": []any{}}}
		}
		item[op.Method] = o
	}
	doc := map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
		"info": map[string]any{"title": "Kisen public API", "version": "1",
			"description": "Published tournament data, and writes through event tokens. See docs/api.md."},
		"servers": []any{map[string]any{"url": "/api/v1"}},
		"paths":   paths,
		"components": map[string]any{
			"schemas": g.components,
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer",
				"description": "an event token made by a director on the event's token page"}},
		},
	}
	return json.MarshalIndent(doc, "", "  ")
}

func httpStatusText(code int) string {
	switch code {
	case 304:
		return "Not Modified"
	case 400:
		return "bad_cursor: the cursor is not one this list gave out"
	case 401:
		return "no valid token"
	case 403:
		return "the token's scope does not allow this"
	case 404:
		return "not found, or not public"
	case 409:
		return "stale: the result changed since the version sent"
	case 413:
		return "body too large"
	case 415:
		return "the body is not application/json"
	case 503:
		return "the database cannot be reached: try again after retry_after seconds"
	case 422:
		return "invalid input: fields names what is wrong"
	case 429:
		return "rate limited: wait retry_after seconds (Retry-After)"
	}
	return "error"
}
