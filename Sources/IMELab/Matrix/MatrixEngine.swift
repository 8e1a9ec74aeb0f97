import Foundation

/// One engine of the input-method matrix and what it is expected to do, written down from
/// the engines' documented behaviour (and their sources where it is not documented). The
/// engines differ: which key commits, what Enter commits while composing, what they do with
/// a composition when focus leaves or a click moves the caret.
///
/// The expectations are data, a file per engine (`data/lab/engines/SLUG.json`, read by
/// `MatrixEngine.load`): adding an engine's expectations needs no Swift.
public struct MatrixEngine: Sendable, CustomStringConvertible, Decodable {
    public let kind: InputMethodKind
    /// The Debian package that provides the engine (its version goes in the report).
    public let package: String
    /// Keys that leave a composition on screen, and a part of what it then shows.
    public let compose: [String]
    public let showing: String
    /// The engine's usual commit key(s) after `compose`, and everything compose and commit
    /// insert together (an engine may commit a first part before the composition starts).
    public let commitKeys: [String]
    public let committed: String
    /// Everything `compose` then Enter inserts (Enter while composing only commits).
    public let enterCommits: String
    /// What the composition shows after one BackSpace inside it.
    public let afterBackSpace: String
    /// The keys that type a word to mention (no trailing space: the query must stay open),
    /// and the word.
    public let wordKeys: [String]
    public let word: String
    /// What the engine does with its composition when focus leaves; and what a click in the
    /// text mid-composition leaves. The composer finishes the composition before the text
    /// view takes the press (and resets the input method), the way focus loss does, and
    /// keeps what was drawn when the engine lets go of it then: so a click commits the
    /// focus-out commit, or else what was drawn.
    public let focusOut: Ending
    public let click: Ending
    /// The text before the composition in the hard-limit scenario (limit 3), when the
    /// default (`MatrixScenario.filler`) would not show what matters for the engine.
    public let hardLimitFiller: String?
    /// Why the engine behaves as it does (the file's "notes").
    public let notes: String
    /// GSettings the session sets before the app starts (an IBus engine's own settings, on
    /// top of the lab's: `IBus.configureEngines`), to run the engine as configured so.
    public let gsettings: [GSetting]

    /// One `gsettings set SCHEMA KEY VALUE` (VALUE in GVariant text: `true`, `'2'`).
    public struct GSetting: Sendable, Decodable, Equatable {
        public let schema: String
        public let key: String
        public let value: String
    }
    /// What the Wayland scenarios need on top (engines on the Wayland path only).
    public let wayland: WaylandExpectations?

    public var description: String { kind.slug }

    /// The keys an engine the lab has no expectations for is typed with, judged by the
    /// invariants every engine keeps (`InvariantRun`); nil for an engine with a file.
    public let invariantKeys: [String]?

    /// The keys `invariantKeys` defaults to: a word most engines compose (romaji かな,
    /// ITRANS कना, pinyin, Hangul 2-set ㅏ무ㅏ).
    public static let defaultInvariantKeys = ["k", "a", "n", "a"]

    /// An engine with no expectations (`ime-composer matrix --engine ibus:NAME`): typed with
    /// `keys` and judged by invariants.
    public static func judgedByInvariants(_ kind: InputMethodKind, keys: [String] = defaultInvariantKeys,
                                          package: String) -> MatrixEngine {
        MatrixEngine(kind: kind, package: package, keys: keys)
    }

    private init(kind: InputMethodKind, package: String, keys: [String]) {
        self.kind = kind
        self.package = package
        invariantKeys = keys
        compose = keys
        showing = ""
        commitKeys = ["Return"]
        committed = ""
        enterCommits = ""
        afterBackSpace = ""
        wordKeys = keys
        word = ""
        focusOut = .drops
        click = .drops
        hardLimitFiller = "ab"
        notes = "No expectations: judged by the invariants every engine keeps."
        gsettings = []
        wayland = nil
    }

    public enum Ending: Sendable, CustomStringConvertible, Decodable, Equatable {
        /// It commits what it showed.
        case commits(String)
        /// It commits what it showed, but later (fcitx5: over D-Bus, after the text view
        /// moved the caret to where the click was): it lands there.
        case commitsWhereClicked(String)
        /// It drops it: the committed text stays as it was.
        case drops
        /// The input method keeps composing (GTK's simple context has no focus-out): Enter
        /// confirms it (commits `String`) when focus is back.
        case keeps(String)

        /// Whether the input method keeps composing (`keeps`).
        public var isKeeps: Bool { if case .keeps = self { true } else { false } }

        public var description: String {
            switch self {
            case .commits(let text): "commits \(text)"
            case .commitsWhereClicked(let text): "commits \(text) where the click put the caret"
            case .drops: "drops it"
            case .keeps(let text): "keeps composing (Enter confirms \(text))"
            }
        }

        /// `"drops"`, or an object with one of `commits`, `commits_where_clicked`, `keeps`.
        public init(from decoder: Decoder) throws {
            if let word = try? decoder.singleValueContainer().decode(String.self) {
                guard word == "drops" else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                        debugDescription: "\"\(word)\": an ending is \"drops\" or {\"commits\"|\"commits_where_clicked\"|\"keeps\": TEXT}"))
                }
                self = .drops
                return
            }
            let container = try decoder.container(keyedBy: Key.self)
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "an ending has exactly one of commits, commits_where_clicked, keeps"))
            }
            let text = try container.decode(String.self, forKey: key)
            switch key {
            case .commits: self = .commits(text)
            case .commitsWhereClicked: self = .commitsWhereClicked(text)
            case .keeps: self = .keeps(text)
            }
        }

        private enum Key: String, CodingKey {
            case commits, commitsWhereClicked = "commits_where_clicked", keeps
        }
    }

    /// The Wayland path's own expectations.
    public struct WaylandExpectations: Sendable, Decodable {
        /// The fcitx5 input method (`Fcitx5.InputMethod`'s raw value).
        public let inputMethod: Fcitx5.InputMethod
        /// Keys that turn the composition into something else before it is committed
        /// (anthy's Space converts), and what the composition then shows.
        public let convert: Convert?
        /// The hard-limit scenario (text "ab", limit 3): the keys, what the composition shows
        /// while over the limit, the commit keys, what is kept and what is cut.
        public let hardLimit: HardLimit
        /// Scenarios that fail today for a known reason, with the reason: the matrix shows
        /// them as failed, and the suite expects the failure (it fails once it is gone).
        public let knownFailures: [String: String]?
        /// Scenarios that fail some of the time for a known reason outside the composer (a
        /// race between the compositor and the input method), with the reason: a failure is
        /// shown as known, a pass as passed with a word that the failure did not happen.
        public let intermittentFailures: [String: String]?

        public struct Convert: Sendable, Decodable {
            public let keys: [String]
            public let showing: String
        }

        public struct HardLimit: Sendable, Decodable {
            public let compose: [String]
            public let showing: String
            public let commitKeys: [String]
            public let kept: String
            public let cut: String

            enum CodingKeys: String, CodingKey {
                case compose, showing, commitKeys = "commit_keys", kept, cut
            }
        }

        enum CodingKeys: String, CodingKey {
            case inputMethod = "input_method", convert, hardLimit = "hard_limit", knownFailures = "known_failures"
            case intermittentFailures = "intermittent_failures"
        }
    }

    /// An engine file's `probe`: a key that shows a preedit containing `preedit` (any when
    /// empty) and the key that ends it.
    private struct ProbeFields: Decodable {
        let key: String
        let preedit: String
        let cancel: String
    }

    enum CodingKeys: String, CodingKey {
        case framework, engineName = "engine_name", probe, unprivileged
        case kind = "engine", package, compose, showing, commitKeys = "commit_keys", committed, enterCommits = "enter_commits"
        case afterBackSpace = "after_backspace", wordKeys = "word_keys", word, focusOut = "focus_out", click
        case hardLimitFiller = "hard_limit_filler", notes, wayland, gsettings
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let slug = try container.decode(String.self, forKey: .kind)
        if let kind = InputMethodKind(slug: slug) {
            self.kind = kind
        } else {
            // An engine the lab has no Swift for: the file says how to get it.
            guard let framework = try container.decodeIfPresent(String.self, forKey: .framework) else {
                throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription:
                    "\"\(slug)\" is none of the lab's engines (\(InputMethodKind.allCases.map(\.slug).joined(separator: ", "))): "
                    + "say its \"framework\" (ibus or fcitx5), \"engine_name\" and \"probe\"")
            }
            let name = try container.decode(String.self, forKey: .engineName)
            let probe = try container.decode(ProbeFields.self, forKey: .probe)
            let unprivileged = try container.decodeIfPresent(Bool.self, forKey: .unprivileged) ?? false
            let known = InputMethodKind.Probe(key: probe.key, preedit: probe.preedit, cancelKey: probe.cancel)
            switch framework {
            case "ibus":
                kind = InputMethodKind(slug: slug, framework: .ibus, engineName: name,
                                       ibusComponent: IBus.component(providing: name), probe: known,
                                       runsUnprivileged: unprivileged)
            case "fcitx5":
                kind = InputMethodKind(slug: slug, framework: .fcitx5, engineName: name, probe: known,
                                       runsUnprivileged: unprivileged)
            default:
                throw DecodingError.dataCorruptedError(forKey: .framework, in: container, debugDescription:
                    "\"\(framework)\": the framework of an engine file is ibus or fcitx5")
            }
        }
        package = try container.decode(String.self, forKey: .package)
        compose = try container.decode([String].self, forKey: .compose)
        showing = try container.decode(String.self, forKey: .showing)
        commitKeys = try container.decode([String].self, forKey: .commitKeys)
        committed = try container.decode(String.self, forKey: .committed)
        enterCommits = try container.decode(String.self, forKey: .enterCommits)
        afterBackSpace = try container.decode(String.self, forKey: .afterBackSpace)
        wordKeys = try container.decode([String].self, forKey: .wordKeys)
        word = try container.decode(String.self, forKey: .word)
        focusOut = try container.decode(Ending.self, forKey: .focusOut)
        click = try container.decode(Ending.self, forKey: .click)
        hardLimitFiller = try container.decodeIfPresent(String.self, forKey: .hardLimitFiller)
        notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
        wayland = try container.decodeIfPresent(WaylandExpectations.self, forKey: .wayland)
        gsettings = try container.decodeIfPresent([GSetting].self, forKey: .gsettings) ?? []
        invariantKeys = nil
        for (name, keys) in [("compose", compose), ("commit_keys", commitKeys), ("word_keys", wordKeys)] where keys.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .compose, in: container, debugDescription: "\(name) is empty")
        }
        if let wayland, kind.gtkIMModule != "wayland"
            || (Array((wayland.knownFailures ?? [:]).keys) + Array((wayland.intermittentFailures ?? [:]).keys)).contains(where: { MatrixScenario(rawValue: $0) == nil }) {
            throw DecodingError.dataCorruptedError(forKey: .wayland, in: container, debugDescription:
                "a \"wayland\" section belongs to a wayland-… or kde-… engine, and its known_failures and intermittent_failures name scenarios (\(MatrixScenario.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
    }

    /// The directory of engine files, first match wins: `$IME_LAB_ENGINES`; an installed
    /// copy (`<executable dir>/../share/ime-composer/lab/engines`); the source tree's
    /// `data/lab/engines` (from this file's path at build time: tests, `swift run`).
    public static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["IME_LAB_ENGINES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return LabData.directory("engines")
    }

    /// Every engine file in `directory` (`*.json`), in the matrix's order (`InputMethodKind`'s).
    /// A file that cannot be read or says something wrong is an error naming the file.
    public static func load(from directory: URL = directory) throws -> [MatrixEngine] {
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }
        } catch {
            throw HarnessError("cannot read the engine expectations in \(directory.path): \(error.localizedDescription)")
        }
        var engines: [MatrixEngine] = []
        let decoder = JSONDecoder()
        for file in files {
            do {
                let engine = try decoder.decode(MatrixEngine.self, from: Data(contentsOf: file))
                guard file.deletingPathExtension().lastPathComponent == engine.kind.slug else {
                    throw HarnessError("it describes \(engine.kind.slug): name it \(engine.kind.slug).json")
                }
                engines.append(engine)
            } catch let error as DecodingError {
                throw HarnessError("\(file.path): \(Self.explain(error))")
            } catch {
                throw HarnessError("\(file.path): \(error)")
            }
        }
        let order = Dictionary(uniqueKeysWithValues: InputMethodKind.allCases.enumerated().map { ($1.slug, $0) })
        return engines.sorted { (order[$0.kind.slug] ?? .max, $0.kind.slug) < (order[$1.kind.slug] ?? .max, $1.kind.slug) }
    }

    private static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "" : context.codingPath.map(\.stringValue).joined(separator: ".") + ": "
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context))missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return path(context) + context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    /// The backend its session runs the app on.
    public var backend: MatrixBackend {
        guard wayland != nil else { return .x11 }
        switch kind.framework {
        case .kdeFcitx5: return .kde
        case .gnomeIBus: return .gnome
        default: return .wayland
        }
    }
}

/// Where the app runs in an engine's session: Xvfb with GTK's X11 backend, headless sway
/// with GTK's Wayland backend, or headless KWin (KDE Plasma's compositor) with it.
public enum MatrixBackend: String, Sendable, Codable, CaseIterable {
    case x11, wayland, kde, gnome

    /// The Wayland desktop of a `wayland` or `kde` session.
    public var desktop: WaylandIMSession.Desktop? {
        switch self {
        case .x11: nil
        case .wayland: .sway
        case .kde: .kde
        case .gnome: .gnome
        }
    }
}

extension InputMethodKind {
    /// The GTK IM module its session sets (`GTK_IM_MODULE`), as the app's start line says it.
    public var imModule: String { gtkIMModule }

    /// The kind called `slug` (`InputMethodKind.slug`), if any.
    public init?(slug: String) {
        guard let kind = Self.allCases.first(where: { $0.slug == slug }) else { return nil }
        self = kind
    }
}
