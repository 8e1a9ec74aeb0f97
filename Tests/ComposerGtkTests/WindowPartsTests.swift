import CGtk
@testable import ComposerApp
import ComposerCore
import ComposerStore
import Foundation
import GtkBinding
import Testing

extension GtkWindowSuites {
    /// The window's parts that own their state (`OwnChanges`, `DraftKeeper`'s notices,
    /// `InputAnnouncements`, `LimitIndicators`), each on its own, without a controller.
    @MainActor
    @Suite(.serialized)
    struct WindowPartsTests {
        @Test func ownChangesSilenceTheirEchoesAndOnlyWhileTheyRun() {
            let own = OwnChanges()
            #expect(own.editsAreNews && own.selectionIsNews)
            var seen: [(edits: Bool, selection: Bool)] = []
            own.edit { seen.append((own.editsAreNews, own.selectionIsNews)) }
            // GTK resets the input method when the caret is set: an edit signal during the
            // composer's own selection is the input method's, and news.
            own.select { seen.append((own.editsAreNews, own.selectionIsNews)) }
            #expect(seen.map(\.edits) == [false, true])
            #expect(seen.map(\.selection) == [false, false])
            #expect(own.editsAreNews && own.selectionIsNews, "both end with their body")
        }

        @Test func theKeeperShowsEachStoreNoticeOnceAndEndsOnlyACannotSave() throws {
            try GtkFixture.start()
            let directory = URL(fileURLWithPath: try GtkFixture.newProfile())
            let keeper = DraftKeeper(saver: DraftSaver(directory: directory, store: nil) { _ in },
                                     sources: SourceGroup()) { _ in }
            let full = StoreNotice.cannotSave(path: "/p/composer.sqlite", reason: "No space left on device")
            let damaged = StoreNotice.movedAside(path: "/p/composer.sqlite", movedTo: "/p/composer.sqlite.damaged",
                                                 reason: "file is not a database")
            #expect(keeper.reported(nil) == .unchanged, "nothing to end")
            #expect(keeper.reported(full) == .show(full))
            #expect(keeper.reported(full) == .unchanged, "a retry that fails the same way is not news")
            #expect(keeper.reported(nil) == .hide, "a write that succeeded ends it")
            #expect(keeper.reported(damaged) == .show(damaged))
            #expect(keeper.reported(nil) == .unchanged, "a file moved aside stays news for the session")
            #expect(keeper.reported(full) == .show(full))
        }

        @Test func theInputSaysTheHintAndTheSuggestionTogether() throws {
            try GtkFixture.start()
            let textView = gtk_text_view_new()!
            g_object_ref_sink(textView.rawPointer)
            defer { g_object_unref(textView.rawPointer) }
            let announcements = InputAnnouncements(textView: textView)
            #expect(announcements.description == nil)
            announcements.suggestion = "@hanako Hanako Yamada"
            announcements.announce(hint: "2 characters over the limit of 200")
            #expect(announcements.description == "2 characters over the limit of 200 @hanako Hanako Yamada")
            announcements.suggestion = nil
            announcements.announce(hint: "2 characters over the limit of 200")
            #expect(announcements.description == "2 characters over the limit of 200")
        }

        @Test func theIndicatorsFollowTheLimitAndClearTheHintBackUnder() throws {
            try GtkFixture.start()
            let textView = gtk_text_view_new()!
            let limitIndicators = LimitIndicators(textView: textView, announcements: InputAnnouncements(textView: textView))
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            g_object_ref_sink(box.rawPointer)
            defer { g_object_unref(box.rawPointer) }
            for widget in [limitIndicators.row, textView] { gtk_box_append(cast(box), widget) }
            #expect(gtk_widget_get_visible(limitIndicators.row) == 0, "no row before there is something to show")
            let counter = limitIndicators.counterLabel
            func text() -> String { string(fromBorrowed: gtk_inscription_get_text(opaque(counter))) }
            func has(_ name: String) -> Bool { gtk_widget_has_css_class(counter, name) != 0 }

            limitIndicators.show(LimitStatus(count: 205, provisionalCount: nil, limit: 200))
            limitIndicators.showLimitHint(LimitHint(over: 5, limit: 200, unit: .graphemes))
            #expect(text() == "\u{2212}5")
            #expect(has("error") && !has("ime-dimmed"))
            #expect(gtk_widget_get_visible(limitIndicators.trimButton) != 0)
            #expect(gtk_widget_get_visible(limitIndicators.limitHint) != 0)
            #expect(gtk_widget_get_visible(limitIndicators.row) != 0)

            limitIndicators.show(LimitStatus(count: 195, provisionalCount: 203, limit: 200))
            #expect(has("provisional") && has("error"), "a composition counted in that goes over")
            #expect(gtk_widget_get_visible(limitIndicators.trimButton) == 0, "committed text is under the limit")
            #expect(gtk_widget_get_visible(limitIndicators.limitHint) == 0, "the hint goes with the overflow")
            #expect(string(fromBorrowed: gtk_widget_get_tooltip_text(counter)) == LimitIndicators.counterTooltip(provisional: true))
            limitIndicators.speakCounter(LimitStatus(count: 195, provisionalCount: 203, limit: 200))
            #expect(limitIndicators.shownCounterSpoken == "3 characters over the limit, counting the text being composed")
            #expect(gtk_widget_get_visible(limitIndicators.row) != 0, "the counter still shows")

            limitIndicators.show(LimitStatus(count: 190, provisionalCount: nil, limit: 200))
            #expect(text() == "10")
            #expect(has("ime-dimmed") && !has("error") && !has("dim-label"), "near the limit: dimmed by its colour")

            limitIndicators.show(LimitStatus(count: 10, provisionalCount: nil, limit: 200))
            #expect(gtk_widget_get_visible(limitIndicators.counterStatus) == 0, "far from the limit")
            #expect(gtk_widget_get_visible(limitIndicators.row) == 0, "nothing to show: the row takes no room")
        }
    }
}
