package web

import "context"

// stageName is a knockout stage's name in the reader's language (issue 13):
// on an English page its English name; without one, a stage named exactly
// as its kind reads in Japanese (一次予選, 本戦 …) is shown with the kind's
// English words from the locale files; any other name is shown as typed.
func stageName(ctx context.Context, name, nameEn, kind string) string {
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
