package pairing

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// TestSwissDrawDump writes many draws as JSON lines to the file named by
// KISEN_SWISS_DUMP, so two builds of the solver can be compared byte for
// byte (diff the two files).
func TestSwissDrawDump(t *testing.T) {
	t.Parallel()
	path := os.Getenv("KISEN_SWISS_DUMP")
	if path == "" {
		t.Skip("set KISEN_SWISS_DUMP=file to write the draws")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	emit := func(tag string, req SwissRequest) {
		p, err := DrawSwiss(req)
		line, _ := json.Marshal(struct {
			Tag   string
			P     SwissPairing
			Err   string
			Notes []Violation
		}{Tag: tag, P: p, Err: fmt.Sprint(err)})
		if err == nil {
			v, notes, cerr := CheckSwiss(req, p)
			if cerr != nil || len(v) > 0 {
				t.Fatalf("%s: check %v %v", tag, cerr, v)
			}
			line, _ = json.Marshal(struct {
				Tag   string
				P     SwissPairing
				Notes []Violation
			}{tag, p, notes})
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	for seed := uint64(0); seed < 20; seed++ {
		full := simulate(t, benchSwiss500(seed, 0), 9, rand.New(rand.NewPCG(seed, 1)), nil)
		for r := 0; r < 9; r++ {
			in := full
			in.History = full.History[:r]
			in.Round = r + 1
			emit(fmt.Sprintf("bench %d r%d", seed, r+1), in)
		}
	}
	rng := rand.New(rand.NewPCG(99, 14))
	for trial := range 4000 {
		n := 2 + rng.IntN(60)
		emit(fmt.Sprintf("random %d", trial), randomSwiss(rng, n, rng.IntN(8)))
	}
	for trial := range 60 {
		n := 20 + rng.IntN(200)
		req := simClass(n, trial%3 != 0)
		req.Seed = rng.Uint64()
		if trial%4 == 1 {
			req.Settings.Relations = SwissRelations{Club: RelationNever, MasterStudent: RelationNever}
		}
		if trial%5 == 2 {
			req.Players[rng.IntN(n)].Withdrawn = true
		}
		func() {
			defer func() { recover() }() // a class that runs out of valid rounds stops here
			full := simulate(nil, req, 7, rand.New(rand.NewPCG(uint64(trial), 3)), nil)
			for r := 0; r < 7; r++ {
				in := full
				in.History = full.History[:r]
				in.Round = r + 1
				emit(fmt.Sprintf("event %d r%d", trial, r+1), in)
			}
		}()
	}
}
