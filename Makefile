# pincer — build, run, test, bench.
GO ?= go
BIN ?= pincer

.PHONY: build run test bench fuzz vet clean

build:
	$(GO) build -o $(BIN) .

# Build, then start pincer in the current directory (ARGS="run 'explain this repo'").
run: build
	./$(BIN) $(ARGS)

test:
	$(GO) vet ./...
	$(GO) test -race ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

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
