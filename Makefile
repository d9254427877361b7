# Kisen — the two commands: `make run` and `make test`.
GO      ?= go
BIN     := bin/kisen
PKGS    := ./...
# Tests that share nothing call t.Parallel(); most of them wait on a
# database, so more of them at once than the 2 cores pays (docs/development.md,
# "How the suite stays fast").
PARALLEL ?= 8

.PHONY: run build test test-short routes-doc check-fmt vet templ-check test-go bench bench-web bench-live fuzz-smoke clean

## run: build and start the server on 127.0.0.1:8080 (SQLite under ./var/)
run: build
	./$(BIN) serve

build:
	$(GO) build -o $(BIN) ./cmd/kisen

## test: gofmt check, go vet, templ regeneration diff check, go test -race
test: check-fmt vet templ-check test-go

## test-short: the quick loop while editing: go test -short, no race
## detector, no browser tests, property tests at lower counts (CI runs `make test`)
test-short:
	$(GO) test -short -count=1 -parallel $(PARALLEL) $(PKGS)

## routes-doc: write docs/routes.md (every route, its room and handler) from the router
routes-doc:
	KISEN_WRITE_ROUTES_DOC=1 $(GO) test -count=1 -run '^TestRoutesDoc$$' ./web/

check-fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './var/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# Regenerate templ components; fail when that changed anything (the
# committed generated code was stale).
templ-check:
	@before=$$(find . -name '*_templ.go' -not -path './var/*' | sort | xargs cat 2>/dev/null | sha256sum); \
	$(GO) tool templ generate -path web -log-level error; \
	after=$$(find . -name '*_templ.go' -not -path './var/*' | sort | xargs cat 2>/dev/null | sha256sum); \
	if [ "$$before" != "$$after" ]; then echo "templ generate changed generated files: commit them"; exit 1; fi

# web's tests are the longest package (its browser tests and the route
# matrix end last), so they start at once beside the others instead of after
# them: the other packages fill the cores web's last tests leave idle
# (docs/development.md). web's output follows the others'.
WEB_PKGS = ./web/...
# The race detector instruments every package of ours and every library but
# modernc.org/… — SQLite's C engine translated to Go, which is not ours:
# instrumented, its memory reads and pointer checks (checkptr) were half the
# suite's CPU (docs/development.md, "How the suite stays fast").
RACE    ?= -race -gcflags='modernc.org/...=-d=checkptr=0 -race=false'
test-go:
	@rm -f .web-test.log; \
	$(GO) test $(RACE) -parallel $(PARALLEL) -timeout 50m $(WEB_PKGS) > .web-test.log 2>&1 & web=$$!; \
	$(GO) test $(RACE) -parallel $(PARALLEL) -timeout 50m $$($(GO) list $(PKGS) | grep -v '^kisen/web\(/\|$$\)'); rest=$$?; \
	wait $$web; webrc=$$?; cat .web-test.log; rm -f .web-test.log; \
	if [ $$rest -ne 0 ] || [ $$webrc -ne 0 ]; then echo "FAIL: go test (other packages exit $$rest, web exit $$webrc)"; exit 1; fi

## bench: every benchmark quoted in README.md and docs/
bench:
	$(GO) test -run '^$$' -bench . -benchmem -timeout 30m $(PKGS)

## bench-web: the page load benchmark (seeds real sizes, serves the real
## handler; PostgreSQL when KISEN_TEST_DATABASE_URL is set, else SQLite)
bench-web:
	KISEN_BENCH_WEB=1 $(GO) test -run '^TestBenchWeb$$' -count=1 -v -timeout 30m ./web/

## bench-live: 2,000 open live-page streams on one `kisen serve` (memory
## per stream, time for a result to reach all), then 2,000 viewers of one
## game's live board over two processes (one on SQLite) while 30 moves are
## entered through the recorder's link (time for each to reach all);
## PostgreSQL too when KISEN_TEST_DATABASE_URL is set
bench-live:
	KISEN_BENCH_LIVE=1 $(GO) test -run '^TestLiveLoad(Moves)?$$' -count=1 -v -timeout 20m ./cmd/kisen/

clean:
	rm -rf bin
