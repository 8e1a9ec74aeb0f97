/// What the benchmark types into what: a deterministic draft of a given size and the
/// committed keystrokes typed at its end.
enum Workload {
    /// Lines of a realistic chat draft: Latin and Japanese, with known @mentions, #channels
    /// and :shortcodes: (all in `data/`), so highlighting has real tokens to keep.
    static let lines: [String] = [
        "Morning @tanaka, the release notes for #general are in the shared doc :smile:",
        "今日の打ち合わせは15時からです。資料は共有フォルダにあります。",
        "Could you check the figures on page 3 before we send them to the client?",
        "了解しました。@wada.nanami さんにも確認をお願いします。",
        "- 議事録: 決定事項と宿題を整理して #random に貼ります",
        "Thanks! I'll update the spreadsheet and ping #general when it's done :+1:",
        "来週の予定: 月曜は在宅、火曜は大阪出張、水曜以降はオフィスにいます。",
        "@tanaka.mayumi the build on main is green again, the flaky test was the clock.",
        "ご指摘ありがとうございます。表現を少し柔らかくしました。",
        "",
        "Next steps: 1) review the draft, 2) fix the typos, 3) send it on Friday.",
        "お疲れさまです :smile: 明日もよろしくお願いします。",
    ]

    /// The draft's last line, where the caret is: typing goes on a short paragraph.
    static let lastLine = "P.S."

    /// A draft of exactly `bytes` UTF-8 bytes (when `bytes` ≥ the last line and a little):
    /// `lines` repeated, then a separator line of dashes padding to the size, then
    /// `lastLine`.
    static func draft(bytes: Int) -> String {
        let tail = "\n" + lastLine
        var text = ""
        var size = 0
        var index = 0
        // Leave room for the separator line ("\n" + at least one dash) and the tail.
        let budget = bytes - tail.utf8.count - 2
        while true {
            let line = lines[index % lines.count]
            let added = (text.isEmpty ? 0 : 1) + line.utf8.count
            guard size + added <= budget else { break }
            if !text.isEmpty { text += "\n" }
            text += line
            size += added
            index += 1
        }
        let padding = max(1, bytes - size - tail.utf8.count - (text.isEmpty ? 0 : 1))
        if !text.isEmpty { text += "\n" }
        text += String(repeating: "-", count: padding)
        return text + tail
    }

    /// The committed keystrokes, each what one input method "commit" inserts: letters,
    /// spaces, an `@tanaka` mention (completion opens on `@` and narrows as it is typed),
    /// kana one by one and a converted phrase or two, a `#gen` channel, a `:smile:`.
    static let keys: [String] = [
        " ", "T", "h", "a", "n", "k", "s", " ", "@", "t", "a", "n", "a", "k", "a", " ",
        "の", "資料", "を", "見", "ま", "し", "た", "。", " ",
        "#", "g", "e", "n", " ", "に", "共", "有", "し", "ま", "す", " ",
        "o", "k", " ", ":", "s", "m", "i", "l", "e", ":", " ",
        "きょうは", "あ", "り", "が", "と", "う",
    ]

    /// After these many keys completion must be open (the `@tan` of `@tanaka`).
    static let completionOpenAfter = 12
}

extension Workload {
    /// The trigger of keystroke `index`'s callgrind dump ("Client Request: keystroke 7").
    static func dumpReason(_ index: Int) -> String { "keystroke \(index)" }

    /// The keystroke index a dump's trigger names, or nil for other dumps (program end).
    static func keystrokeIndex(trigger: String) -> Int? {
        guard let range = trigger.range(of: "keystroke ", options: .backwards) else { return nil }
        return Int(trigger[range.upperBound...].trimmingCharacters(in: .whitespaces))
    }
}

/// What a committed keystroke asks of the composer. Typing is most keystrokes and must cost
/// little; a keystroke with completion open also searches the index and updates the list's
/// rows, which is the feature's work and is reported on its own.
enum KeyKind: String, Codable, CaseIterable {
    /// Latin letters, digits, spaces and punctuation, completion closed before and after.
    case latin
    /// Kana and converted phrases (what an input method commits), completion closed.
    case cjk
    /// Completion open before or after the keystroke: it opened, narrowed or closed the list.
    case completion

    static func of(_ key: String, completionOpenBefore: Bool, after: Bool) -> KeyKind {
        if completionOpenBefore || after { return .completion }
        return key.unicodeScalars.allSatisfy(\.isASCII) ? .latin : .cjk
    }

    var label: String {
        switch self {
        case .latin: "Latin letters, spaces, punctuation"
        case .cjk: "Kana and converted phrases"
        case .completion: "Completion open or closing (`@tanaka`, `#gen`, `:smile:`)"
        }
    }
}

extension KeyKind {
    /// For table headers.
    var shortLabel: String {
        switch self {
        case .latin: "Latin"
        case .cjk: "kana"
        case .completion: "completion"
        }
    }
}
