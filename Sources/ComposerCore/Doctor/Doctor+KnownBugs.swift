/// Bugs of the installed input method releases that no setting avoids: the doctor names them
/// (with the release that fixes them) so that a person who sees them knows it is not their
/// setup, and what would help. Each is checked against the real stack by
/// `KnownBugEndToEndTests` and described in the README's quirks.
extension Doctor {
    static func knownBugFindings(_ c: Context) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        // ibus/ibus#2522: IBus's GTK 4 module (before 1.5.29) sends, on X11, the caret's
        // position inside the text widget without the window's position, and the window's
        // height as the caret's: the candidate window opens below or above the whole window.
        // The module belongs to the client, so fcitx5's IBus frontend does not help.
        if c.choice.module == InputFramework.ibus.moduleName, c.backend != .wayland,
           let version = c.facts.ibusVersion, Self.release(version, isBefore: [1, 5, 29]) {
            findings.append(DoctorFinding(
                "ibus-candidate-window-position", .info, .module,
                "GTK 4's ibus module from IBus \(version) tells the input method a wrong caret position on X11 "
                    + "(ibus/ibus#2522, fixed in IBus 1.5.29): candidate windows open below or above the window, "
                    + "not at the caret; typing itself is not affected",
                fix: "Update IBus to 1.5.29 or later, or use fcitx5 with its GTK 4 module (fcitx5-frontend-gtk4, "
                    + "GTK_IM_MODULE=fcitx), which places them at the caret."))
        }
        return findings
    }

    /// Whether a dotted release ("1.5.27", "1.5.28.1") comes before `fixed`; an unreadable
    /// one is not judged (false).
    static func release(_ version: String, isBefore fixed: [Int]) -> Bool {
        let parts = version.split(separator: ".").map { part in Int(part.prefix { $0.isASCII && $0.isNumber }) }
        guard let first = parts.first, first != nil else { return false }
        let numbers = parts.map { $0 ?? 0 }
        for (index, fixedPart) in fixed.enumerated() {
            let part = index < numbers.count ? numbers[index] : 0
            if part != fixedPart { return part < fixedPart }
        }
        return false
    }
}
