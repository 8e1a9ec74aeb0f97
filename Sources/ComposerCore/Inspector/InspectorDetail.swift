/// The detail view of a row: the text it carries, code point by code point, counted the
/// four ways people and programs count, and the raw trace line.
public enum InspectorDetail {
    /// The texts of an event worth spelling out, each with a label.
    public static func texts(of event: TraceEvent) -> [(label: String, text: String)] {
        switch event {
        case .preedit(let preedit): return [("preedit", preedit.text)]
        case .commit(let text): return [("committed", text)]
        case .edit(let edit):
            return (edit.removed.isEmpty ? [] : [("removed", edit.removed)]) + (edit.inserted.isEmpty ? [] : [("inserted", edit.inserted)])
        case .text(let snapshot): return [("text", snapshot.text)]
        case let .textLength(length, _, _): return [("length", "\(length) scalars (too long to copy on every change)")]
        case let .send(text, editsLast): return [(editsLast ? "edited" : "sent", text)]
        case let .limit(removed, _): return [("cut", removed)]
        case let .accept(_, text): return [("accepted", text)]
        case .diverged(let text): return [("buffer", text)]
        case let .exit(text, _, preedit, _): return [("text", text)] + (preedit.isEmpty ? [] : [("preedit", preedit)])
        default: return []
        }
    }

    /// `U+5B50 CJK UNIFIED IDEOGRAPH-5B50`, one line per scalar.
    public static func codePoints(_ text: String) -> [String] {
        text.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let name = scalar.properties.name ?? scalar.properties.nameAlias
            return name.map { "\(code) \($0)" } ?? code
        }
    }

    /// "2 graphemes, 2 scalars, 2 UTF-16 units, 6 bytes".
    public static func counts(_ text: String) -> String {
        "\(text.count) graphemes, \(text.unicodeScalars.count) scalars, \(text.utf16.count) UTF-16 units, \(text.utf8.count) bytes"
    }

    /// The whole detail, as plain text lines.
    public static func lines(for row: InspectorRow) -> [String] {
        var lines = ["#\(row.number) at \(row.t) ms: \(row.summary)"]
        for anomaly in row.anomalies { lines.append("⚠ \(anomaly.line)") }
        for (label, text) in texts(of: row.event) {
            lines.append("\(label): \(counts(text))")
            lines += codePoints(text).map { "  " + $0 }
        }
        if let around = row.surroundings, around.refused {
            lines.append(around.deleted == nil
                ? "not answered (--surrounding off): the input method was told there is no text around the caret"
                : "ignored (--surrounding off): “\(around.deleted ?? "")” stays")
        } else if let around = row.surroundings {
            lines.append("text around the caret: “\(around.text)”, caret \(around.caretCharacters) characters = \(around.caretBytes) UTF-8 bytes")
            if let deleted = around.deleted, let after = around.after {
                lines.append("deletes “\(deleted)”, leaving “\(after)”")
            }
        }
        if case .placement(let placement) = row.event { lines += self.lines(for: placement) }
        lines.append(row.line)
        return lines
    }

    /// Each reading of a placement on its own line, with its units, and every finding.
    static func lines(for placement: CandidatePlacement) -> [String] {
        var lines = ["given by the text view: \(placement.given) (the text view's coordinates, logical px)"]
        if let caret = placement.caret { lines.append("the caret on screen: \(caret) (device px, scale \(placement.scale))") }
        if let sent = placement.sent {
            lines.append("sent by the IM module: \(sent) (\(placement.via ?? "unknown call"))")
        } else {
            lines.append("sent by the IM module: not read (the GTK module's own protocol)")
        }
        lines.append(placement.popup.map { "candidate window: \($0)" } ?? "candidate window: none shown, or not readable here")
        let findings = placement.findings
        if findings.isEmpty, placement.sent != nil || placement.popup != nil { lines.append("at the caret") }
        for finding in findings.dropFirst() { lines.append("⚠ " + finding.explanation(placement).0) }
        return lines
    }
}
