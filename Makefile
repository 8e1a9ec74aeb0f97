# ime-composer — build, test and run.
#   make deps    install the Debian packages (scripts/install-deps.sh; no-op when complete)
#   make build   swift build + the message catalogs (po/ → .build-meson/po/<lang>/LC_MESSAGES/, meson)
#   make po      regenerate po/ime-composer.pot from the sources and merge it into po/*.po (meson)
#   make test    deps + build + build tests + the release binary (a compiler warning in our sources
#                fails it; PackagingTests packages the release binary as make deb does) + run every
#                suite (Swift Testing; a GLib warning or critical in the output fails it); a summary.
#                Writes only under .build/; a run that changes what `git status` lists (tracked or
#                untracked files) fails. A full run (no TEST_ARGS filter) then runs the input-method
#                matrix through the command users run, `ime-composer matrix --out .build/ime-matrix`
#                (a failed cell fails make test), and writes .build/ime-matrix.md and .build/known-bugs.md.
#   make matrix  the input-method matrix alone: ime-composer matrix --out .build/ime-matrix
#                (IME_MATRIX_ONLY=ibus-anthy,fcitx5-hangul picks engines; MATRIX_ARGS adds arguments)
#   make matrix-doc  docs/ime-matrix.md and docs/known-bugs.md from the last full `make test` run;
#                without one, runs the matrix and the known-bug checks first (their failures fail it)
#   make run     deps + release build + run it (.build/release/ime-composer, what make bench measures);
#                with no display, the headless demo (out/demo/) with that build
#   make bench   release builds + the C references and paint meter (Benchmarks/) into .build/bench/;
#                the app benchmark (keystroke to paint, a 10 MB paste, idle, start-up, RSS vs plain C GTK4 in private
#                Xvfb sessions), the completion benchmark, keystroke CPU when present: docs/benchmarks.md.
#                Exits non-zero only on a measurement error (a missed goal is a FAIL row).
#   make clean   remove build products
#   make install release build, installed under $(DESTDIR)$(PREFIX) (default /usr/local):
#                bin/ime-composer, share/ime-composer/*.jsonl, the .desktop, the icon and
#                share/locale/<lang>/LC_MESSAGES/ime-composer.mo
#                and share/metainfo/<app id>.metainfo.xml, share/man/man1/ime-composer.1
#   make uninstall  remove exactly those files
#   make deb     the release build as a Debian package, .build/deb/ime-composer_<version>_<arch>.deb
#                (scripts/build-deb.sh: Depends from dpkg-shlibdeps, checked with lintian)
# The end-to-end suites start their own Xvfb / D-Bus / IBus through the lab (Sources/IMELab):
# no xvfb-run is needed and the real desktop is never touched.

SHELL := /bin/bash
SWIFT ?= swift
# What `make run` starts and `make bench` measures: the release build, linked as `make install`
# links it (Swift runtime and Foundation static: fewer pages to map and relocate at start).
RELEASE_BIN := .build/release/ime-composer
TEST_LOG := .build/make-test.log
BUILD_LOG := .build/make-build.log
# The input-method matrix: `ime-composer matrix` (the debug build `make test` built) writes its
# reports and transcripts into MATRIX_OUT; a full, unfiltered run's matrix.md is copied to
# MATRIX_DOC, which `make matrix-doc` copies to the committed docs/ime-matrix.md. The known-bug
# checks (a suite) write their results where IME_KNOWN_BUGS says; scripts/known-bugs.py makes
# KNOWN_BUGS_DOC of them (docs/known-bugs.md). All run output, under .build/.
MATRIX_OUT := .build/ime-matrix
# Where make deb writes the package.
DEB_DIR ?= .build/deb
MATRIX_DOC := .build/ime-matrix.md
MATRIX_LOG := .build/make-matrix.log
MATRIX_ARGS ?=
KNOWN_BUGS := .build/known-bugs
KNOWN_BUGS_DOC := .build/known-bugs.md
KNOWN_BUGS_SUITE := KnownBugEndToEndTests
TEST_ENV = IME_KNOWN_BUGS=$(CURDIR)/$(KNOWN_BUGS) IME_COMPOSER_LOCALEDIR=$(LOCALE_DIR)
# Runs the matrix command (shell; sets mstatus): every engine, or those IME_MATRIX_ONLY names.
RUN_MATRIX = engines=""; for e in $${IME_MATRIX_ONLY//,/ }; do engines="$$engines --engine $$e"; done; \
	bin="$$($(SWIFT) build --show-bin-path)/ime-composer"; \
	rm -rf $(MATRIX_OUT) $(MATRIX_DOC); \
	echo "+ $$bin matrix --out $(MATRIX_OUT)$$engines $(MATRIX_ARGS)"; \
	mstatus=0; \
	IME_COMPOSER_LOCALEDIR=$(LOCALE_DIR) "$$bin" matrix --out $(MATRIX_OUT) $$engines $(MATRIX_ARGS) 2>&1 \
	  | tee $(MATRIX_LOG) || mstatus=$$?; \
	if [ -z "$$IME_MATRIX_ONLY" ] && [ -z "$(MATRIX_ARGS)" ] && [ -f $(MATRIX_OUT)/matrix.md ]; then \
	  cp $(MATRIX_OUT)/matrix.md $(MATRIX_DOC); \
	fi
# git status (with content hashes) before `make test`, compared after it (scripts/tree-state.py).
TREE_STATE := .build/tree-before-test.json
# The message catalogs: meson's i18n module builds them (and the template) in MESON_BUILD
# (only those targets: its SwiftPM wrapper target is for packagers, see meson-notes.md);
# its po/ is a locale directory, which `make run` and the tests point the app at.
MESON_BUILD := .build-meson
LOCALE_DIR := $(CURDIR)/$(MESON_BUILD)/po
LINGUAS := $(shell cat po/LINGUAS)
# Extra arguments: make run ARGS='--text hello --caret 2'
ARGS ?=
# Extra arguments for `swift test`, e.g. make test TEST_ARGS='--filter HarnessSelfTests'.
# Suites run one after another: each end-to-end suite starts its own X server, D-Bus, input
# method or Wayland compositor, and on a 2-core machine running them all at once starves
# them of CPU until condition waits time out.
TEST_ARGS ?= --no-parallel

# Where the headless demo saves its screenshots and trace.
DEMO_OUT ?= out/demo

# make bench: the C programs (Benchmarks/reference, Benchmarks/meter) and the sections go to
# BENCH_DIR; docs/benchmarks.md is assembled from them. Extra app-benchmark arguments, e.g.
# make bench APP_BENCH_ARGS='--rounds 2 --keys 20' (see app-benchmark --help). BENCH_BUILD is
# the Swift scratch path of the release builds (another one keeps a checkout's .build alone).
BENCH_BUILD ?= .build
BENCH_SWIFT = $(SWIFT) build -c release --scratch-path $(BENCH_BUILD) $(SWIFT_RELEASE_FLAGS)
BENCH_DIR = $(BENCH_BUILD)/bench
BENCH_CC ?= cc
BENCH_CFLAGS := -O2 -Wall -Wextra -Werror
APP_BENCH_ARGS ?=

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

.PHONY: all deps build locale po test matrix matrix-doc peers-doc run bench clean install install-files deb uninstall transcripts symbol-order

all: build

deps:
	./scripts/install-deps.sh

build: locale
	$(SWIFT) build

locale:
	@[ -f $(MESON_BUILD)/build.ninja ] || meson setup $(MESON_BUILD) . >/dev/null
	meson compile -C $(MESON_BUILD) ime-composer-gmo

po:
	@[ -f $(MESON_BUILD)/build.ninja ] || meson setup $(MESON_BUILD) . >/dev/null
	meson compile -C $(MESON_BUILD) ime-composer-pot ime-composer-update-po

test: deps locale
	@mkdir -p .build; \
	/usr/bin/python3 scripts/tree-state.py save $(TREE_STATE) || exit 2; \
	status=0; stage="swift build --build-tests"; tested=""; matrix_run=""; \
	echo "+ $(SWIFT) build --build-tests"; \
	set -o pipefail; \
	$(SWIFT) build --build-tests 2>&1 | tee $(BUILD_LOG) || status=$$?; \
	release_bin=""; \
	if [ $$status -eq 0 ]; then \
	  stage="swift build -c release (the binary PackagingTests packages)"; \
	  echo "+ $(SWIFT) build -c release --product ime-composer $(SWIFT_RELEASE_FLAGS)"; \
	  $(SWIFT) build -c release --product ime-composer $(SWIFT_RELEASE_FLAGS) 2>&1 | tee -a $(BUILD_LOG) || status=$$?; \
	  release_bin="$$($(SWIFT) build -c release $(SWIFT_RELEASE_FLAGS) --show-bin-path)/ime-composer"; \
	fi; \
	if [ $$status -eq 0 ]; then \
	  warnings=$$(grep -E "^$(CURDIR)/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:|warning: .*unhandled" $(BUILD_LOG) | sort -u); \
	  if [ -n "$$warnings" ]; then \
	    stage="the build (compiler warnings in our sources)"; status=1; \
	    echo; echo "Compiler warnings in the project's own sources fail the build:"; echo "$$warnings"; \
	  fi; \
	fi; \
	if [ $$status -eq 0 ]; then \
	  stage="swift test"; \
	  rm -rf $(KNOWN_BUGS) $(KNOWN_BUGS_DOC); \
	  echo "+ $(SWIFT) test $(TEST_ARGS)"; \
	  $(TEST_ENV) IME_COMPOSER_RELEASE_BIN="$$release_bin" $(SWIFT) test $(TEST_ARGS) 2>&1 | tee $(TEST_LOG) || status=$$?; \
	  tested=yes; \
	  full_run=$(if $(TEST_ARGS:--no-parallel=),,yes); \
	  if [ -n "$$full_run" ]; then \
	    /usr/bin/python3 scripts/known-bugs.py $(KNOWN_BUGS) $(KNOWN_BUGS_DOC) || true; \
	    $(RUN_MATRIX); \
	    matrix_run=yes; \
	    if [ $$mstatus -ne 0 ] && [ $$status -eq 0 ]; then status=$$mstatus; stage="ime-composer matrix"; fi; \
	  fi; \
	fi; \
	echo; \
	echo "==================== make test: summary ===================="; \
	if [ -f $(TEST_LOG) ] && [ -n "$$tested" ]; then \
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
	if [ -n "$$matrix_run" ]; then \
	  echo "Input-method matrix: $$(grep -E '^matrix: ' $(MATRIX_LOG) | tail -n 1 | sed 's/^matrix: //')"; \
	  failed=$$(grep -E '^  ' $(MATRIX_LOG) | head -n 20); \
	  if [ -n "$$failed" ]; then echo "Failed cells:"; echo "$$failed"; fi; \
	  echo "Matrix log: $(MATRIX_LOG); reports: $(MATRIX_OUT)/matrix.md, matrix.json, transcripts/"; \
	  docs=""; for d in $(MATRIX_DOC) $(KNOWN_BUGS_DOC); do [ -f $$d ] && docs="$$docs $$d"; done; \
	  [ -z "$$docs" ] || echo "Documents:$$docs (make matrix-doc copies them to docs/)"; \
	fi; \
	/usr/bin/python3 scripts/tree-state.py check $(TREE_STATE) "make test" || \
	  [ $$status -ne 0 ] || { status=1; stage="the tree check (the run changed files git lists)"; }; \
	if [ $$status -eq 0 ]; then \
	  echo "RESULT: PASSED"; \
	else \
	  echo "RESULT: FAILED ($$stage exited with status $$status)"; \
	fi; \
	exit $$status

# The input-method matrix alone, through the command (see MATRIX_OUT).
matrix: deps locale
	@$(SWIFT) build --product ime-composer || exit $$?; \
	set -o pipefail; \
	$(RUN_MATRIX); \
	exit $$mstatus

# docs/ime-matrix.md and docs/known-bugs.md from the last full `make test` run's documents; for a
# missing one (never run, or a filtered run since) the matrix or the known-bug checks run first
# (a failed cell or check is written down and fails the target).
matrix-doc: deps locale
	@status=0; \
	if [ -f $(MATRIX_DOC) ]; then \
	  echo "make matrix-doc: the matrix from the last full run ($(MATRIX_DOC), $$(date -r $(MATRIX_DOC) '+%F %R'))"; \
	else \
	  if [ -n "$$IME_MATRIX_ONLY" ]; then \
	    echo "make matrix-doc: IME_MATRIX_ONLY=$$IME_MATRIX_ONLY would leave engines out of docs/ime-matrix.md: unset it"; \
	    exit 2; \
	  fi; \
	  echo "make matrix-doc: no $(MATRIX_DOC) from a full run: running the matrix"; \
	  $(SWIFT) build --product ime-composer || exit $$?; \
	  set -o pipefail; \
	  $(RUN_MATRIX); \
	  status=$$mstatus; \
	  [ -f $(MATRIX_DOC) ] || { echo "make matrix-doc: the matrix wrote no report"; exit 1; }; \
	fi; \
	if [ -f $(KNOWN_BUGS_DOC) ]; then \
	  echo "make matrix-doc: the known bugs from the last full run ($(KNOWN_BUGS_DOC))"; \
	else \
	  echo "make matrix-doc: no $(KNOWN_BUGS_DOC) from a full run: running $(KNOWN_BUGS_SUITE)"; \
	  $(SWIFT) build --build-tests || exit $$?; \
	  rm -rf $(KNOWN_BUGS); \
	  set -o pipefail; \
	  $(TEST_ENV) $(SWIFT) test --skip-build --no-parallel --filter '$(KNOWN_BUGS_SUITE)' 2>&1 \
	    | tee .build/make-known-bugs.log || status=$$?; \
	  /usr/bin/python3 scripts/known-bugs.py $(KNOWN_BUGS) $(KNOWN_BUGS_DOC) || exit $$?; \
	  [ -f $(KNOWN_BUGS_DOC) ] || { echo "make matrix-doc: the known-bug checks wrote no results"; exit 1; }; \
	fi; \
	cp $(MATRIX_DOC) docs/ime-matrix.md; cp $(KNOWN_BUGS_DOC) docs/known-bugs.md; \
	echo "make matrix-doc: wrote docs/ime-matrix.md and docs/known-bugs.md"; \
	git status --short docs/ime-matrix.md docs/known-bugs.md 2>/dev/null; \
	[ $$status -eq 0 ] || echo "make matrix-doc: a matrix cell or a known-bug check failed (logs: $(MATRIX_LOG), .build/make-known-bugs.log)"; \
	exit $$status

# docs/ime-peers.md: the lab's scenarios against Dino, GNOME Text Editor and Polari with the
# default engines (`ime-composer matrix --app all`, about 15 minutes); the transcripts stay in
# .build/ime-peers/. A failed cell is written down and fails the target.
peers-doc: deps locale
	@$(SWIFT) build --product ime-composer || exit $$?; \
	status=0; \
	"$$($(SWIFT) build --show-bin-path)/ime-composer" matrix --app all --out .build/ime-peers || status=$$?; \
	[ -f .build/ime-peers/peers.md ] || { echo "make peers-doc: the run wrote no report"; exit 1; }; \
	cp .build/ime-peers/peers.md docs/ime-peers.md; \
	echo "make peers-doc: wrote docs/ime-peers.md"; \
	exit $$status

# scripts/ime-composer.order: the functions the release app runs at start-up and per key,
# which lld places together (Package.swift); re-run after large changes (about 5 minutes
# under callgrind; see the script).
symbol-order: deps locale
	$(SWIFT) build -c release --product ime-composer $(SWIFT_RELEASE_FLAGS)
	scripts/symbol-order.sh

# Re-record Tests/Transcripts/*.jsonl from the end-to-end tests' real sessions (see README).
transcripts: deps
	$(SWIFT) build --build-tests
	IME_RECORD_TRANSCRIPTS=1 $(SWIFT) test --skip-build --no-parallel --filter EndToEndTests
	git status --short Tests/Transcripts

run: deps locale
	$(SWIFT) build -c release --product ime-composer $(SWIFT_RELEASE_FLAGS)
	@if [ -z "$$DISPLAY" ] && [ -z "$$WAYLAND_DISPLAY" ]; then \
	  $(SWIFT) build -c release --product composer-demo $(SWIFT_RELEASE_FLAGS) && \
	  echo "make run: no display: running the headless demo (private Xvfb + D-Bus + IBus) into $(DEMO_OUT)/" && \
	  exec .build/release/composer-demo $(DEMO_OUT); \
	fi; \
	IME_COMPOSER_LOCALEDIR=$(LOCALE_DIR) exec $(RELEASE_BIN) $(ARGS)

bench: deps
	$(BENCH_SWIFT) --product ime-composer
	$(BENCH_SWIFT) --product completion-benchmark
	$(BENCH_SWIFT) --product app-benchmark
	@if grep -q '"keystroke-cpu"' Package.swift; then \
	  echo "+ $(BENCH_SWIFT) --product keystroke-cpu"; \
	  $(BENCH_SWIFT) --product keystroke-cpu; \
	fi
	mkdir -p $(BENCH_DIR)
	$(BENCH_CC) $(BENCH_CFLAGS) Benchmarks/reference/textview.c -o $(BENCH_DIR)/textview $$(pkg-config --cflags --libs gtk4)
	$(BENCH_CC) $(BENCH_CFLAGS) Benchmarks/reference/window.c -o $(BENCH_DIR)/window $$(pkg-config --cflags --libs gtk4)
	$(BENCH_CC) $(BENCH_CFLAGS) Benchmarks/meter/paint-meter.c -o $(BENCH_DIR)/paint-meter -lX11 -lXdamage -lXtst -lXfixes
	rm -f $(BENCH_DIR)/app.md $(BENCH_DIR)/completion.md $(BENCH_DIR)/keystroke-cpu.md
	$(BENCH_BUILD)/release/app-benchmark --markdown $(BENCH_DIR)/app.md --raw $(BENCH_DIR)/app-raw.json \
	  --tools $(BENCH_DIR) --composer $(BENCH_BUILD)/release/ime-composer $(APP_BENCH_ARGS)
	$(BENCH_BUILD)/release/completion-benchmark --markdown $(BENCH_DIR)/completion.md
	@if grep -q '"keystroke-cpu"' Package.swift; then \
	  echo "+ $(BENCH_BUILD)/release/keystroke-cpu --markdown $(BENCH_DIR)/keystroke-cpu.md"; \
	  $(BENCH_BUILD)/release/keystroke-cpu --markdown $(BENCH_DIR)/keystroke-cpu.md; \
	fi
	SWIFT=$(SWIFT) Benchmarks/assemble-report.sh $(BENCH_DIR)/app.md $(BENCH_DIR)/completion.md \
	  $(BENCH_DIR)/keystroke-cpu.md Benchmarks/findings.md > $(BENCH_DIR)/benchmarks.md
	mv $(BENCH_DIR)/benchmarks.md docs/benchmarks.md
	@echo "make bench: wrote docs/benchmarks.md"

clean:
	$(SWIFT) package clean
	rm -rf .build-harness $(MESON_BUILD)

install: locale
	$(SWIFT) build -c release --product ime-composer $(SWIFT_RELEASE_FLAGS)
	bin="$$($(SWIFT) build -c release $(SWIFT_RELEASE_FLAGS) --show-bin-path)" && \
	  $(MAKE) --no-print-directory install-files BIN="$$bin/ime-composer"

# What `make install` installs, with the binary BIN already built (make deb uses it too).
install-files: locale
	@[ -x "$(BIN)" ] || { echo "install-files: BIN=$(BIN) is not an executable"; exit 2; }
	$(INSTALL) -Dm755 "$(BIN)" "$(BINDIR)/ime-composer"
	$(INSTALL) -d "$(DATADIR)/ime-composer"
	$(INSTALL) -m644 data/*.jsonl "$(DATADIR)/ime-composer/"
	$(INSTALL) -d "$(DATADIR)/ime-composer/lab/engines"
	$(INSTALL) -m644 data/lab/engines/*.json "$(DATADIR)/ime-composer/lab/engines/"
	$(INSTALL) -d "$(DATADIR)/ime-composer/lab/peers"
	$(INSTALL) -m644 data/lab/peers/* "$(DATADIR)/ime-composer/lab/peers/"
	$(INSTALL) -d "$(DATADIR)/ime-composer/lab/gnome-shell/imelab@ime-composer"
	$(INSTALL) -m644 data/lab/gnome-shell/imelab@ime-composer/* "$(DATADIR)/ime-composer/lab/gnome-shell/imelab@ime-composer/"
	$(INSTALL) -Dm644 data/$(APP_ID).desktop "$(DATADIR)/applications/$(APP_ID).desktop"
	$(INSTALL) -Dm644 data/icons/hicolor/scalable/apps/$(APP_ID).svg \
	  "$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg"
	$(INSTALL) -Dm644 data/$(APP_ID).metainfo.xml "$(DATADIR)/metainfo/$(APP_ID).metainfo.xml"
	$(INSTALL) -d "$(DATADIR)/man/man1"
	/usr/bin/python3 scripts/man-page.py "$(BIN)" > "$(DATADIR)/man/man1/ime-composer.1"
	chmod 644 "$(DATADIR)/man/man1/ime-composer.1"
	for lang in $(LINGUAS); do \
	  $(INSTALL) -Dm644 $(MESON_BUILD)/po/$$lang/LC_MESSAGES/ime-composer.mo \
	    "$(DATADIR)/locale/$$lang/LC_MESSAGES/ime-composer.mo"; \
	done

# The Debian package of the release build `make run` starts (Swift runtime static), in
# DEB_DIR: scripts/build-deb.sh (dpkg-shlibdeps computes Depends; lintian checks it).
deb: deps locale
	$(SWIFT) build -c release --product ime-composer $(SWIFT_RELEASE_FLAGS)
	./scripts/build-deb.sh "$(RELEASE_BIN)" "$(DEB_DIR)"

uninstall:
	rm -f "$(BINDIR)/ime-composer" "$(DATADIR)/applications/$(APP_ID).desktop" \
	  "$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg" \
	  "$(DATADIR)/metainfo/$(APP_ID).metainfo.xml" "$(DATADIR)/man/man1/ime-composer.1"
	rm -f $(addprefix "$(DATADIR)/ime-composer/",$(notdir $(wildcard data/*.jsonl)))
	rm -f $(addprefix "$(DATADIR)/ime-composer/lab/engines/",$(notdir $(wildcard data/lab/engines/*.json)))
	rm -f $(addprefix "$(DATADIR)/ime-composer/lab/gnome-shell/imelab@ime-composer/",$(notdir $(wildcard data/lab/gnome-shell/imelab@ime-composer/*)))
	-rmdir "$(DATADIR)/ime-composer/lab/gnome-shell/imelab@ime-composer" "$(DATADIR)/ime-composer/lab/gnome-shell"
	rm -f $(addprefix "$(DATADIR)/ime-composer/lab/peers/",$(notdir $(wildcard data/lab/peers/*)))
	-rmdir "$(DATADIR)/ime-composer/lab/engines" "$(DATADIR)/ime-composer/lab/peers" "$(DATADIR)/ime-composer/lab"
	-rmdir "$(DATADIR)/ime-composer"
	rm -f $(foreach lang,$(LINGUAS),"$(DATADIR)/locale/$(lang)/LC_MESSAGES/ime-composer.mo")
