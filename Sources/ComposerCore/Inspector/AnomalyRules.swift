/// The rules the inspector flags rows by. Each is a pure function of what was known before
/// the event and the event: the bugs people report against GTK 4, IBus and Fcitx5, as they
/// show in the trace.
public enum AnomalyRules {
    public typealias Rule = @Sendable (AnomalyContext, TraceEvent) -> Anomaly?

    /// Every rule, in the order their flags are listed.
    public static let all: [Rule] = [
        commitWithoutPreeditEnd, preeditVanished, deleteSurroundingOutOfRange, deleteSurroundingSplitsGrapheme,
        deleteSurroundingAfterCommit, forwardedKeyBeforeCommit, preeditCursorOutside, preeditCursorStuckAtStart,
        hangulResetAfterCommit, duplicatedCommit, emptyCommitWhileComposing, enterWhileComposing,
        inputMethodLostWhileComposing, misplacedCandidates,
    ]

    /// The caret told to the input method is not the caret on screen, or its candidate
    /// window is away from it (`CandidatePlacement.findings`); only the first finding is
    /// flagged, the most specific (a row carries one flag per rule).
    public static let misplacedCandidates: Rule = { _, event in
        guard case .placement(let placement) = event, let finding = placement.findings.first else { return nil }
        let (explanation, reference) = finding.explanation(placement)
        return Anomaly(id: finding.id, explanation: explanation, reference: reference)
    }

    /// A commit of nothing while a composition is shown: an input method confirms what it
    /// shows by committing it, so the composition is gone when the preedit ends next.
    /// ibus-anthy 1.5.14 does it when Return is handled before the conversion Space asked for
    /// was drawn: it commits the converted text it has not computed yet.
    public static let emptyCommitWhileComposing: Rule = { context, event in
        guard case .commit(let text) = event, text.isEmpty, !context.preedit.isEmpty else { return nil }
        return Anomaly(id: "empty-commit-while-composing",
                       explanation: "the input method committed nothing while \"\(context.preedit)\" was shown: confirming it lost the composition")
    }

    /// The input method's daemon died while it showed a composition: what it showed was
    /// never committed (its GTK module never says so; the composer ends it).
    public static let inputMethodLostWhileComposing: Rule = { context, event in
        guard case .inputMethodLost(let name) = event, !context.preedit.isEmpty else { return nil }
        return Anomaly(id: "input-method-lost-while-composing",
                       explanation: "the input method (\(name)) left the session bus while composing \"\(context.preedit)\": it was never committed")
    }

    /// A key arrives while the preedit still shows what was committed before it: nothing
    /// ended or replaced the composition after the commit, so the user sees the text twice.
    public static let commitWithoutPreeditEnd: Rule = { context, event in
        guard case .key = event, let committed = context.commitSinceKey, !committed.isEmpty,
              context.composing, !context.preeditChangedSinceCommit, context.preedit == committed else { return nil }
        return Anomaly(id: "commit-without-preedit-end",
                       explanation: "\"\(committed)\" was committed but its preedit is still shown: no preedit-end or preedit change followed the commit")
    }

    /// The composition ends without a commit right after the focus left or a reset (the
    /// caret moved): what the user was composing is gone.
    public static let preeditVanished: Rule = { context, event in
        guard let cause = context.compositionInterrupted, !context.preedit.isEmpty, context.commitSinceKey == nil else { return nil }
        let ends: Bool
        switch event {
        case .preeditEnd: ends = true
        case .preedit(let preedit): ends = preedit.text.isEmpty
        default: ends = false
        }
        guard ends else { return nil }
        return Anomaly(id: "preedit-vanished",
                       explanation: "the preedit \"\(context.preedit)\" vanished without a commit when \(cause)",
                       reference: "fcitx/fcitx5#687")
    }

    /// The range a delete-surrounding asks for, in scalars of the committed text.
    static func deleteRange(_ context: AnomalyContext, offset: Int, count: Int) -> Range<Int> {
        (context.caret + offset)..<(context.caret + offset + count)
    }

    public static let deleteSurroundingOutOfRange: Rule = { context, event in
        guard case let .surroundingDelete(offset, count) = event else { return nil }
        let range = deleteRange(context, offset: offset, count: count)
        guard range.lowerBound < 0 || range.upperBound > context.text.count else { return nil }
        return Anomaly(id: "delete-surrounding-out-of-range",
                       explanation: "delete-surrounding (offset \(offset), count \(count)) reaches past the text: the caret is at \(context.caret) of \(context.text.count) characters")
    }

    public static let deleteSurroundingSplitsGrapheme: Rule = { context, event in
        guard case let .surroundingDelete(offset, count) = event else { return nil }
        let range = deleteRange(context, offset: offset, count: count)
        guard range.lowerBound >= 0, range.upperBound <= context.text.count, count > 0 else { return nil }
        let boundaries = graphemeBoundaries(context.text)
        guard !boundaries.contains(range.lowerBound) || !boundaries.contains(range.upperBound) else { return nil }
        let astral = context.text[range].contains { $0.utf16.count == 2 }
        return Anomaly(id: "delete-surrounding-splits-grapheme",
                       explanation: "delete-surrounding (offset \(offset), count \(count)) cuts through a character the user sees as one (a grapheme)"
                           + (astral ? "; an engine counting UTF-16 units instead of characters does this" : ""))
    }

    /// A delete-surrounding right after a commit, deleting what that commit just inserted:
    /// the two were applied in the wrong order (the engine meant delete, then commit).
    public static let deleteSurroundingAfterCommit: Rule = { context, event in
        guard case let .surroundingDelete(offset, count) = event, let committed = context.lastCommitRange,
              !committed.isEmpty, count > 0 else { return nil }
        let range = deleteRange(context, offset: offset, count: count)
        guard range.overlaps(committed) else { return nil }
        return Anomaly(id: "delete-surrounding-after-commit",
                       explanation: "delete-surrounding arrived after the commit it should have preceded and deletes the committed text",
                       reference: "ibus/ibus#2570")
    }

    /// A key the input method passed on changed the text while it was composing, and the
    /// composition's commit came after it: the key's text lands before the syllable.
    public static let forwardedKeyBeforeCommit: Rule = { context, event in
        guard case .commit(let text) = event, context.forwardedKeyEditWhileComposing else { return nil }
        return Anomaly(id: "forwarded-key-before-commit",
                       explanation: "a key passed on by the input method changed the text before the commit of \"\(text)\" it follows",
                       reference: "ibus/ibus#2156, fcitx/fcitx5#445")
    }

    public static let preeditCursorOutside: Rule = { _, event in
        guard case .preedit(let preedit) = event, preedit.cursor > preedit.text.unicodeScalars.count else { return nil }
        return Anomaly(id: "preedit-cursor-outside",
                       explanation: "the preedit cursor \(preedit.cursor) is outside its text of \(preedit.text.unicodeScalars.count) characters")
    }

    /// Typing at the end of a preedit moves its cursor; one that stays at 0 while the text
    /// grows at its end is stuck.
    public static let preeditCursorStuckAtStart: Rule = { context, event in
        guard case .preedit(let preedit) = event, preedit.cursor == 0, let previous = context.previousPreedit,
              previous.cursor == 0, !previous.text.isEmpty,
              preedit.text.unicodeScalars.count > previous.text.unicodeScalars.count,
              preedit.text.hasPrefix(previous.text) else { return nil }
        return Anomaly(id: "preedit-cursor-stuck",
                       explanation: "the preedit grew at its end but its cursor stays at 0")
    }

    /// Right after a Hangul commit, the remaining syllable is reset to a bare vowel: its
    /// initial consonant was lost (한그 → 한ㅡ). A vowel typed after a syllable with a final
    /// consonant takes that consonant (한 + ㅡ → 하 + 느), so after committing such a
    /// syllable a bare vowel never comes legitimately.
    public static let hangulResetAfterCommit: Rule = { context, event in
        guard case .preedit(let preedit) = event, let committed = context.commitSinceKey?.unicodeScalars.last,
              !context.preeditChangedSinceCommit,
              let vowel = preedit.text.unicodeScalars.first, preedit.text.unicodeScalars.count == 1,
              (0x314F...0x3163).contains(vowel.value),
              (0xAC00...0xD7A3).contains(committed.value), (committed.value - 0xAC00) % 28 != 0 else { return nil }
        return Anomaly(id: "hangul-reset-after-commit",
                       explanation: "after the commit the preedit was reset to the bare vowel \"\(preedit.text)\": the syllable's first consonant was lost",
                       reference: "fcitx/fcitx5#600")
    }

    /// The same text committed twice with no key press between.
    public static let duplicatedCommit: Rule = { context, event in
        guard case .commit(let text) = event, !text.isEmpty, context.commitSinceKey == text else { return nil }
        return Anomaly(id: "duplicated-commit",
                       explanation: "\"\(text)\" was committed twice for one key press",
                       reference: "google/mozc#930")
    }

    /// Enter while composing confirms the composition: an input method that passes it on
    /// leaves the app to guess; one that takes it with nothing to confirm swallows a send.
    public static let enterWhileComposing: Rule = { context, event in
        guard case let .key(name, consumed?, _, forwarded) = event, KeyCommand.enterKeys.contains(name) else { return nil }
        if forwarded, !context.composing, !consumed {
            // A compositor's input method (fcitx5-hangul on Wayland) committed, then passed
            // on the Enter that made it commit: it reaches the app after the commit.
            return Anomaly(id: "enter-forwarded-after-commit",
                           explanation: "the input method committed and then passed on the Enter pressed while composing (the composer only confirms)")
        }
        if context.composing && !context.preedit.isEmpty && !consumed, let cause = context.compositionInterrupted {
            // The engine let go of the composition on GTK's reset (a click) or focus loss, but
            // its GTK module still draws it (ibus-unikey, ibus-m17n, fcitx5-anthy after a click).
            return Anomaly(id: "preedit-orphaned",
                           explanation: "the input method passed Enter on while \"\(context.preedit)\" was still drawn after \(cause): its engine no longer composes it (the composer finishes it as focus loss would)")
        }
        if context.composing && !context.preedit.isEmpty && !consumed {
            return Anomaly(id: "enter-passed-on-while-composing",
                           explanation: "the input method passed Enter on while composing \"\(context.preedit)\" (the composer only confirms it)")
        }
        if !context.composing && consumed {
            return Anomaly(id: "enter-consumed-without-composition",
                           explanation: "the input method took Enter with nothing to confirm: the message was not sent")
        }
        return nil
    }

    /// Scalar offsets where a grapheme starts or ends.
    static func graphemeBoundaries(_ scalars: [Unicode.Scalar]) -> Set<Int> {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        var boundaries: Set<Int> = [0]
        var offset = 0
        for character in text {
            offset += character.unicodeScalars.count
            boundaries.insert(offset)
        }
        return boundaries
    }
}
