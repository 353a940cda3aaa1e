# pincer — build, run, test, bench.
GO ?= go
BIN ?= pincer

.PHONY: build run test bench vet clean

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

clean:
	rm -f $(BIN)
