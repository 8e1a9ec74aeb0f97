# ime-composer — build, test and run.
#   make deps    install the Debian packages (scripts/install-deps.sh; no-op when complete)
#   make build   swift build
#   make test    deps + build + build tests + run every suite (Swift Testing); ends with a summary
#   make run     deps + build + run the app; with no display, the headless demo (out/demo/)
#   make bench   completion benchmark (release build): 100,000 people, ours vs GtkSourceView
#   make clean   remove build products
# The end-to-end suites start their own Xvfb / D-Bus / IBus through Tests/TestHarness:
# no xvfb-run is needed and the real desktop is never touched.

SHELL := /bin/bash
SWIFT ?= swift
BIN := .build/debug/ime-composer
TEST_LOG := .build/make-test.log
# Extra arguments: make run ARGS='--text hello --caret 2'
ARGS ?=
# Extra arguments for `swift test`, e.g. make test TEST_ARGS='--filter HarnessSelfTests'
TEST_ARGS ?=

# Where the headless demo saves its screenshots and trace.
DEMO_OUT ?= out/demo

.PHONY: all deps build test run bench clean

all: build

deps:
	./scripts/install-deps.sh

build:
	$(SWIFT) build

test: deps build
	@mkdir -p .build; \
	status=0; stage="swift build --build-tests"; \
	echo "+ $(SWIFT) build --build-tests"; \
	$(SWIFT) build --build-tests || status=$$?; \
	if [ $$status -eq 0 ]; then \
	  stage="swift test"; \
	  echo "+ $(SWIFT) test $(TEST_ARGS)"; \
	  set -o pipefail; \
	  $(SWIFT) test $(TEST_ARGS) 2>&1 | tee $(TEST_LOG) || status=$$?; \
	fi; \
	echo; \
	echo "==================== make test: summary ===================="; \
	if [ -f $(TEST_LOG) ] && [ "$$stage" = "swift test" ]; then \
	  grep -E '^(✔|✘|􁁛|􀢄).*Test run with' $(TEST_LOG) | tail -n 1 | sed 's/^/Swift Testing: /' || true; \
	  grep -E 'Executed [0-9]+ tests?' $(TEST_LOG) | tail -n 1 | sed 's/^[[:space:]]*/XCTest:        /' || true; \
	  failed=$$(grep -E '^(✘|􀢄) Test .*(failed|recorded an issue)' $(TEST_LOG) | grep -v 'Test run with' | sed -E 's/ (failed|recorded an issue).*//; s/^(✘|􀢄) Test /  - /' | sort -u); \
	  if [ -n "$$failed" ]; then echo "Failing tests:"; echo "$$failed" | head -n 30; fi; \
	  echo "Full log: $(TEST_LOG)"; \
	fi; \
	if [ $$status -eq 0 ]; then \
	  echo "RESULT: PASSED"; \
	else \
	  echo "RESULT: FAILED ($$stage exited with status $$status)"; \
	fi; \
	exit $$status

run: deps build
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  echo "make run: no display: running the headless demo (private Xvfb + D-Bus + IBus) into $(DEMO_OUT)/"; \
	  exec .build/debug/composer-demo $(DEMO_OUT); \
	fi; \
	exec $(BIN) $(ARGS)

bench: deps
	$(SWIFT) build -c release --product completion-benchmark
	.build/release/completion-benchmark $(ARGS)

clean:
	$(SWIFT) package clean
	rm -rf .build-harness
