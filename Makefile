# pincer — build, run, test, bench.
GO ?= go
BIN ?= pincer

.PHONY: build run test bench bench-compare fuzz vet clean

# The version is git's name for the commit (the tag, else the hash; "-dirty" with uncommitted changes).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

build:
	$(GO) build -ldflags "-X pincer/ui/cli.Version=$(VERSION)" -o $(BIN) .

# Build, then start pincer in the current directory (ARGS="run 'explain this repo'").
run: build
	./$(BIN) $(ARGS)

# The provider tests run their own fixtures (testdata/) everywhere; the captured streams of
# ../shared/cases/streams run on top when that directory is there. The provider packages run
# apart, verbose into a log, where each prints how many captures it skipped
# (streamcase.Main): the one conformance line at the end adds them up.
test:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -timeout 20m $$($(GO) list ./... | grep -v '^pincer/core/provider')
	@$(GO) test -race -timeout 20m -v ./core/provider/... >provider-test.log 2>&1; rc=$$?; \
	grep -E '^(ok|FAIL|\?)[[:space:]]' provider-test.log; \
	if [ $$rc -ne 0 ]; then cat provider-test.log; exit $$rc; fi; \
	awk '/^conformance: /{s+=$$2; n+=$$4} END{if (n) printf "conformance: %d of %d captures skipped%s\n", \
		s, n, s ? " (no shared/cases/streams beside the repository; the fixtures in testdata/ ran)" : ""}' provider-test.log

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Issue 19's side-by-side run (docs/BENCHMARKS.md, "Issue 19"): this checkout's pincer against
# BASE (a previous release's pincer binary) and CRUSH (a Crush binary), both optional, in one tmux
# pane of 120x40 on the private socket bench19; needs tmux, and sqlite3 for Crush's long sessions.
# BENCHFLAGS adds flags: -runs 9, -only frame,continue, -md out.md, -json out.json.
bench-compare: build
	$(GO) build -o bin/longsession ./core/app/internal/longsession
	$(GO) run ./ui/cli/e2e/sidebyside -new ./$(BIN) -longsession bin/longsession \
		$(if $(BASE),-base $(BASE)) $(if $(CRUSH),-crush $(CRUSH)) $(BENCHFLAGS)

# Every fuzz target for FUZZTIME each (go test allows one -fuzz target per run).
FUZZTIME ?= 60s
FUZZ_TARGETS = \
	./core/permission/attack:FuzzAllowNeverRunsPayload \
	./core/permission/shell:FuzzAnalyze \
	./core/permission:FuzzParseRule \
	./core/agent:FuzzRepairView \
	./core/provider/sse:FuzzReader \
	./core/provider/openai:FuzzChatStream \
	./core/provider/anthropic:FuzzAnthropicStream \
	./core/provider/gemini:FuzzGeminiStream \
	./core/provider/responses:FuzzResponsesStream

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t##*:}; \
		echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

clean:
	rm -f $(BIN)
