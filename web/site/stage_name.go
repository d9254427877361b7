package site

import (
	"context"
	"strings"

	"kisen/office"
)

// stageName is a knockout stage's name in the reader's language (issue 13):
// on an English page its English name; without one, a stage named exactly
// as its kind reads in Japanese (一次予選, 本戦 …) is shown with the kind's
// English words from the locale files; any other name is shown as typed.
func StageName(ctx context.Context, name, nameEn, kind string) string {
	lz := L(ctx)
	if lz.Lang != "en" {
		return name
	}
	if nameEn != "" {
		return nameEn
	}
	if kind != "" && lz.m != nil && name == lz.m.For("ja").T("knockout.kind."+kind) {
		return lz.T("knockout.kind." + kind)
	}
	return name
}

// gameLabel is a game's stored label as the reader reads it. A bracket
// game's label is written once, when its stage is published, as the stage's
// name and the game's place (「一次予選 R1-G1」). On an English page a label
// that starts with the name of one of stages (the event's, when the page has
// them) that has an English name says that name instead; one that starts
// with a kind's Japanese word says the kind in English ("First preliminary
// R1-G1"). Other labels are data and are shown as stored.
func GameLabel(ctx context.Context, label string, stages ...office.KnockoutStage) string {
	lz := L(ctx)
	if lz.Lang != "en" || lz.m == nil {
		return label
	}
	for _, st := range stages {
		if rest, ok := strings.CutPrefix(label, st.Name+" "); ok && st.NameEn != "" {
			return st.NameEn + " " + rest
		}
	}
	ja := lz.m.For("ja")
	for _, kind := range stageKinds {
		if rest, ok := strings.CutPrefix(label, ja.T("knockout.kind."+kind)+" "); ok {
			return lz.T("knockout.kind."+kind) + " " + rest
		}
	}
	return label
}

// labelStages are the stages gameLabel needs for an event's games: none on
// a Japanese page (one statement on an English one).
func (s *Server) LabelStages(ctx context.Context, eventID int64) ([]office.KnockoutStage, error) {
	if L(ctx).Lang != "en" {
		return nil, nil
	}
	return s.Office.LabelStages(ctx, eventID)
}

// stageKinds are the knockout stage kinds whose names have locale words.
var stageKinds = []string{"first_preliminary", "second_preliminary", "main", "series"}
