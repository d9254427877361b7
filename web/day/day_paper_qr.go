package day

import (
	"fmt"
	"strings"

	"github.com/boombuler/barcode/qr"
)

// qrCode is a QR code drawn as one SVG path (no image request, no script;
// the page's CSP allows it inline): Size modules with the 4-module quiet
// zone, Path the dark modules.
type qrCode struct {
	Size int
	Path string
}

// viewBox is the SVG viewBox of the code.
func (q qrCode) viewBox() string { return fmt.Sprintf("0 0 %d %d", q.Size, q.Size) }

// newQR encodes text (a report link) at error correction level M, which
// survives a crease or a pencil mark on a slip.
func NewQR(text string) (qrCode, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return qrCode{}, fmt.Errorf("qr code: %w", err)
	}
	b := code.Bounds()
	const quiet = 4
	var sb strings.Builder
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, _, _, _ := code.At(x, y).RGBA(); r == 0 {
				fmt.Fprintf(&sb, "M%d %dh1v1h-1z", x-b.Min.X+quiet, y-b.Min.Y+quiet)
			}
		}
	}
	return qrCode{Size: b.Dx() + 2*quiet, Path: sb.String()}, nil
}

// QRCode is a QR code as other rooms draw it (the recorder link,
// web/recorder).
type QRCode = qrCode
