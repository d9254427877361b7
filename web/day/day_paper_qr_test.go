package day

import (
	"image"
	"image/color"
	"strconv"
	"strings"
	"testing"

	"github.com/boombuler/barcode/qr"
)

// The SVG path of a code, drawn back onto a grid, is the library's
// module matrix with a 4-module quiet zone: every dark module and no
// other.
func TestQR_PathIsTheModuleMatrix(t *testing.T) {
	t.Parallel()
	text := "https://kisen.example/r/AbCdEfGhIjKlMnOpQrStUv"
	q, err := NewQR(text)
	if err != nil {
		t.Fatal(err)
	}
	want, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		t.Fatal(err)
	}
	n := want.Bounds().Dx()
	if q.Size != n+8 {
		t.Fatalf("size %d, want %d", q.Size, n+8)
	}
	got := image.NewGray(image.Rect(0, 0, q.Size, q.Size))
	for _, cmd := range strings.Split(q.Path, "z") {
		if cmd == "" {
			continue
		}
		f := strings.Fields(strings.TrimSuffix(strings.TrimPrefix(cmd, "M"), "h1v1h-1"))
		x, _ := strconv.Atoi(f[0])
		y, _ := strconv.Atoi(f[1])
		got.SetGray(x, y, color.Gray{Y: 255})
	}
	for y := 0; y < q.Size; y++ {
		for x := 0; x < q.Size; x++ {
			dark := false
			if x >= 4 && y >= 4 && x < n+4 && y < n+4 {
				r, _, _, _ := want.At(x-4, y-4).RGBA()
				dark = r == 0
			}
			if (got.GrayAt(x, y).Y == 255) != dark {
				t.Fatalf("module %d,%d: drawn %v, want dark %v", x, y, got.GrayAt(x, y).Y == 255, dark)
			}
		}
	}
}
