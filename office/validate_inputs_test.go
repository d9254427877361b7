package office_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kisen/office"
	"kisen/office/day"
	"kisen/office/ratings"
	"kisen/office/teams"
)

// taggedInputs are the office inputs whose rules are validate tags: every
// message their tags can give must exist in both languages. The AST test
// below fails when a tagged input is missing here.
var taggedInputs = []any{
	office.EventInput{}, office.OrganiserInput{}, office.StageInput{}, office.EntrantInput{},
	office.GameInput{}, office.ResultInput{}, office.UndoInput{}, office.LeagueClassInput{},
	office.RulingInput{}, office.EndInput{}, office.FoulClaimInput{}, office.RecordInput{},
	office.QuickResultInput{}, office.LeagueResultInput{}, office.ChainResultInput{}, office.ChainOutcomeInput{},
	office.DrawInput{}, office.SwapInput{}, office.ScheduleInput{}, office.ScheduleEdit{},
	office.SetupInput{}, office.NewUser{}, office.PasswordChange{}, office.TokenInput{},
	office.RelativeInput{}, office.PlayerInput{}, office.SeatFactsInput{}, office.SettingsForm{},
	office.AppealInput{}, office.AppealDecisionInput{},
	day.ClassInput{}, day.FeeInput{}, day.PaperInput{}, day.EntryFormInput{}, day.EntryDecision{},
	ratings.RatingSettingsInput{},
	teams.TeamInput{}, teams.SettingsInput{},
}

// untaggedInputs are the exported *Input structs of the office with no
// validate tag, each with the reason.
var untaggedInputs = map[string]string{
	"office.NextTermInput":      "checked as the EventInput RollOver builds from it",
	"office.RankingTermInput":   "its Event is an EventInput, checked by its tags; new entrants must be registered players and the fingerprint the preview's",
	"office.PlayoffGameInput":   "checked as the GameInput CreatePlayoffGame builds from it",
	"office.DrawnStageInput":    "its Stage is a StageInput, checked by its tags; the rest the office computes",
	"office.TossInput":          "domain rule: the pieces of a 振り駒, each named in its message",
	"office.SeatOverrideInput":  "domain rule: the 上座 is one of the game's two players; the reason required, storable and bounded, each named",
	"office.HandicapInput":      "domain rule: a 手合割 table read line by line, the line named in the message",
	"office.ClassSettingsInput": "domain rule: league draw settings; league.CheckSettings names the rule each breaks",
	"office.TermMemberInput":    "domain rule: each change's reason kinds (office.TermKinds), a reason in words, 降級点 0–9, each named in its term.err message; the rest are ids and the version seen",
	"office.LoginInput":         "sign-in tries any text: a wrong login or password is a failed attempt, not a field error",
	"teams.DeskResultInput":     "its outcome is checked as the office.ChainOutcomeInput it becomes",
	"day.BoardResultInput":      "its result is checked as the office.ChainResultInput it becomes",
	"day.BoardTossInput":        "domain rule: the 振り駒 count; the rest are ids",
	"day.FinalInput":            "ids and the previewed seed and fingerprint, compared with the preview",
	"day.ConfirmInput":          "ids and the previewed seed and fingerprint, compared with the preview",
	"day.EntryInput":            "domain rule: the declared rank (rank grammar) and the class's fee categories",
	"day.ReportInput":           "domain rule: the winner is one of the board's players; the token is checked as a secret",
	"day.LoneReportInput":       "ids only",
	"day.WalkInInput":           "checked as the office.PlayerInput and MasterRef it becomes",
	"day.EntrySettingsInput":    "domain rule: a deadline in Japan time and a whole number per class, each named",
	"office.LiveMoveInput":      "domain rule: the move is read by the rules from the position the stored moves reach, the ply and version compared with the record; an illegal move is named in its message",
	"teams.MemberInput":         "domain rule: a roster row is a registered player's id or a name and reading matched against the registry, its rank read by the rank grammar, each named by row",
	"teams.RoundInput":          "domain rule: a round number and a deadline in Japan time that lies in the future, each named",
	"teams.OrderInput":          "domain rule: the order is checked against the roster by the event's order rule (pairing.CheckTeamOrder), each breach naming its boards and players",
	"teams.MatchInput":          "domain rule: a table number and two teams of the round's event, each refusal named",
	"teams.DrawInput":           "the round's version and the preview's fingerprint, compared with the draw made again inside the transaction (stale: 409)",
	"teams.ScoringInput":        "domain rule: match points whole or in halves with win ≥ draw ≥ loss, bye board wins within the boards, tie-breaks from the engine's list each once, each refusal named by field",
	"teams.CSVInput":            "a pasted list or CSV file read line by line, each line's problems named in the preview; the fingerprint compared with the preview",
	"day.BulkInput":             "a pasted list or CSV file read line by line, each line's problems named in the preview; the fingerprint compared with the preview",
}

// officeStructs parses every non-test Go file under office/ and returns,
// by "package.Type", whether each exported struct has a validate tag.
func officeStructs(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok || !ts.Name.IsExported() {
					continue
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				tagged := false
				for _, fld := range st.Fields.List {
					if fld.Tag != nil && strings.Contains(fld.Tag.Value, `validate:"`) {
						tagged = true
					}
				}
				out[f.Name.Name+"."+ts.Name.Name] = tagged
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Issue 22 §3: every office input states its rules as validate tags, or
// is listed with the reason it has none; a new *Input without either
// fails here.
func TestValidate_EveryOfficeInputHasTagsOrAReason(t *testing.T) {
	structs := officeStructs(t)
	listed := map[string]bool{}
	for _, in := range taggedInputs {
		listed[reflect.TypeOf(in).String()] = true
	}
	for name, tagged := range structs {
		_, excused := untaggedInputs[name]
		switch {
		case tagged && excused:
			t.Errorf("%s has validate tags now: take it out of untaggedInputs", name)
		case tagged && !listed[name]:
			t.Errorf("%s has validate tags: add it to taggedInputs so its messages are checked", name)
		case !tagged && !excused && strings.HasSuffix(name, "Input"):
			t.Errorf("%s has no validate tag: state its rules as tags, or list it in untaggedInputs with the reason", name)
		}
	}
	for name := range untaggedInputs {
		if _, ok := structs[name]; !ok {
			t.Errorf("untaggedInputs names %s, which no longer exists", name)
		}
	}
}

// loadLocale reads every message of web/site/locales/<lang>.
func loadLocale(t *testing.T, lang string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "web", "site", "locales", lang, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("locale %s: %v (%d files)", lang, err, len(files))
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// Every message a tag can give exists in Japanese and English, so a
// refused field always reads as a sentence in the reader's language.
func TestValidate_EveryTagMessageExistsInBothLocales(t *testing.T) {
	ja, en := loadLocale(t, "ja"), loadLocale(t, "en")
	for _, in := range taggedInputs {
		ids := office.InputMessageIDs(in)
		if len(ids) == 0 {
			t.Errorf("%T has no validate tags", in)
		}
		for field, list := range ids {
			for _, id := range list {
				if _, ok := ja[id]; !ok {
					t.Errorf("%T field %s: message %s missing in ja", in, field, id)
				}
				if _, ok := en[id]; !ok {
					t.Errorf("%T field %s: message %s missing in en", in, field, id)
				}
			}
		}
	}
}
