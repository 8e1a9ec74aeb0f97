import ComposerCore
import Foundation

/// What every engine must do, whatever it composes: the judge of an engine the lab has no
/// expectations for (`ime-composer matrix --engine ibus:NAME`), checked on a cell's trace.
///
/// - Enter while composing never sends the message.
/// - What is shown after a commit is what was committed: each commit's text is inserted by
///   exactly one input-method edit, as it came (no commit lost, altered or applied twice).
/// - A composition never vanishes without an event that explains it (a key, a commit, a
///   focus change, a click, the input method leaving).
/// - The hard limit never cuts while a composition is on screen.
public enum MatrixInvariants {
    /// Each broken invariant in `lines` (a cell's trace from its first line), one sentence
    /// each; empty when all hold.
    public static func violations<Lines: Collection>(in lines: Lines) -> [String] where Lines.Element == JSONValue {
        var problems: [String] = []
        var preedit = ""
        // A composition may flicker while an engine answers keys (m17n hides its preedit and
        // shows it again, IBus answers a key after the next one arrived): what counts is the
        // input settled. When it settles with nothing composing after a composition showed
        // since the last settle, something since then must explain it.
        var shownSinceSettle = ""
        var explainedSinceSettle = false
        var enterWhileComposing: Int?
        var commits: [String] = []
        var inserted: [String] = []
        func settled(at number: Int) {
            if preedit.isEmpty, !shownSinceSettle.isEmpty, !explainedSinceSettle {
                problems.append("the composition \(quoted(shownSinceSettle)) vanished with nothing to explain it "
                    + "(no key, commit, focus change or click before line \(number + 1))")
            }
            shownSinceSettle = preedit
            explainedSinceSettle = false
        }
        for (number, line) in lines.enumerated() {
            let name = line["ev"]?.stringValue ?? ""
            switch name {
            case "preedit":
                preedit = line["text"]?.stringValue ?? ""
                if !preedit.isEmpty { shownSinceSettle = preedit }
            case "preedit-end":
                preedit = ""
            case "settle":
                settled(at: number)
            case "key":
                explainedSinceSettle = true
                enterWhileComposing = nil
                if ["Return", "KP_Enter"].contains(line["keyval"]?.stringValue ?? ""), !preedit.isEmpty {
                    enterWhileComposing = number
                }
            case "commit":
                explainedSinceSettle = true
                if let text = line["text"]?.stringValue, !text.isEmpty { commits.append(text) }
            case "focus", "selection", "input-method-lost", "command":
                explainedSinceSettle = true
            case "edit":
                if line["origin"]?.stringValue == "im-commit", let text = line["inserted"]?.stringValue, !text.isEmpty {
                    inserted.append(text)
                }
            case "send":
                if let enter = enterWhileComposing {
                    problems.append("Enter while composing sent \(quoted(line["text"]?.stringValue ?? "")) "
                        + "(the key at line \(enter + 1), the send at line \(number + 1))")
                    enterWhileComposing = nil
                }
            case "limit":
                if !preedit.isEmpty {
                    problems.append("the hard limit cut \(quoted(line["removed"]?.stringValue ?? "")) while "
                        + "\(quoted(preedit)) was composing (line \(number + 1))")
                }
            default:
                break
            }
        }
        settled(at: lines.count)
        if commits != inserted {
            problems.append("the engine committed \(commits.map(quoted).joined(separator: ", ")) but the text received "
                + (inserted.isEmpty ? "nothing" : inserted.map(quoted).joined(separator: ", ")))
        }
        return problems
    }

    static func quoted(_ s: String) -> String { "\u{201C}\(s)\u{201D}" }
}
