# ime-composer — build, test and run.
#   make deps    install the Debian packages (scripts/install-deps.sh; no-op when complete)
#   make build   swift build
#   make test    deps + build + build tests (a compiler warning in our sources fails it) + run every
#                suite (Swift Testing; a GLib warning or critical in the output fails it); a summary
#   make run     deps + build + run the app; with no display, the headless demo (out/demo/)
#   make bench   completion benchmark (release build): 100,000 people, ours vs GtkSourceView
#   make clean   remove build products
#   make install release build, installed under $(DESTDIR)$(PREFIX) (default /usr/local):
#                bin/ime-composer, share/ime-composer/*.jsonl, the .desktop and the icon
#   make uninstall  remove exactly those files
# The end-to-end suites start their own Xvfb / D-Bus / IBus through Tests/TestHarness:
# no xvfb-run is needed and the real desktop is never touched.

SHELL := /bin/bash
SWIFT ?= swift
BIN := .build/debug/ime-composer
TEST_LOG := .build/make-test.log
BUILD_LOG := .build/make-build.log
# Extra arguments: make run ARGS='--text hello --caret 2'
ARGS ?=
# Extra arguments for `swift test`, e.g. make test TEST_ARGS='--filter HarnessSelfTests'.
# Suites run one after another: each end-to-end suite starts its own X server, D-Bus, input
# method or Wayland compositor, and on a 2-core machine running them all at once starves
# them of CPU until condition waits time out.
TEST_ARGS ?= --no-parallel

# Where the headless demo saves its screenshots and trace.
DEMO_OUT ?= out/demo

# ---------------------------------------------------------------------------------------
# Install (see meson-notes.md for meson/Flatpak). The Swift runtime and Foundation are
# linked statically so the installed binary does not need the toolchain's libraries;
# set SWIFT_RELEASE_FLAGS= to link them dynamically. Extra flags, e.g. a scratch path:
# make install SWIFT_RELEASE_FLAGS='--static-swift-stdlib --scratch-path .build-release'
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL ?= install
SWIFT_RELEASE_FLAGS ?= --static-swift-stdlib
APP_ID := io.github.imecomposer.ImeComposer
BINDIR := $(DESTDIR)$(PREFIX)/bin
DATADIR := $(DESTDIR)$(PREFIX)/share
# ---------------------------------------------------------------------------------------

.PHONY: all deps build test run bench clean install uninstall

all: build

deps:
	./scripts/install-deps.sh

build:
	$(SWIFT) build

test: deps
	@mkdir -p .build; \
	status=0; stage="swift build --build-tests"; \
	echo "+ $(SWIFT) build --build-tests"; \
	set -o pipefail; \
	$(SWIFT) build --build-tests 2>&1 | tee $(BUILD_LOG) || status=$$?; \
	if [ $$status -eq 0 ]; then \
	  warnings=$$(grep -E "^$(CURDIR)/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:|warning: .*unhandled" $(BUILD_LOG) | sort -u); \
	  if [ -n "$$warnings" ]; then \
	    stage="the build (compiler warnings in our sources)"; status=1; \
	    echo; echo "Compiler warnings in the project's own sources fail the build:"; echo "$$warnings"; \
	  fi; \
	fi; \
	if [ $$status -eq 0 ]; then \
	  stage="swift test"; \
	  echo "+ $(SWIFT) test $(TEST_ARGS)"; \
	  $(SWIFT) test $(TEST_ARGS) 2>&1 | tee $(TEST_LOG) || status=$$?; \
	fi; \
	echo; \
	echo "==================== make test: summary ===================="; \
	if [ -f $(TEST_LOG) ] && [ "$$stage" = "swift test" ]; then \
	  grep -E '^(✔|✘|━|􁁛|􀢄).*Test run with' $(TEST_LOG) | tail -n 1 | sed 's/^/Swift Testing: /' || true; \
	  grep -E 'Executed [0-9]+ tests?' $(TEST_LOG) | tail -n 1 | sed 's/^[[:space:]]*/XCTest:        /' || true; \
	  failed=$$(grep -E '^(✘|􀢄) Test .*(failed|recorded an issue)' $(TEST_LOG) | grep -v 'Test run with' | sed -E 's/ (failed|recorded an issue).*//; s/^(✘|􀢄) Test /  - /' | sort -u); \
	  if [ -n "$$failed" ]; then echo "Failing tests:"; echo "$$failed" | head -n 30; fi; \
	  problems=$$(grep -E -- '-(CRITICAL|WARNING) \*\*' $(TEST_LOG) | head -n 10); \
	  if [ -n "$$problems" ]; then \
	    echo "GLib warnings or criticals in the output (each one is a bug):"; echo "$$problems"; \
	    [ $$status -ne 0 ] || { status=1; stage="the test output (GLib warnings or criticals)"; }; \
	  fi; \
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

install:
	$(SWIFT) build -c release --product ime-composer $(SWIFT_RELEASE_FLAGS)
	bin="$$($(SWIFT) build -c release $(SWIFT_RELEASE_FLAGS) --show-bin-path)" && \
	  $(INSTALL) -Dm755 "$$bin/ime-composer" "$(BINDIR)/ime-composer"
	$(INSTALL) -d "$(DATADIR)/ime-composer"
	$(INSTALL) -m644 data/*.jsonl "$(DATADIR)/ime-composer/"
	$(INSTALL) -Dm644 data/$(APP_ID).desktop "$(DATADIR)/applications/$(APP_ID).desktop"
	$(INSTALL) -Dm644 data/icons/hicolor/scalable/apps/$(APP_ID).svg \
	  "$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"

uninstall:
	rm -f "$(BINDIR)/ime-composer" "$(DATADIR)/applications/$(APP_ID).desktop" \
	  "$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	rm -f $(addprefix "$(DATADIR)/ime-composer/",$(notdir $(wildcard data/*.jsonl)))
	-rmdir "$(DATADIR)/ime-composer"
