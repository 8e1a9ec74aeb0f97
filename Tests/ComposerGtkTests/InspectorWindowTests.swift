import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// The IME inspector in a real window with GTK's simple input method, real X key events.
    @MainActor
    @Suite(.serialized)
    struct InspectorWindowTests {
        static func openInspector(_ composer: ComposerController) async throws {
            try await GtkFixture.xdotool(["key", "F12"])
            try await GtkFixture.wait("the inspector") { composer.inspectorShown }
        }

        /// A composer with the inspector open and é composed with a dead key (the US
        /// international layout: restore it after).
        static func inspectedAcuteE() async throws -> ComposerController {
            let (composer, _) = try await GtkFixture.composer()
            try GtkFixture.setKeyboardLayout(["-layout", "us", "-variant", "intl"], deadAcute: true)
            try await Self.openInspector(composer)
            try await GtkFixture.xdotool(["key", "dead_acute", "e"])
            try await GtkFixture.settled(composer, "é") { composer.model.text == "é" }
            return composer
        }

        /// While the inspector is shown each caret move's rectangle, as the text view gives
        /// it to the input method, is a row (GTK's simple input method sends nothing on and
        /// shows no candidate window: nothing to flag), and the Placement toggle draws it
        /// over the input; closed, nothing is read.
        @Test func placementRowsAndTheOverlayShowWhereTheCaretIsToldToTheInputMethod() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("ab")
            try await GtkFixture.settled(composer, "ab") { composer.model.text == "ab" }
            #expect(!composer.trace.emitted.contains { $0.name == "placement" }, "nothing read while the inspector is closed")
            // GDK 4.8 already asks for the root window's children's changes: watching the
            // candidate window adds no wake-up, open or closed.
            #expect(X11Screen.selectsTopLevelChanges(on: gdk_display_get_default()!))
            try await Self.openInspector(composer)
            func placements() -> [CandidatePlacement] {
                composer.inspectorLogRows.compactMap { if case .placement(let p) = $0.event { p } else { nil } }
            }
            try GtkFixture.xdotool.type("c")
            try await GtkFixture.wait("a placement row after c") { !placements().isEmpty }
            let first = try #require(placements().last)
            try GtkFixture.xdotool.type("dd")
            try await GtkFixture.wait("the caret moved right") { (placements().last?.given.x ?? 0) > first.given.x }
            let moved = try #require(placements().last)
            #expect(moved.given.y == first.given.y && moved.given.height > 0, "\(first) \(moved)")
            #expect(moved.sent == nil && moved.popup == nil, "the simple input method: \(moved)")
            let caret = try #require(moved.caret, "on X11 the caret on the screen is read")
            #expect(caret.height == moved.given.height * moved.scale, "\(moved)")
            #expect(moved.findings.isEmpty)
            let row = try #require(composer.inspectorLogRows.last { if case .placement = $0.event { true } else { false } })
            #expect(row.anomalies.isEmpty)
            try await GtkFixture.wait("the list showing every row") { !composer.inspectorRowsWaiting }
            composer.inspectorSelect(shownIndex: try #require(composer.inspectorShownRows.firstIndex { $0.number == row.number }))
            #expect(composer.inspectorDetailText.contains("sent by the IM module: not read"), "\(composer.inspectorDetailText)")

            composer.inspectorShowPlacement(true)
            try await GtkFixture.wait("the overlay drawing the caret given") { composer.placementOverlayShapes.contains { $0.label == "given" } }
            let given = try #require(composer.placementOverlayShapes.first { $0.label == "given" }?.rect)
            #expect(given.height == moved.given.height && given.y >= 0 && given.x >= 0, "\(given) \(moved)")
            try GtkFixture.xdotool.type("e")
            try await GtkFixture.wait("the overlay following the caret") {
                (composer.placementOverlayShapes.first { $0.label == "given" }?.rect.x ?? 0) > given.x
            }
            composer.inspectorShowPlacement(false)
            #expect(composer.placementOverlayShapes.isEmpty)

            try await GtkFixture.xdotool(["key", "F12"])
            try await GtkFixture.wait("closed") { !composer.inspectorShown }
            #expect(X11Screen.selectsTopLevelChanges(on: gdk_display_get_default()!), "GDK's own mask, given back")
            let count = composer.trace.emitted.filter { $0.name == "placement" }.count
            try GtkFixture.xdotool.type("f")
            try await GtkFixture.settled(composer, "abcddef") { composer.model.text == "abcddef" }
            #expect(composer.trace.emitted.filter { $0.name == "placement" }.count == count, "closed, nothing is read")
        }

        /// F11 opens the inspector on its Checklist: every item not yet tried, with
        /// what to type (generic words: GTK's simple input method is no lab engine); each
        /// passes as it is done; Ctrl+Shift+C then copies the checklist's report.
        @Test func theChecklistIsJudgedAsTheTesterTypes() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try GtkFixture.setKeyboardLayout(["-layout", "us", "-variant", "intl"], deadAcute: true)
            defer { GtkFixture.restoreKeyboardLayout() }
            try await GtkFixture.xdotool(["key", "F11"])
            try await GtkFixture.wait("the inspector on its checklist") {
                composer.inspectorShown && composer.inspectorChecklistText.contains("Compose and commit")
            }
            #expect(composer.inspectorChecklistText.contains("○ Compose and commit: not yet tried — Type k a n a"),
                    "\(composer.inspectorChecklistText)")
            #expect(composer.inspectorChecklistText.contains("What to type: generic words"))
            try await GtkFixture.xdotool(["key", "dead_acute", "e"])
            try await GtkFixture.settled(composer, "é") { composer.model.text == "é" }
            try await GtkFixture.wait("compose and commit passed") {
                composer.inspectorChecklistText.contains("✔ Compose and commit: passed: “é” was committed from its composition")
            }
            try await GtkFixture.xdotool(["key", "dead_acute"])
            try await GtkFixture.settled(composer, "composing") { composer.model.isComposing }
            try await GtkFixture.xdotool(["key", "BackSpace"])
            try await GtkFixture.settled(composer, "the dead key erased") { !composer.model.isComposing }
            #expect(composer.model.text == "é", "BackSpace in the composition left the committed text")
            try await GtkFixture.wait("BackSpace in a composition passed") {
                composer.inspectorChecklistText.contains("✔ BackSpace in a composition: passed")
            }
            #expect(composer.checklistJudge?.result(.candidateWindowAtCaret).verdict == .notTried)
            try await GtkFixture.xdotool(["key", "ctrl+shift+c"])
            let report = try await GtkFixture.clipboardText(composer, startingWith: "## Input method checklist")
            #expect(report.contains("### Items: 2 passed, 0 failed, 9 not tried"), "\(report)")
            #expect(report.contains("- IM module: gtk-im-context-simple"), "\(report)")
            // F11 again: back to the row detail, and Ctrl+Shift+C to the bug report.
            try await GtkFixture.xdotool(["key", "F11"])
            try await GtkFixture.wait("the checklist closed") { composer.inspectorShown && !composer.inspectorChecklistShown }
            #expect(composer.inspectorCopyBugReport()?.hasPrefix("## Input method session") == true)
        }

        @Test func f12OpensTheInspectorWithARowPerEventAndF12ClosesIt() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            #expect(!composer.inspectorShown, "closed at start")
            try await Self.openInspector(composer)
            #expect(gtk_widget_has_focus(composer.textView) != 0, "F12 leaves the focus in the input")
            try GtkFixture.xdotool.type("ab")
            try await GtkFixture.settled(composer, "ab") { composer.model.text == "ab" }
            try await GtkFixture.wait("the rows") { composer.inspectorShownRows.contains { $0.event == .commit("b") } }
            try await GtkFixture.wait("the list showing every row") { !composer.inspectorRowsWaiting }
            let rows = composer.inspectorShownRows
            #expect(rows.count == composer.inspectorLogRows.count, "every row shown with no filter")
            #expect(rows.first.map { if case .start = $0.event { true } else { false } } == true, "from the session's start")
            let kinds = Set(rows.map(\.kind))
            #expect(kinds.isSuperset(of: [.key, .commit, .edit, .window, .decision]), "\(kinds)")
            #expect(rows.map(\.number) == Array(rows.first!.number...rows.last!.number), "one row per event, in order")
            try await GtkFixture.xdotool(["key", "F12"])
            try await GtkFixture.wait("closed again") { !composer.inspectorShown }
        }

        /// A dead key's preedit row is drawn as the user sees it: underlined, with its cursor.
        @Test func aPreeditRowIsDrawnWithItsSegmentsAndCursor() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try GtkFixture.setKeyboardLayout(["-layout", "us", "-variant", "intl"], deadAcute: true)
            defer { GtkFixture.restoreKeyboardLayout() }
            try await Self.openInspector(composer)
            try await GtkFixture.xdotool(["key", "dead_acute"])
            try await GtkFixture.settled(composer, "composing") { composer.model.isComposing }
            try await GtkFixture.wait("the drawn preedit row") {
                composer.inspectorVisibleSummaries.contains { $0.text == "´▏" }
            }
            let drawn = try #require(composer.inspectorVisibleSummaries.first { $0.text == "´▏" })
            #expect(drawn.attributes.contains("0 2 underline single"), "´ is two UTF-8 bytes, underlined: \(drawn.attributes)")
            #expect(drawn.attributes.contains("2 5 foreground"), "the cursor mark in its colour: \(drawn.attributes)")
            try await GtkFixture.xdotool(["key", "e"])
            try await GtkFixture.settled(composer, "é") { composer.model.text == "é" }
        }

        @Test func kindFiltersSearchPauseAndClear() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await Self.openInspector(composer)
            try GtkFixture.xdotool.type("xy")
            try await GtkFixture.wait("the commit of y") { composer.inspectorShownRows.contains { $0.event == .commit("y") } }

            for kind in InspectorKind.allCases where kind != .commit { composer.inspectorShowKind(kind, false) }
            try await GtkFixture.wait("only commits") { composer.inspectorShownRows.allSatisfy { $0.kind == .commit } }
            #expect(composer.inspectorShownRows.map(\.event) == [.commit("x"), .commit("y")])
            for kind in InspectorKind.allCases { composer.inspectorShowKind(kind, true) }
            composer.inspectorSearch("“y”")
            try await GtkFixture.wait("the search") {
                let shown = composer.inspectorShownRows
                return !shown.isEmpty && shown.allSatisfy { $0.summary.contains("“y”") }
            }
            composer.inspectorSearch("")
            try await GtkFixture.wait("everything again") { composer.inspectorShownRows.count == composer.inspectorLogRows.count }

            composer.inspectorPause(true)
            let paused = composer.inspectorLogRows.count
            try GtkFixture.xdotool.type("z")
            try await GtkFixture.settled(composer, "z typed") { composer.model.text == "xyz" }
            #expect(composer.inspectorLogRows.count == paused, "no row while paused")
            composer.inspectorPause(false)
            composer.inspectorClear()
            #expect(composer.inspectorShownRows.isEmpty && composer.inspectorLogRows.isEmpty)
            try GtkFixture.xdotool.type("w")
            try await GtkFixture.wait("rows again") { composer.inspectorShownRows.contains { $0.event == .commit("w") } }
        }

        @Test func theDetailSpellsOutTheSelectedRow() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await Self.openInspector(composer)
            try GtkFixture.xdotool.type("q")
            try await GtkFixture.wait("the commit") { composer.inspectorShownRows.contains { $0.event == .commit("q") } }
            let index = try #require(composer.inspectorShownRows.firstIndex { $0.event == .commit("q") })
            composer.inspectorSelect(shownIndex: index)
            try await GtkFixture.wait("the detail") { composer.inspectorDetailText.contains("U+0071 LATIN SMALL LETTER Q") }
            #expect(composer.inspectorDetailText.contains("1 graphemes, 1 scalars, 1 UTF-16 units, 1 bytes"))
            #expect(composer.inspectorDetailText.contains(#"{"ev":"commit","#), "the raw line")
        }

        /// Without --trace nothing is written and no row is made until the inspector opens
        /// (the composer keeps only its recent events, shown when it opens); then the trace
        /// starts at a quiet moment and what it records replays to the same decisions.
        @Test func openedWithoutATraceItStartsOneThatReplays() async throws {
            let options = ComposerOptions(initialText: "hi ", profileDirectory: try GtkFixture.newProfile(),
                                          limit: LengthLimit(limit: 6, mode: .hard))
            let (composer, _) = try await GtkFixture.composer(options, traced: false)
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("ab")
            try await GtkFixture.settled(composer, "hi ab") { composer.model.text == "hi ab" }
            #expect(composer.inspectorLogRows.isEmpty && !composer.trace.isEnabled, "no trace before it opens")
            try await Self.openInspector(composer)
            #expect(composer.inspectorLogRows.contains { $0.event == .key(keyval: "b", consumed: nil) },
                    "what was typed before it opened is shown")
            try await GtkFixture.wait("the trace started") { composer.inspectorLogRows.contains { $0.event.name == "start" } }
            try GtkFixture.xdotool.type("cdef")
            try await GtkFixture.settled(composer, "cut to the limit") { composer.model.text == "hi abc" }
            try await GtkFixture.wait("the cut's row") { composer.inspectorLogRows.contains { $0.event.name == "limit" } }

            let lines = composer.inspectorTranscript.map { $0.event.json(t: $0.t).serialized() }.joined(separator: "\n") + "\n"
            let transcript = try Transcript(text: lines, name: "inspector")
            #expect(transcript.initialText.text == "hi ab")
            let output = try Replayer(transcript: transcript, settings: transcript.settings, data: .empty).run()
            #expect(ReplayComparison.firstDifference(recorded: transcript, replayed: output) == nil)

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(getpid()).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            try ComposerController.writeTranscript(composer.inspectorTranscript, to: file)
            #expect(try String(contentsOfFile: file, encoding: .utf8) == lines, "Save transcript… writes the same lines")
            let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(permissions == 0o600, "a keystroke log is its owner's only")
        }

        /// Each answer row says how long after its key it came, each key row when its frame
        /// was painted; the Timing view summarises key → preedit, → commit, → painted frame
        /// and links the slowest key to its row.
        @Test func answerRowsAndTheTimingViewShowHowLongEachKeyTook() async throws {
            let composer = try await Self.inspectedAcuteE()
            defer { GtkFixture.close(composer) }
            defer { GtkFixture.restoreKeyboardLayout() }
            try await GtkFixture.wait("the e key's frame painted") {
                composer.inspectorLogRows.contains { $0.event == .key(keyval: "e", consumed: nil) && $0.paintedAfter != nil }
            }
            let rows = composer.inspectorLogRows
            let commit = try #require(rows.first { $0.event == .commit("é") })
            #expect(commit.sinceKey != nil && commit.summary.contains(" ms"), "\(commit.summary)")
            let key = try #require(rows.first { $0.event == .key(keyval: "e", consumed: nil) })
            #expect(key.summary.contains("→ painted after"), "\(key.summary)")
            try await GtkFixture.wait("the key row's label says so") {
                composer.inspectorVisibleSummaries.contains { $0.text.contains("→ painted after") }
            }

            composer.inspectorShowTiming(true)
            let text = composer.inspectorTimingText
            #expect(text.contains("All keys"), "\(text)")
            #expect(text.contains("key → commit: 1 keys"), "\(text)")
            #expect(text.contains("key → painted frame: 2 keys"), "\(text)")
            // Shown, it follows the session.
            try await GtkFixture.xdotool(["key", "dead_acute", "a"])
            try await GtkFixture.settled(composer, "éá") { composer.model.text == "éá" }
            try await GtkFixture.wait("the Timing view counting the second commit") {
                composer.inspectorTimingText.contains("key → commit: 2 keys")
            }
            let markup = composer.inspectorTimingMarkup
            let slowest = try #require(markup.firstMatch(of: /href="row:(\d+)"/).map { Int($0.1)! }, "\(markup)")
            composer.inspectorShowKind(.key, false)
            composer.inspectorFollowTimingLink(row: slowest)
            #expect(composer.inspectorDetailText.hasPrefix("#\(slowest) "), "the link shows its row: \(composer.inspectorDetailText)")
            #expect(composer.inspectorShownRows.contains { $0.number == slowest }, "a filtered-out row is shown again")
        }

        /// What the list's model went through: rows removed (or replaced), and the rows
        /// added by each change.
        final class ModelChanges {
            var removed = 0
            var added: [Int] = []
        }

        /// What a key costs the window with the inspector open. A key's rows come in one
        /// change of the list (a key, its commit and its edit come in one dispatch, so they
        /// must share one), and each change was a frame of the whole window. Every row on
        /// screen measures the same, whatever its text (GtkInscription), and a key's row
        /// learns when its frame was painted in place, with no item replaced. Before, each
        /// row was its own change, each painted key's item was replaced, and each row was a
        /// GtkLabel sized by its text: four frames a key, and GTK measured the window
        /// and laid the rows' text out again and again.
        @Test func aKeysRowsComeInOneChangeKeepTheirSizeAndChangeInPlace() async throws {
            let (composer, _) = try await GtkFixture.composer()
            defer { GtkFixture.close(composer) }
            try await Self.openInspector(composer)
            let model = try #require(composer.inspectorListModel)
            // "items-changed": void (*)(GListModel *, guint position, guint removed, guint added, gpointer).
            let record: @convention(c) (OpaquePointer?, guint, guint, guint, UnsafeMutableRawPointer?) -> Void = { _, _, removed, added, data in
                let changes = Unmanaged<ModelChanges>.fromOpaque(data!).takeUnretainedValue()
                changes.removed += Int(removed)
                changes.added.append(Int(added))
            }
            let changes = ModelChanges()
            let handler = g_signal_connect_data(UnsafeMutableRawPointer(model), "items-changed", unsafeBitCast(record, to: GCallback.self),
                                                Unmanaged.passUnretained(changes).toOpaque(), nil, GConnectFlags(0))
            defer { g_signal_handler_disconnect(UnsafeMutableRawPointer(model), handler) }
            try GtkFixture.xdotool.type("abc")
            try await GtkFixture.settled(composer, "abc") { composer.model.text == "abc" }
            try await GtkFixture.wait("the c key's row on screen says when it was painted") {
                composer.inspectorVisibleSummaries.contains { $0.text.hasPrefix("key c") && $0.text.contains("→ painted after") }
            }
            #expect(changes.removed == 0, "rows only appended: \(changes.removed) removed")
            #expect((changes.added.max() ?? 0) >= 3, "a key's rows in one change: \(changes.added)")
            // Following the new rows scrolls the list: GTK's overlay indicator then faded in
            // and out, 50 frames of the whole window after a key of 2 (paint-meter).
            #expect(!composer.inspectorListFadesItsScrollIndicator)
            // No new row, and two frames: every row on screen has its style (a row made
            // since the last frame measures without it).
            composer.inspectorPause(true)
            try await GtkFixture.wait("the rows that were waiting shown") { !composer.inspectorRowsWaiting }
            try await GtkFixture.paintedTwice(composer)
            let sizes = composer.inspectorRowSizes
            #expect(Set(sizes.map(\.summary.count)).count > 1, "rows of different lengths: \(sizes.map(\.summary))")
            #expect(Set(sizes.map(\.width)).count == 1 && Set(sizes.map(\.height)).count == 1,
                    "every row measures the same: \(sizes)")
        }

        @Test func copyAsBugReportPutsMarkdownWithTheLastCompositionOnTheClipboard() async throws {
            let composer = try await Self.inspectedAcuteE()
            defer { GtkFixture.close(composer) }
            defer { GtkFixture.restoreKeyboardLayout() }
            try await GtkFixture.wait("the commit row") { composer.inspectorLogRows.contains { $0.event == .commit("é") } }
            let report = try #require(composer.inspectorCopyBugReport())
            #expect(report.hasPrefix("## Input method session"))
            #expect(report.contains("- GDK backend: x11"))
            #expect(report.contains("- IM module: gtk-im-context-simple"), "\(report)")
            #expect(report.contains("commit “é”") && report.contains("U+00E9"))
        }
    }
}
