import Foundation
import ComposerCore
import ComposerStore
import GtkBinding

/// The app's words, translated. Every user-facing string of the window goes through `tr`
/// or `trn` (xgettext finds them by those names: po/meson.build), and only the app says
/// anything: the core decides what happened (`LimitHint`, `TypingIndicator`), the app
/// phrases it here.
enum Localization {
    static let domain = "ime-composer"

    /// Where the catalogs are: `IME_COMPOSER_LOCALEDIR` (`make run` and the tests point it
    /// at meson's build directory), else `share/locale` next to the installed binary's
    /// `bin`, else the system's.
    static var directory: String {
        let environment = ProcessInfo.processInfo.environment
        if let dir = environment["IME_COMPOSER_LOCALEDIR"], !dir.isEmpty { return dir }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/locale", isDirectory: true)
        if FileManager.default.fileExists(atPath: installed.path) { return installed.path }
        return "/usr/share/locale"
    }

    /// Binds the domain (before any window is built: `ComposerApplication.run`).
    static func setUp() {
        Gettext.bind(domain: domain, directory: directory)
    }
}

/// The translation of `message`.
func tr(_ message: String) -> String { Gettext.text(message, domain: Localization.domain) }

/// The translation of the form `count` takes; `%d` in it is replaced by `count`, `%2$d` and
/// on by `more` (positional, so that a translation may reorder them).
func trn(_ singular: String, _ plural: String, _ count: Int, _ more: Int...) -> String {
    integerFormat(Gettext.text(singular, plural, count: count, domain: Localization.domain), [count] + more)
}

/// `format` with its `%d` (in order) and `%N$d` (the Nth) replaced by `values` and `%%` by
/// `%`; anything else is kept as it is. Foundation's `String(format:)` does the same for
/// ten times the instructions: too much for the counter's words.
func integerFormat(_ format: String, _ values: [Int]) -> String {
    var result = "", next = 0
    var scalars = format.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
        guard scalar == "%" else { result.unicodeScalars.append(scalar); continue }
        if scalars.first == "%" { scalars.removeFirst(); result += "%"; continue }
        let digits = scalars.prefix { ("0"..."9").contains($0) }
        var rest = scalars.dropFirst(digits.count)
        var index = next
        if !digits.isEmpty, rest.first == "$", let n = Int(String(String.UnicodeScalarView(digits))) {
            index = n - 1
            rest = rest.dropFirst()
        } else if !digits.isEmpty {
            result += "%"; continue
        }
        guard rest.first == "d", values.indices.contains(index) else { result += "%"; continue }
        result += String(values[index])
        if digits.isEmpty { next += 1 }
        scalars = rest.dropFirst()
    }
    return result
}

extension TypingIndicator {
    /// "田中 太郎 is typing…", in the person's language.
    var text: String {
        switch self {
        // TRANSLATORS: a colleague's display name.
        case .one(let name): String(format: tr("%@ is typing…"), name)
        case let .two(first, second): String(format: tr("%1$@ and %2$@ are typing…"), first, second)
        case .several: tr("Several people are typing…")
        }
    }
}

extension StoreNotice {
    /// What the window shows of the store's notice, in the person's language (stderr keeps
    /// `description`, in English, for bug reports).
    var text: String {
        switch self {
        case let .movedAside(path, movedTo, reason):
            String(format: tr("The saved draft and messages in %1$@ could not be read (%2$@). The file was moved to %3$@ and a new one was started."),
                   path, reason, movedTo)
        case let .cannotSave(path, reason):
            String(format: tr("Your draft cannot be saved to %1$@ (%2$@). Typing goes on; it is saved as soon as it can be."),
                   path, reason)
        }
    }
}
