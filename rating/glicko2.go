package rating

import "math"

// Glicko-2 as in Glickman, "Example of the Glicko-2 system" (Boston
// University; glicko.net/glicko/glicko2.pdf). Step numbers below are the
// paper's.
const (
	glicko2Scale  = 173.7178 // step 2: μ = (r − 1500)/173.7178, φ = RD/173.7178
	glicko2Centre = 1500
	// volatilityTolerance is ε, the convergence tolerance of step 5.
	volatilityTolerance = 0.000001
	// maxIterations bounds the loops of step 5 so odd input cannot spin;
	// the Illinois iteration converges in well under 50 steps in practice.
	maxIterations = 200
)

// Glicko2Rating is a player's Glicko-2 state on the familiar scale.
type Glicko2Rating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// Glicko2Result is one game of a rating period, seen from the player: the
// opponent's pre-period rating and the score (1 win, 0 loss).
type Glicko2Result struct {
	Opponent Glicko2Rating `json:"opponent"`
	Score    float64       `json:"score"`
}

func g2g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func g2e(mu, muJ, gJ float64) float64 { return 1 / (1 + math.Exp(-gJ*(mu-muJ))) }

// Glicko2Period returns the player's rating at the end of a rating period
// in which they had the given results, all against pre-period ratings.
// Without results only the deviation grows: φ' = √(φ² + σ²) (step 6 and
// the paper's note on players who do not compete).
func Glicko2Period(p Glicko2Rating, results []Glicko2Result, tau float64) Glicko2Rating {
	mu := (p.Rating - glicko2Centre) / glicko2Scale
	phi := p.RD / glicko2Scale
	sigma := p.Volatility
	if len(results) == 0 {
		return Glicko2Rating{Rating: p.Rating, RD: math.Sqrt(phi*phi+sigma*sigma) * glicko2Scale, Volatility: sigma}
	}
	// Steps 3 and 4: estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, r := range results {
		muJ := (r.Opponent.Rating - glicko2Centre) / glicko2Scale
		gJ := g2g(r.Opponent.RD / glicko2Scale)
		e := g2e(mu, muJ, gJ)
		vInv += gJ * gJ * e * (1 - e)
		sum += gJ * (r.Score - e)
	}
	v := 1 / vInv
	grown := Glicko2Rating{Rating: p.Rating, RD: math.Sqrt(phi*phi+sigma*sigma) * glicko2Scale, Volatility: sigma}
	if !(vInv > 0) || !finite(v) {
		// Every expected score rounded to exactly 0 or 1: the games carry
		// no information in floating point. Only extreme settings get here.
		return grown
	}
	delta := v * sum
	// Step 5: new volatility.
	sigma2 := newVolatility(phi, sigma, v, delta, tau)
	// Steps 6 and 7.
	phiStar := math.Sqrt(phi*phi + sigma2*sigma2)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*sum
	// Step 8.
	out := Glicko2Rating{Rating: glicko2Scale*mu2 + glicko2Centre, RD: glicko2Scale * phi2, Volatility: sigma2}
	if !finite(out.Rating) || !finite(out.RD) || !(out.RD > 0) || !finite(out.Volatility) || !(out.Volatility > 0) {
		return grown
	}
	return out
}

// newVolatility solves step 5 for σ' by the Illinois variant of regula
// falsi, as the paper prescribes.
func newVolatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	d2, p2 := delta*delta, phi*phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		den := p2 + v + ex
		return ex*(d2-p2-v-ex)/(2*den*den) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if d2 > p2+v {
		B = math.Log(d2 - p2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 && k < maxIterations {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > volatilityTolerance && i < maxIterations; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		// ≤ rather than <: if C lands exactly on the root the bracket
		// still closes instead of repeating C forever.
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
