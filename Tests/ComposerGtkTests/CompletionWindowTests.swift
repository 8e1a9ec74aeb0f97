import CGtk
@_spi(Testing) import ComposerApp
import ComposerCore
import Foundation
import GtkBinding
import Testing
import TestHarness

extension GtkWindowSuites {
    /// The completion list in a real window: rows with literal text, a real mouse click
    /// that accepts without taking focus from the text view, and the length limit.
    @MainActor
    @Suite(.serialized)
    struct CompletionWindowTests {
        static let people = [
            DirectoryEntry(id: "u1", name: "tanaka", display: "田中 太郎", reading: "たなか たろう", latin: "tanaka taro"),
            DirectoryEntry(id: "u2", name: "bold", display: "<b>Bold</b> &amp; <span foreground='red'>Red</span>",
                           reading: "", latin: "bold"),
        ]
        static var directory: WorkspaceDirectory { WorkspaceDirectory(people: people, channels: []) }

        /// The list's commands are actions of the window ("composer.completion-next", …),
        /// enabled exactly while the list is open, the state set with the others in one place.
        @Test func theListsCommandsAreActionsEnabledWhileItIsOpen() async throws {
            let people = [
                DirectoryEntry(id: "t1", name: "tanaka", display: "Tanaka Taro", reading: "", latin: "tanaka taro"),
                DirectoryEntry(id: "t2", name: "tanabe", display: "Tanabe Jun", reading: "", latin: "tanabe jun"),
            ]
            let (composer, _) = try await GtkFixture.composer(directory: WorkspaceDirectory(people: people, channels: []))
            defer { GtkFixture.close(composer) }
            #expect(!composer.actionIsEnabled("completion-next"), "closed: nothing to move")
            try GtkFixture.xdotool.type("@tan")
            try await GtkFixture.settled(composer, "the list for @tan") { composer.completionTitlesShown.count == 2 }
            for name in ["completion-next", "completion-previous", "completion-accept", "completion-close"] {
                #expect(composer.actionIsEnabled(name), "\(name) while open")
            }
            #expect(gtk_widget_activate_action_variant(composer.window, "composer.completion-next", nil) != 0)
            #expect(composer.completion.selectedIndex == 1)
            #expect(gtk_widget_activate_action_variant(composer.window, "composer.completion-close", nil) != 0)
            try await GtkFixture.settled(composer, "the list closed") { composer.completionTitlesShown.isEmpty }
            #expect(!composer.actionIsEnabled("completion-accept"), "closed again")
            #expect(composer.model.text == "@tan")
        }

        /// Issue #31: the first `:emoji:` of a session found nothing (the index was built on
        /// the first emoji word and came after the Enter). The data comes as in the app — read
        /// by `ComposerData.load` from the source tree's `data/`, off the main thread after the
        /// first frame — held back by a gate until the word is typed: the emoji index comes
        /// with people and channels, and the list opens as soon as it is there.
        @Test func aWordTypedBeforeTheDataArrivesOpensItsListWhenItArrives() async throws {
            let gate = LoadGate()
            let dataDirectory = ComposerBinary.packageRoot.appendingPathComponent("data").path
            let (composer, _) = try await GtkFixture.composer(loadingData: {
                gate.wait()
                return ComposerData.load(from: dataDirectory)
            })
            defer {
                gate.open()
                GtkFixture.close(composer)
            }
            try GtkFixture.xdotool.type(":cat")
            try await GtkFixture.settled(composer, "the word, before the data") { composer.model.text == ":cat" }
            #expect(composer.completionTitlesShown.isEmpty && !composer.eventNames.contains("data"))
            gate.open()
            try await GtkFixture.settled(composer, "the list, once the data is in") { !composer.completionTitlesShown.isEmpty }
            let data = composer.trace.emitted.compactMap { if case .data(let data) = $0 { data } else { nil } }
            #expect(data.map { $0.sources.map(\.name) } == [["people", "channels", "emoji"]], "one arrival, emoji in it")
            #expect(composer.completion.items.first?.kind == .emoji)
            #expect(composer.completionTitlesShown == composer.completion.visibleItems.map(\.title))
            #expect(composer.model.text == ":cat", "the arrival opens the list and does nothing else")
        }

        /// Enter on a word while the data loads waits for it (nothing is sent), then does
        /// what it would have done with the data there: accepts the first row.
        @Test func anEnterPressedBeforeTheDataArrivesAcceptsOnceItDoes() async throws {
            let gate = LoadGate()
            let people = Self.people
            let (composer, _) = try await GtkFixture.composer(loadingData: {
                gate.wait()
                return ComposerData(directory: WorkspaceDirectory(people: people, channels: []), emoji: [])
            })
            defer {
                gate.open()
                GtkFixture.close(composer)
            }
            try GtkFixture.xdotool.type("@tana")
            try await GtkFixture.settled(composer, "the word, before the data") { composer.model.text == "@tana" }
            try GtkFixture.xdotool.key(["Return"])
            try await GtkFixture.settled(composer, "Enter, before the data") {
                composer.trace.emitted.contains(.key(keyval: "Return", consumed: false))
            }
            #expect(composer.model.text == "@tana" && !composer.eventNames.contains("send"), "Enter waits")
            #expect(composer.sentMessagesShown.isEmpty)
            gate.open()
            try await GtkFixture.settled(composer, "the accepted mention") { composer.model.text == "@tanaka " }
            #expect(composer.trace.emitted.contains(.accept(item: "u1", text: "@tanaka ")))
            #expect(!composer.eventNames.contains("send"), "accepting never sends")
            #expect(composer.completionTitlesShown.isEmpty)
        }

        @Test func rowsShowNamesAsLiteralTextAndAClickAcceptsKeepingFocus() async throws {
            let (composer, _) = try await GtkFixture.composer(directory: Self.directory)
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("@bol")
            try await GtkFixture.wait("the list for bol") { !composer.completionTitlesShown.isEmpty }
            #expect(composer.completionTitlesShown == ["<b>Bold</b> &amp; <span foreground='red'>Red</span>"],
                    "markup in data is shown as text")
            // Wait for the row to be laid out before aiming at it.
            var center = (x: 0.0, y: 0.0)
            try await GtkFixture.wait("the row to be laid out") {
                guard let now = composer.completionRowCenter(0), now.y > 1 else { return false }
                defer { center = now }
                return now == center
            }
            let window = try #require(GtkFixture.windowID)
            try await GtkFixture.xdotool(["mousemove", "--window", window, String(Int(center.x)), String(Int(center.y)),
                                          "click", "1"])
            try await GtkFixture.settled(composer, "the accepted mention") { composer.model.text == "@bold " }
            #expect(gtk_widget_has_focus(composer.textView) != 0, "the text view keeps focus")
            #expect(composer.completionTitlesShown.isEmpty)
            #expect(composer.trace.emitted.contains(.accept(item: "u2", text: "@bold ")))
            try await GtkFixture.wait("the mention highlighted") { composer.highlightedRanges(.mention) == [0..<5] }
        }

        /// Issue #11: the rows are kept and updated in place while the list narrows and
        /// widens again (rebuilding them cost ~2.8M instructions per keystroke), and a
        /// reused row still shows and accepts the item now in it.
        /// The layout reserves each row's real height, for avatar rows and for emoji rows
        /// (whose glyph is larger), also when the list switches between the two and the
        /// rows' styles are not recomputed yet when the list is shown.
        @Test func theReservedRowHeightIsTheRowsRealHeight() async throws {
            let emoji = [EmojiEntry(id: "1f431", char: "🐱", shortcodes: ["cat_face", "cat"]),
                         EmojiEntry(id: "1f408", char: "🐈", shortcodes: ["cat2"])]
            let (composer, _) = try await GtkFixture.composer(directory: Self.directory, emoji: emoji)
            defer { GtkFixture.close(composer) }
            for (typed, what) in [("@ta", "avatar"), (":ca", "emoji"), ("@ta", "avatar again"), (":ca", "emoji again")] {
                try GtkFixture.xdotool.type(typed)
                try await GtkFixture.settled(composer, "the \(what) list") { composer.model.text == typed }
                // A row's border box: its content height (gtk_widget_get_height) plus padding.
                func borderBoxHeight(_ row: UnsafeMutablePointer<GtkWidget>) -> Int {
                    var bounds = graphene_rect_t()
                    guard gtk_widget_compute_bounds(row, row, &bounds) != 0 else { return 0 }
                    return Int(bounds.size.height.rounded())
                }
                var heights: [Int] = []
                try await GtkFixture.wait("\(what) rows laid out at the reserved height") {
                    heights = composer.completionRowWidgets.map(borderBoxHeight)
                    return !heights.isEmpty && heights.allSatisfy { $0 == composer.completionRowHeight }
                }
                #expect(heights.allSatisfy { $0 > 0 }, "\(what): \(heights)")
                try GtkFixture.xdotool.key(Array(repeating: "BackSpace", count: typed.count))
                try await GtkFixture.settled(composer, "cleared") { composer.model.text.isEmpty }
            }
        }

        @Test func rowsAreReusedAsTheListChangesAndAClickOnAReusedRowAcceptsItsItem() async throws {
            let people = [
                DirectoryEntry(id: "t1", name: "tanaka", display: "Tanaka Taro", reading: "", latin: "tanaka taro"),
                DirectoryEntry(id: "t2", name: "tanabe", display: "Tanabe Jun", reading: "", latin: "tanabe jun"),
                DirectoryEntry(id: "t3", name: "tamura", display: "Tamura Aki", reading: "", latin: "tamura aki"),
                DirectoryEntry(id: "t4", name: "takeda", display: "Takeda Ken", reading: "", latin: "takeda ken"),
                DirectoryEntry(id: "t5", name: "tani", display: "Tani Yuko", reading: "", latin: "tani yuko"),
                DirectoryEntry(id: "t6", name: "tada", display: "Tada Mio", reading: "", latin: "tada mio"),
            ]
            let (composer, _) = try await GtkFixture.composer(directory: WorkspaceDirectory(people: people, channels: []))
            defer { GtkFixture.close(composer) }
            /// The rows show exactly the controller's visible items, literal titles and bold runs.
            func expectRowsMatchTheModel(_ query: String, sourceLocation: SourceLocation = #_sourceLocation) {
                let items = Array(composer.completion.visibleItems)
                #expect(composer.completionTitlesShown == items.map(\.title), "titles for \(query)",
                        sourceLocation: sourceLocation)
                #expect(composer.completionTitleHighlightsShown == items.map(\.titleHighlights),
                        "highlights for \(query)", sourceLocation: sourceLocation)
            }

            try GtkFixture.xdotool.type("@ta")
            try await GtkFixture.settled(composer, "five rows for @ta") { composer.completionTitlesShown.count == 5 }
            expectRowsMatchTheModel("@ta")
            let rows = composer.completionRowWidgets
            // Held so that rows destroyed and rebuilt could not come back at the same addresses.
            let held = rows.map { ObjectRef(retaining: $0) }
            let closures = liveClosureCount
            let firstTitle = try #require(composer.completion.visibleItems.first?.title)
            #expect(composer.completionTitleHighlightsShown.first.map { $0.reduce(0) { $0 + $1.count } } == 2,
                    "two characters of \(firstTitle) in bold")

            try GtkFixture.xdotool.type("n")
            try await GtkFixture.settled(composer, "the list for @tan") { composer.model.text == "@tan" }
            let tan = composer.completionRowWidgets
            #expect(!tan.isEmpty && tan.count < rows.count, "@tan narrows the list")
            #expect(tan == Array(rows.prefix(tan.count)), "the same row widgets, not new ones")
            expectRowsMatchTheModel("@tan")

            try GtkFixture.xdotool.type("a")
            try await GtkFixture.settled(composer, "the list for @tana") { composer.model.text == "@tana" }
            #expect(composer.completionTitlesShown.sorted() == ["Tanabe Jun", "Tanaka Taro"])
            #expect(composer.completionRowWidgets == Array(rows.prefix(2)), "the same row widgets, not new ones")
            expectRowsMatchTheModel("@tana")
            #expect(composer.completionTitleHighlightsShown.allSatisfy { $0.reduce(0) { $0 + $1.count } == 4 },
                    "@tana: four characters in bold")

            // Widening again shows the hidden rows: still the same widgets.
            try GtkFixture.xdotool.key(["BackSpace", "BackSpace"])
            try await GtkFixture.settled(composer, "the list for @ta again") {
                composer.model.text == "@ta" && composer.completionTitlesShown.count == 5
            }
            #expect(composer.completionRowWidgets == rows, "hidden rows are shown again, not rebuilt")
            expectRowsMatchTheModel("@ta again")
            try await GtkFixture.wait("no signal closures added by showing the list \(liveClosureCount) > \(closures)") {
                liveClosureCount <= closures
            }

            // A click on a row that was hidden and shown again accepts the item it shows now.
            let expected = composer.completion.visibleItems[composer.completion.visibleRange.lowerBound + 3]
            #expect(composer.completionTitlesShown[3] == expected.title)
            var center = (x: 0.0, y: 0.0)
            try await GtkFixture.wait("row 3 to be laid out") {
                guard let now = composer.completionRowCenter(3), now.y > 1 else { return false }
                defer { center = now }
                return now == center
            }
            let window = try #require(GtkFixture.windowID)
            try await GtkFixture.xdotool(["mousemove", "--window", window, String(Int(center.x)), String(Int(center.y)),
                                          "click", "1"])
            try await GtkFixture.settled(composer, "the accepted mention") { composer.model.text == expected.insertion }
            #expect(composer.trace.emitted.contains(.accept(item: expected.id, text: expected.insertion)))
            #expect(composer.completionTitlesShown.isEmpty)
            withExtendedLifetime(held) {}
        }

        @Test func mentionsAreHighlightedAsYouTypeAndStopWhenBroken() async throws {
            let (composer, _) = try await GtkFixture.composer(directory: Self.directory)
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("hi @tanak")
            try await GtkFixture.settled(composer, "the text") { composer.model.text == "hi @tanak" }
            #expect(composer.highlightedRanges(.mention).isEmpty, "@tanak is nobody")
            try GtkFixture.xdotool.key(["Escape"])  // close the list; keep typing by hand
            try GtkFixture.xdotool.type("a and more")
            try await GtkFixture.wait("@tanaka highlighted") { composer.highlightedRanges(.mention) == [3..<10] }
            try GtkFixture.xdotool.key(["ctrl+a"])
            try GtkFixture.xdotool.type("@unknown #x")
            try await GtkFixture.wait("nothing highlighted") {
                composer.model.text == "@unknown #x" && composer.highlightedRanges(.mention).isEmpty
            }
        }

        /// A key typed inside a mention inherits its tag in GTK (text inserted strictly
        /// inside a tag's run does); the broken mention loses its colour, that key included,
        /// and typing at a mention's end never colours the new text.
        @Test func textTypedInsideAMentionTakesNoColourAlong() async throws {
            let options = ComposerOptions(initialText: "hi @tanaka ok", caret: 7, profileDirectory: try GtkFixture.newProfile())
            let (composer, _) = try await GtkFixture.composer(options, directory: Self.directory)
            defer { GtkFixture.close(composer) }
            try await GtkFixture.settled(composer, "the start") { composer.highlightedRanges(.mention) == [3..<10] }
            try GtkFixture.xdotool.type("x")  // "@tanxaka"
            try await GtkFixture.settled(composer, "the broken mention") { composer.model.text == "hi @tanxaka ok" }
            #expect(composer.highlightedRanges(.mention).isEmpty)
            try GtkFixture.xdotool.key(["BackSpace"])
            try await GtkFixture.settled(composer, "the mention again") { composer.highlightedRanges(.mention) == [3..<10] }
            try GtkFixture.xdotool.key(["Escape", "Right", "Right", "Right"])  // the list closed; right after "@tanaka"
            try GtkFixture.xdotool.type("!")
            try await GtkFixture.settled(composer, "typed at its end") { composer.model.text == "hi @tanaka! ok" }
            #expect(composer.highlightedRanges(.mention) == [3..<10], "the ! took no colour")
        }

        @Test func acceptingObeysTheHardLimitAndIsOneUndoStep() async throws {
            let options = ComposerOptions(initialText: "hi ", profileDirectory: try GtkFixture.newProfile(),
                                          limit: LengthLimit(limit: 8, mode: .hard))
            let (composer, _) = try await GtkFixture.composer(options, directory: Self.directory)
            defer { GtkFixture.close(composer) }
            try GtkFixture.xdotool.type("@tan")
            try await GtkFixture.wait("the list") { !composer.completionTitlesShown.isEmpty }
            try GtkFixture.xdotool.key(["Tab"])
            // "hi @tanaka " is 11: the inserted mention is cut back to the limit.
            try await GtkFixture.wait("the cut mention") { composer.model.text == "hi @tana" }
            #expect(composer.trace.emitted.contains(.limit(removed: "ka ", at: 8)))
            try GtkFixture.xdotool.key(["ctrl+z"])
            try await GtkFixture.wait("undo brings the cut part back") { composer.model.text == "hi @tanaka " }
        }
    }
}

/// Holds a data loader back (on its thread) until the test opens it; open for good then.
final class LoadGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func wait() {
        semaphore.wait()
        semaphore.signal()
    }

    func open() { semaphore.signal() }
}
