import ComposerCore
import GtkBinding

/// Pango's view of a preedit (byte ranges with attributes) as the core's (scalar segments
/// with named styles).
extension Preedit {
    init(_ preedit: PreeditString) {
        let runs = preedit.runs.map { run in
            var styles = Set<PreeditStyle>()
            switch run.underline {
            case .single: styles.insert(.underline)
            case .double: styles.insert(.doubleUnderline)
            case nil: break
            }
            if run.background { styles.insert(.highlight) }
            if run.foreground { styles.insert(.foreground) }
            if run.bold { styles.insert(.bold) }
            if run.strikethrough { styles.insert(.strikethrough) }
            return StyledByteRun(start: run.start, end: run.end, styles: styles)
        }
        self.init(text: preedit.text, cursor: preedit.cursor,
                  segments: PreeditSegmentation.segments(of: preedit.text, byteRuns: runs))
    }
}
