# fabriclab — see README.md. Everything here needs only Go (and make).

GO        ?= go
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
# More go test flags for test-native and test-wasm (test-short sets -short).
TESTFLAGS ?=

.PHONY: run test test-short test-native test-wasm bench bench-htsim fuzz fonts

# Build what is missing (WebAssembly included) and serve the site on localhost.
run:
	$(GO) run ./cmd/fabriclab serve

# Everything CI checks: vet, all tests natively, and the simulation's tests in
# WebAssembly under Node (skipped with a message where node is missing).
# The two halves run side by side (each one's output printed when it ends):
# each spends minutes on one long package that leaves a core free.
test:
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-native test-wasm

# What a developer runs on every change (about 2 minutes on 2 cores with a warm
# build cache): the same with -short, which skips the browser tests, the site
# build and the long runs; a fast test of each area stays.
test-short:
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-native test-wasm TESTFLAGS=-short

# ./web first (and ./sim first under Node): the longest package starts at once
# and the others run beside it (go test runs two packages at a time on two
# cores, in the order given; ./... lists web last).
test-native:
	$(GO) vet ./...
	$(GO) test $(TESTFLAGS) -timeout 60m ./web ./...

test-wasm:
	@if command -v node >/dev/null 2>&1; then \
		echo "GOOS=js GOARCH=wasm go test $(TESTFLAGS) ./sim/... ./playback/... ./protocol/... ./i18n/... (under Node)"; \
		GOOS=js GOARCH=wasm $(GO) test $(TESTFLAGS) -timeout 30m -exec="$(WASM_EXEC)" ./sim ./sim/... ./playback/... ./protocol/... ./i18n/... && \
		echo "GOOS=js GOARCH=wasm go test $(TESTFLAGS) -tags webfonts ./assets (the fonts as the site's viz.wasm gets them)" && \
		GOOS=js GOARCH=wasm $(GO) test $(TESTFLAGS) -tags webfonts -exec="$(WASM_EXEC)" ./assets; \
	elif [ -n "$$CI" ]; then \
		echo "CI=true but node is missing: the WebAssembly tests must run in CI"; exit 1; \
	else \
		echo "skipping the WebAssembly tests: node is not installed"; \
	fi

bench: bench-htsim
	$(GO) run ./cmd/fabriclab bench
	$(GO) test -run '^$$' -bench . -benchtime 3x ./sim/...
	bash bench/simgrid/run.sh

# htsim side by side on the same workloads (PEERS/htsim/run.sh, medians of
# HTSIM_REPS alternating runs), where HTSIM names a built csg-htsim checkout
# (PEERS/htsim/BUILD.md); skipped with a message where it does not. The binary
# is static (CGO_ENABLED=0: net, which serve needs, would link cgo): no
# dynamic loader or cgo thread at each start. Both write their outputs in
# tmpfs where there is one: htsim writes its logs into its working
# directory, and on a disk that can make its wall time several times its CPU
# time (BENCHMARKS.md, "Issue 15 at the end of the session (main bcc112a …)").
PEERS      ?= ../shared/peers
HTSIM      ?=
HTSIM_REPS ?= 3
bench-htsim:
	@dc=""; for d in "$(HTSIM)/sim/datacenter" "$(HTSIM)/datacenter" "$(HTSIM)"; do \
		if [ -n "$(HTSIM)" ] && [ -x "$$d/htsim_eqds" ] && [ -x "$$d/htsim_roce" ]; then dc=$$d; break; fi; \
	done; \
	if [ -z "$$dc" ]; then \
		echo "skipping htsim side by side: htsim is not built (make bench HTSIM=its checkout; see $(PEERS)/htsim/BUILD.md)"; \
	elif [ ! -x "$(PEERS)/htsim/run.sh" ]; then \
		echo "skipping htsim side by side: $(PEERS)/htsim/run.sh is missing (set PEERS)"; \
	else \
		bin=$$(mktemp -d)/fabriclab && CGO_ENABLED=0 $(GO) build -o "$$bin" ./cmd/fabriclab && \
		out=$$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d) && \
		echo "case htsim_wall fabriclab_wall ratio htsim_tail_us fabriclab_tail_us (outputs in $$out)" && \
		OUT="$$out" REPS=$(HTSIM_REPS) CASES="perm-ecmp perm-ecmp-roce perm-spray incast-pfc" "$(PEERS)/htsim/run.sh" "$$dc" "$$bin"; \
	fi

# A short run of every fuzz target, found with go test -list (new ones join by themselves).
FUZZTIME ?= 20s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "$$pkg $$f"; \
			$(GO) test $$pkg -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) || exit 1; \
		done; \
	done

# The CJK subset fonts (assets/fonts): again after adding Chinese text the
# canvas draws to i18n/canvas.go (TestCatalogueGlyphs says when). Needs fonts-noto-cjk and
# python3-fonttools.
fonts:
	sh assets/fonts/subset.sh
