package api

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"kisen/adjudication"
)

// apiDocument is the document the server serves, built without a server
// (the operations' handlers are not called).
func apiDocument(t *testing.T) (map[string]any, []byte) {
	t.Helper()
	b, err := OpenAPIDocument((*Room)(nil).APIOperations())
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc, b
}

// resolvePointer follows a local $ref ("#/a/b") in doc.
func resolvePointer(doc map[string]any, ref string) (any, bool) {
	p, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	var v any = doc
	for _, seg := range strings.Split(p, "/") {
		seg = strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return v, true
}

func stringsOf(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// Issue 21 item 10: the OpenAPI document, checked in the ways Go can:
// every operation declares its security — a write the bearer token, a read
// no token or the bearer token — and its 401 answer in the error schema;
// every security requirement names a defined scheme; every $ref anywhere
// in the document resolves; the outcome kind and the ruling kind carry
// the enums of the code's own lists. (The structure of each schema is
// compiled by TestAPI_DocumentIsWellFormedAndCoversEveryRoute; redocly's
// rules run in TestAPI_DocumentLintsCleanWithRedocly.)
func TestAPI_DocumentDeclaresSecurity401AndEnumsAndEveryRefResolves(t *testing.T) {
	t.Parallel()
	doc, _ := apiDocument(t)
	schemes := doc["components"].(map[string]any)["securitySchemes"].(map[string]any)
	ops := 0
	for path, item := range doc["paths"].(map[string]any) {
		for method, op := range item.(map[string]any) {
			ops++
			o := op.(map[string]any)
			sec, ok := o["security"].([]any)
			if !ok || len(sec) == 0 {
				t.Errorf("%s %s: no security", method, path)
				continue
			}
			anonymous, bearer := false, false
			for _, req := range sec {
				r := req.(map[string]any)
				if len(r) == 0 {
					anonymous = true
				}
				for name := range r {
					if _, ok := schemes[name]; !ok {
						t.Errorf("%s %s: security scheme %q is not defined", method, path, name)
					}
					bearer = bearer || name == "bearer"
				}
			}
			if !bearer || anonymous != (method == "get") {
				t.Errorf("%s %s: security %v (a read: none or bearer; a write: bearer only)", method, path, sec)
			}
			r401, ok := o["responses"].(map[string]any)["401"].(map[string]any)
			if !ok {
				t.Errorf("%s %s: no 401 answer", method, path)
				continue
			}
			ref, _ := r401["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"].(string)
			if ref != "#/components/schemas/APIError" {
				t.Errorf("%s %s: 401 answers %q, not the error schema", method, path, ref)
			}
		}
	}
	if ops < 17 {
		t.Fatalf("only %d operations in the document", ops)
	}
	// Every $ref resolves.
	refs := 0
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch x := v.(type) {
		case map[string]any:
			for k, vv := range x {
				if k == "$ref" {
					refs++
					if _, ok := resolvePointer(doc, vv.(string)); !ok {
						t.Errorf("%s: $ref %v resolves nowhere", at, vv)
					}
					continue
				}
				walk(vv, at+"/"+k)
			}
		case []any:
			for _, vv := range x {
				walk(vv, at)
			}
		}
	}
	walk(doc, "#")
	if refs < 50 {
		t.Fatalf("only %d $refs found: the walk is broken", refs)
	}
	if _, ok := resolvePointer(doc, "#/components/schemas/NoSuchThing"); ok {
		t.Fatal("resolvePointer resolves anything")
	}
	// Enums.
	prop := func(schema, field string) map[string]any {
		v, ok := resolvePointer(doc, "#/components/schemas/"+schema+"/properties/"+field)
		if !ok {
			t.Fatalf("%s.%s is not in the document", schema, field)
		}
		return v.(map[string]any)
	}
	enumOf := func(schema, field string) []string {
		e, ok := prop(schema, field)["enum"]
		if !ok {
			t.Errorf("%s.%s has no enum", schema, field)
			return nil
		}
		return stringsOf(e)
	}
	if got, want := enumOf("APIResultInput", "kind"), KindsOf(adjudication.EndingKinds()); !slices.Equal(got, want) {
		t.Errorf("the outcome kind's enum %v, the code's kinds %v", got, want)
	}
	if got, want := enumOf("APIRulingInput", "kind"), KindsOf(adjudication.RulingKinds()); !slices.Equal(got, want) {
		t.Errorf("the ruling kind's enum %v, the code's kinds %v", got, want)
	}
	for _, f := range [][2]string{{"APIEvent", "status"}, {"APIResultVersion", "result"}, {"APIResultInput", "by"}, {"APIRecordInput", "format"}} {
		if len(enumOf(f[0], f[1])) == 0 {
			t.Errorf("%s.%s: empty enum", f[0], f[1])
		}
	}
}

// Issue 21 item 10: docs/api.md names the outcome kinds a result write
// takes, and they are the code's, all of them (it said `time` for
// time_forfeit).
func TestAPI_DocsListTheRealOutcomeKinds(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "- `POST /games/{id}/result`")
	if start < 0 {
		t.Fatal("docs/api.md: no bullet for POST /games/{id}/result")
	}
	bullet := text[start:]
	if end := strings.Index(bullet[1:], "\n- "); end > 0 {
		bullet = bullet[:end+1]
	}
	from := strings.Index(bullet, "`kind`")
	to := strings.Index(bullet, "`by`")
	if from < 0 || to < from {
		t.Fatalf("the bullet does not name kind before by:\n%s", bullet)
	}
	var listed []string
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(bullet[from+len("`kind`"):to], -1) {
		listed = append(listed, m[1])
	}
	if want := KindsOf(adjudication.EndingKinds()); !slices.Equal(listed, want) {
		t.Errorf("docs/api.md lists the kinds %v; the code's are %v", listed, want)
	}
}

// The served document lints clean with Redocly CLI's recommended rules
// (web/api/testdata/redocly.yaml: all of them but info-license, as Kisen names
// no licence). Runs when KISEN_REDOCLY names the redocly program (npm
// install --prefix DIR @redocly/cli; DIR/node_modules/.bin/redocly); .ci/run
// installs it pinned (2.77.0) and sets KISEN_REDOCLY, so CI always lints.
func TestAPI_DocumentLintsCleanWithRedocly(t *testing.T) {
	t.Parallel()
	bin := os.Getenv("KISEN_REDOCLY")
	if bin == "" {
		t.Skip("KISEN_REDOCLY is not set")
	}
	_, b := apiDocument(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "openapi.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	conf, err := filepath.Abs("testdata/redocly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "lint", "--config", conf, "--format", "stylish", file)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	out, err := cmd.CombinedOutput()
	// Exit status 1 on an error; a warning is a line "l:c  warning  rule …".
	if err != nil || regexp.MustCompile(`\d+:\d+\s+warning\s`).Match(out) {
		t.Fatalf("redocly lint: %v\n%s", err, out)
	}
}
