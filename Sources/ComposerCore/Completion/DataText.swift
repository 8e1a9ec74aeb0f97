/// The text fields of the data files (names, display names, readings, emoji and their
/// names), made safe to show in one row and to insert, once, when the file is loaded.
///
/// A NUL refuses the line: no name has one, and a NUL is what a binary or damaged file
/// looks like (and what C code reading the name later would cut it at). Invisible
/// controls (`InvisibleControls`' rule: U+202E, zero-width characters, tag characters…)
/// are removed and line breaks and tabs become spaces (`InvisibleControls.cleaned`); the
/// line is kept, and the report says what was removed.
///
/// Why removed at load, rather than isolated with FSI…PDI when a completion is accepted:
/// - What a completion row shows is then exactly what accepting inserts. Isolating would
///   insert two invisible controls of our own into every mention that had one, which the
///   input then marks, and which the message carries to everyone who reads it.
/// - An isolate does not contain a line break: a name with a newline would still break
///   the message. It has to go anyway.
/// - Matching, ranking and highlighting see the name as it is read: `@tanaka` typed is
///   highlighted as the handle `tana\u{200B}ka` never could be.
/// - Two entries that differ only by invisible characters (`tanaka`, `tana\u{200B}ka`)
///   become the same name: the second is reported as a duplicate and skipped, so the
///   list never offers two people who look the same.
/// - Nothing of value is lost: a handle, a display name, a reading or a shortcode has no
///   use for a bidi override or a zero-width space, and what spells something visible (an
///   emoji's ZWJ, a subdivision flag's tags, a Persian name's ZWNJ) the rule leaves alone.
///   A display name mixing scripts of both directions loses its bidi marks, and the
///   label's own bidi algorithm orders it.
/// It costs one look at each field's scalars, on the loading thread.
enum DataText {
    /// A field that cannot be used: the line is skipped.
    struct Refusal: Error {
        let message: String
    }

    /// What cleaning changed in one field, for the line's report.
    struct Change: Equatable {
        var field: String
        var removed: [Unicode.Scalar]
        var madeSpaces: Bool

        /// `"display": removed invisible controls U+202E U+200B, line breaks made spaces`.
        var description: String {
            var parts: [String] = []
            if !removed.isEmpty {
                let shown = removed.prefix(8).map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }
                parts.append("removed invisible control\(removed.count == 1 ? "" : "s") "
                             + shown.joined(separator: " ") + (removed.count > 8 ? " …" : ""))
            }
            if madeSpaces { parts.append("line breaks and tabs made spaces") }
            return "\"\(field)\": " + parts.joined(separator: ", ")
        }
    }

    /// `value`, the text of `field`, cleaned; appends what changed to `changes`.
    static func clean(_ value: String, field: String, changes: inout [Change]) throws(Refusal) -> String {
        if value.utf8.contains(0) { throw Refusal(message: "a NUL character in \"\(field)\"") }
        let (text, removed) = InvisibleControls.cleaned(value)
        guard text != value || !removed.isEmpty else { return value }
        let madeSpaces = value.unicodeScalars.contains { InvisibleControls.isLineBreak($0) || $0 == "\t" }
        changes.append(Change(field: field, removed: removed, madeSpaces: madeSpaces))
        return text
    }

    /// One report line for a line's changes: `"name": …; "display": …`.
    static func report(_ changes: [Change]) -> String {
        changes.map(\.description).joined(separator: "; ")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
