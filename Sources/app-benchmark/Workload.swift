import Foundation

/// What the app benchmark types, and the long draft both programs start with.
enum Workload {
    /// GTK's simple input method: letters and spaces, each one inserted and painted.
    static func simpleKeys(count: Int) -> [String] {
        let sentence = "the quick brown fox jumps over the lazy dog while we type a short chat message "
        let keys = sentence.map { $0 == " " ? "space" : String($0) }
        return (0..<count).map { keys[$0 % keys.count] }
    }

    /// ibus-anthy (hiragana): romaji that compose kana in the preedit (k → ｋ, a → か …);
    /// every other word is converted (space: anthy's kanji for it) and committed (Return),
    /// the others cancelled with Escape, so the typing commits phrases and the preedit never
    /// grows without bound. Every key, Escape included, changes the preedit or the text and
    /// so is painted. Ends with Escape or Return.
    static func anthyKeys(count: Int) -> [String] {
        let words = ["nihongo", "sakura", "kyouto", "arigatou", "tenki", "sushi", "yama", "kawa", "hana", "tomodachi"]
        var keys: [String] = []
        var index = 0
        while keys.count < count {
            let ending = index.isMultiple(of: 2) ? ["space", "Return"] : ["Escape"]
            let word = words[index % words.count].map(String.init) + ending
            index += 1
            if keys.count + word.count <= count {
                keys += word
            } else {
                // The last word, cut short: cancelled, so no composition is left open.
                let room = count - keys.count
                keys += Array(word.prefix(room - 1)) + ["Escape"]
            }
        }
        return keys
    }

    /// Sent (and painted) before the measured keys of each round, not counted: they warm
    /// the input path and leave the text as it was.
    static let simpleWarmup = ["a", "BackSpace", "a", "BackSpace"]
    static let anthyWarmup = ["a", "Escape", "a", "Escape"]

    /// Lines of a chat draft, Latin and Japanese, with mentions and channels.
    static let lines: [String] = [
        "Morning @tanaka, the release notes for #general are in the shared doc :smile:",
        "今日の打ち合わせは15時からです。資料は共有フォルダにあります。",
        "Could you check the figures on page 3 before we send them to the client?",
        "了解しました。@wada さんにも確認をお願いします。",
        "- notes: decisions and follow-ups go to #random after the meeting",
        "Thanks! I'll update the spreadsheet and ping #general when it's done.",
        "来週の予定: 月曜は在宅、火曜は大阪出張、水曜以降はオフィスにいます。",
        "The build on main is green again; the flaky test was the clock, not the parser.",
        "",
        "Next steps: 1) review the draft, 2) fix the typos, 3) send it on Friday.",
    ]

    /// A deterministic multi-line draft of at most `bytes` UTF-8 bytes (whole lines, picked
    /// by a fixed linear congruential sequence), without a final newline: the caret at its
    /// end is at the end of a line of text.
    static func draft(bytes: Int) -> String {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var text = ""
        var size = 0
        while true {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let line = lines[Int((state >> 33) % UInt64(lines.count))]
            let added = (text.isEmpty ? 0 : 1) + line.utf8.count
            guard size + added <= bytes else { break }
            if !text.isEmpty { text += "\n" }
            text += line
            size += added
        }
        return text
    }
}
