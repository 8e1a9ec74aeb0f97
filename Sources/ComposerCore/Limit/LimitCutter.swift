/// Hard mode, the IME-safe length limit (never cut while composing): at a settle with no
/// composition, cut what was just inserted back to the limit. First in the settle order, so
/// everything after sees the cut text.
///
/// It never refuses or rewrites anything while the input method is composing: a settle
/// with a preedit is not "input complete", and the preedit is shown whole. Undo and redo
/// are never cut (an over-limit undo shows as overflow instead), nor is old text when the
/// limit is lowered: only insertions of the window that this settle closed count.
public final class LimitCutter: SettleStep {
    public let name = "limit"
    public var limit: LengthLimit

    /// The inserting paths the limit applies to: everything but undo and redo.
    public static let trimmedOrigins: Set<EditOrigin> = Set(EditOrigin.allCases).subtracting([.undo, .redo])

    public init(limit: LengthLimit) {
        self.limit = limit
    }

    public func settle(_ model: ComposerModel, into output: inout SettleOutput) {
        guard limit.mode == .hard, model.preedit == nil,
              model.document.count(in: limit.unit) > limit.limit else { return }
        let inserted = model.log.insertedInLastQuietWindow(origins: Self.trimmedOrigins)
        let cuts = LimitTrim.cuts(in: model.document, inserted: inserted, limit: limit.limit, unit: limit.unit)
        // Everything is read from the text as the settle found it, before the first cut
        // changes it; the cuts come last-first, so each one's offsets stay true.
        let removed = cuts.map { model.document.substring(scalars: $0) }
        for (cut, text) in zip(cuts, removed) {
            output.effects.append(.trim(range: cut, caret: cut.lowerBound))
            output.events.append(.limit(removed: text, at: cut.lowerBound))
        }
    }
}
