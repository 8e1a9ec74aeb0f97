import CGtk
import ComposerCore
import Foundation
import GtkBinding

/// The length limit's widgets, in a row of their own just above the input bar: the hint a
/// refused Enter shows, the counter (and its words for screen readers) and "Trim to limit".
/// The row takes room only while one of them shows, and never from the input: the input's
/// width, and so where its text wraps, stays the same when the counter or Trim appears.
/// Each touches GTK only when what it shows changes: a keystroke's counter update costs one
/// inscription's text.
final class LimitIndicators {
    /// What is left of the limit. A GtkInscription, not a GtkLabel: its size is fixed by
    /// character counts, so new text only redraws it. A label's new text resized and
    /// re-allocated the whole window on every keystroke.
    let counterLabel: UnsafeMutablePointer<GtkWidget>
    /// The counter for screen readers: a status named with the count in words.
    let counterStatus: UnsafeMutablePointer<GtkWidget>
    /// "Trim to limit": shown only while the text is over the limit.
    let trimButton: UnsafeMutablePointer<GtkWidget>
    /// Why Send did nothing (over the limit); shown after a refused Enter.
    let limitHint: UnsafeMutablePointer<GtkWidget>
    /// The hint, the counter and Trim, in a row above the input bar; hidden while all are.
    let row: UnsafeMutablePointer<GtkWidget>
    private let textView: UnsafeMutablePointer<GtkWidget>
    private let announcements: InputAnnouncements
    /// What `show(_:)` last showed: an unchanged state touches no widget (a tooltip alone
    /// costs more than the rest of a keystroke's bookkeeping).
    private var shownLimit: LimitStatus?
    /// The counter's accessible name last set.
    private(set) var shownCounterSpoken: String?

    init(textView: UnsafeMutablePointer<GtkWidget>, announcements: InputAnnouncements) {
        self.textView = textView
        self.announcements = announcements

        counterLabel = gtk_inscription_new("0")
        // Room for "−1048576" (a 1 MB draft over the limit) and right-aligned like a label
        // of its own width.
        gtk_inscription_set_min_chars(opaque(counterLabel), 4)
        gtk_inscription_set_nat_chars(opaque(counterLabel), 8)
        gtk_inscription_set_xalign(opaque(counterLabel), 1)
        gtk_widget_add_css_class(counterLabel, "counter")
        gtk_widget_add_css_class(counterLabel, "ime-dimmed")
        gtk_widget_set_valign(counterLabel, GTK_ALIGN_CENTER)
        // For screen readers the counter is a status (a polite live region) around it, whose
        // accessible name says the count in words and changes with it (`speakCounter`):
        // AT-SPI reports a name change. The inscription itself is left out: it names itself
        // with its bare number on every change, a second name change a keystroke.
        cgtk_accessible_set_hidden(counterLabel, 1)
        counterStatus = cgtk_widget_new_with_role(gtk_box_get_type(), GTK_ACCESSIBLE_ROLE_STATUS)
        gtk_box_append(cast(counterStatus), counterLabel)
        gtk_widget_set_visible(counterStatus, 0)

        trimButton = gtk_button_new_from_icon_name("edit-cut-symbolic")
        gtk_widget_set_tooltip_text(trimButton, tr("Trim to limit (Ctrl+Shift+T)"))
        cgtk_accessible_set_label(trimButton, tr("Trim to limit"))
        gtk_widget_set_valign(trimButton, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(trimButton, "flat")
        ComposerView.keepFocusOffButton(trimButton)
        gtk_widget_set_visible(trimButton, 0)

        // Role alert (an assertive live region): AT-SPI calls it a notification. GTK 4.8 does
        // not tell AT-SPI when a hidden widget appears, so the input says it too (`showLimitHint`).
        limitHint = cgtk_widget_new_with_role(gtk_label_get_type(), GTK_ACCESSIBLE_ROLE_ALERT)
        gtk_widget_add_css_class(limitHint, "limit-hint")
        gtk_widget_add_css_class(limitHint, "error")
        gtk_label_set_wrap(opaque(limitHint), 1)
        gtk_label_set_xalign(opaque(limitHint), 0)
        gtk_widget_set_hexpand(limitHint, 1)
        gtk_widget_set_valign(limitHint, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(limitHint, 0)

        // The hint takes the row's start, the counter and Trim its end; 6 px between them
        // (the HIG's spacing of related controls), the row's ends the input bar's.
        row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_add_css_class(row, "limit-row")
        gtk_widget_set_hexpand(counterStatus, 1)
        gtk_widget_set_halign(counterStatus, GTK_ALIGN_END)
        for widget in [limitHint, counterStatus, trimButton] { gtk_box_append(cast(row), widget) }
        gtk_widget_set_visible(row, 0)
    }

    /// Shows the row while the hint, the counter or Trim shows: it is part of the input's
    /// region, which the panel's layout sizes (`PanelLayout`).
    private func showRow() {
        let shown = [limitHint, counterStatus, trimButton].contains { gtk_widget_get_visible($0) != 0 }
        if (gtk_widget_get_visible(row) != 0) != shown { gtk_widget_set_visible(row, shown ? 1 : 0) }
    }

    /// Shows the limit's state: what is left, an error style when over, a provisional
    /// style while a composition is counted in; the trim action only when over.
    func show(_ status: LimitStatus) {
        let previous = shownLimit
        if let previous, previous == status { return }
        shownLimit = status
        gtk_inscription_set_text(opaque(counterLabel), status.counterText)
        if previous?.isOver != status.isOver { cgtk_accessible_set_invalid(textView, status.isOver ? 1 : 0) }
        if previous?.counterIsShown != status.counterIsShown {
            gtk_widget_set_visible(counterStatus, status.counterIsShown ? 1 : 0)
        }
        if previous?.counterIsOver != status.counterIsOver {
            Style.setClass("error", on: counterLabel, status.counterIsOver)
            Style.setClass("ime-dimmed", on: counterLabel, !status.counterIsOver)
        }
        if previous?.isProvisional != status.isProvisional {
            Style.setClass("provisional", on: counterLabel, status.isProvisional)
        }
        // A new tooltip makes GTK ask the X server where the pointer is (a round trip):
        // set it only when it changes, not on every keystroke.
        if previous?.isProvisional != status.isProvisional || previous == nil {
            gtk_widget_set_tooltip_text(counterLabel, Self.counterTooltip(provisional: status.isProvisional))
        }
        // Its sensitivity is the trim action's (`ComposerActions`).
        gtk_widget_set_visible(trimButton, status.isOver ? 1 : 0)
        if !status.isOver {
            gtk_widget_set_visible(limitHint, 0)
            announcements.hint = nil
        }
        showRow()
    }

    /// Gives the counter its words for screen readers (`CounterSpeech` calls it once typing
    /// pauses). Far from the limit the counter is not shown, and not spoken either.
    func speakCounter(_ status: LimitStatus) {
        cgtk_accessible_set_hidden(counterStatus, status.counterIsShown ? 0 : 1)
        guard status.counterIsShown else { return }
        let spoken = Self.counterSpoken(status)
        if spoken != shownCounterSpoken {
            shownCounterSpoken = spoken
            cgtk_accessible_set_label(counterStatus, spoken)
        }
    }

    /// The counter in words, for screen readers (its status's accessible name): "42
    /// characters left", "7 characters over the limit", and what a composition adds.
    static func counterSpoken(_ status: LimitStatus) -> String {
        let value = status.limit - (status.provisionalCount ?? status.count)
        // TRANSLATORS: the length counter as a screen reader says it.
        let amount = value < 0 ? trn("%d character over the limit", "%d characters over the limit", -value)
                               : trn("%d character left", "%d characters left", value)
        // TRANSLATORS: %@ is the counter as a screen reader says it ("3 characters left");
        // "composed": the text an input method shows underlined before it is committed.
        return status.isProvisional ? String(format: tr("%@, counting the text being composed"), amount) : amount
    }

    /// What the counter's number means.
    static func counterTooltip(provisional: Bool) -> String {
        // TRANSLATORS: the counter's tooltip; "composed": the text an input method shows
        // underlined before it is committed (preedit).
        provisional ? tr("Provisional: includes the text being composed") : tr("Characters left")
    }

    func showLimitHint(_ hint: LimitHint) { showLimitHint(Self.text(for: hint)) }

    /// "2 characters over the limit of 200: …", in the person's language.
    static func text(for hint: LimitHint) -> String {
        let over: String
        switch hint.unit {
        case .graphemes:
            // TRANSLATORS: the message is this many characters (as people count them) over
            // the length limit, the second number; Send refuses it.
            over = trn("%d character over the limit of %d", "%d characters over the limit of %d", hint.over, hint.limit)
        case .scalars:
            over = trn("%d Unicode scalar over the limit of %d", "%d Unicode scalars over the limit of %d", hint.over, hint.limit)
        case .utf16:
            over = trn("%d UTF-16 unit over the limit of %d", "%d UTF-16 units over the limit of %d", hint.over, hint.limit)
        }
        // TRANSLATORS: %@ is the sentence above ("2 characters over the limit of 200").
        return String(format: tr("%@: shorten the message or trim it (Ctrl+Shift+T)."), over)
    }

    func showLimitHint(_ text: String) {
        gtk_label_set_text(opaque(limitHint), text)
        gtk_widget_set_visible(limitHint, 1)
        showRow()
        announcements.announce(hint: text)
    }
}
