import Foundation

/// An application we did not write that the lab drives through the same scenarios as the
/// composer (`ime-composer matrix --app NAME`): how to start it headless in a private
/// session, where its input is, what Enter does there and which scenarios apply to it.
///
/// Described by data, like an engine: a file per app (`data/lab/peers/SLUG.json`, read by
/// `PeerApp.load`); adding an app needs no Swift unless it needs a server the lab does
/// not run yet (`Server`).
public struct PeerApp: Sendable, Decodable, CustomStringConvertible {
    /// The name on the command line (`--app`) and in reports.
    public let app: String
    /// What people call it ("GNOME Text Editor").
    public let title: String
    /// The Debian package it comes from (its version goes in the report).
    public let package: String
    /// The command that starts it, the program first; `{server}` in an argument becomes the
    /// server's address (`Server.address`).
    public let command: [String]
    /// Environment for the app only.
    public let environment: [String: String]?
    /// Files written before it starts (an app's "first run is over" mark, its settings), by
    /// path: `$HOME/`, `$XDG_CONFIG_HOME/` or `$XDG_DATA_HOME/` and the rest.
    public let files: [String: String]?
    /// A command run while the app's first start is up (`{peers}`: the peers' folder;
    /// `$XDG_DATA_HOME` and the like: the session's): the app is stopped once it exits 0,
    /// then `prepare` runs and the app starts again (Dino makes its database on its first
    /// start; an account is written into it then).
    public let firstRun: [String]?
    public let prepare: [String]?
    /// Where a person's text is, for AT-SPI (`data/lab/peers/atspi-watch.py`).
    public let accessible: Accessible
    /// What Enter does with committed text and nothing composing.
    public let enter: Enter
    /// Where its sends are read (nil: `conversation`).
    public let sends: Sends?
    /// The server the app talks to, started with the session on the loopback only.
    public let server: Server?
    /// Why a scenario does not apply to this app (by `MatrixScenario` raw value): it is
    /// reported "not applicable" with this reason.
    public let notApplicable: [String: String]
    /// Cells that fail today, by `ENGINE/SCENARIO` (an engine slug, or `*` for every
    /// engine): what happens and the upstream issue it matches. Such a cell is a known
    /// failure; one that passes again fails the run, so that the file is brought up to date.
    public let knownFailures: [String: String]?
    /// What is known about the app's input (its widget, its quirks).
    public let notes: String

    public struct Accessible: Sendable, Codable, Equatable {
        /// The focused editable object with this role (and name, if not empty).
        public let input: Match
        /// The conversation: where a sent message appears (chat apps).
        public let log: Match?
    }

    public struct Match: Sendable, Codable, Equatable {
        public let role: String
        public let name: String
        /// "labels": the object's text is its labels' texts, a line each.
        public let collect: String?
        /// A message is what follows this on its line (Polari's "nick\tmessage").
        public let messageAfter: String?
        /// A line without `messageAfter` that contains this is the app's own, not a message
        /// (Polari's time lines, "20∶07" with the ratio sign).
        public let decoration: String?

        enum CodingKeys: String, CodingKey {
            case role, name, collect, decoration
            case messageAfter = "message_after"
        }
    }

    public enum Enter: String, Sendable, Decodable {
        /// A chat input: Enter sends the text (the input is emptied, the message shows).
        case sends
        /// An editor: Enter starts a new line.
        case newline
    }

    public enum Sends: String, Sendable, Decodable {
        /// In the conversation, read through AT-SPI (`accessible.log`), as a person sees it.
        case conversation
        /// At the server: what the other end of the conversation receives (the server's
        /// receiver, `PeerServer.receiver`), for an app whose conversation AT-SPI does not
        /// show reliably (Dino 0.4.2 on GTK 4.8 adds a message's label unannounced).
        case server
    }

    public enum Server: String, Sendable, Decodable {
        /// ngIRCd, an IRC server (Polari).
        case ngircd
        /// Prosody, an XMPP server (Dino).
        case prosody
    }

    public var description: String { app }

    enum CodingKeys: String, CodingKey {
        case app, title, package, command, environment, files, accessible, enter, server, notes, prepare, sends
        case notApplicable = "not_applicable", knownFailures = "known_failures", firstRun = "first_run"
    }

    /// The scenarios run against the app, in the matrix's order: the others are not
    /// applicable (`notApplicable`).
    public var scenarios: [MatrixScenario] {
        MatrixScenario.allCases.filter { notApplicable[$0.rawValue] == nil && PeerRun.scenarios.contains($0) }
    }

    /// Whether each message is read whole and alone (at the server, or after its sender on
    /// its line): an app that shows its sender and time as lines of their own is not.
    public var readsMessagesExactly: Bool { sends == .server || accessible.log?.messageAfter != nil }

    /// The known failure of `engine` × `scenario`, if any.
    public func knownFailure(engine: String, scenario: MatrixScenario) -> String? {
        knownFailures?["\(engine)/\(scenario.rawValue)"] ?? knownFailures?["*/\(scenario.rawValue)"]
    }

    /// The directory of the peers' files.
    public static var directory: URL { LabData.directory("peers") }

    /// `atspi-watch.py`, the peers' stand-in for a trace.
    public static var watcher: URL { directory.appendingPathComponent("atspi-watch.py") }

    /// Every app file in `directory`, by name. A file that cannot be read or says something
    /// wrong is an error naming the file.
    public static func load(from directory: URL = directory) throws -> [PeerApp] {
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "json" }
        } catch {
            throw HarnessError("cannot read the peers' descriptions in \(directory.path): \(error.localizedDescription)")
        }
        var apps: [PeerApp] = []
        for file in files {
            do {
                let app = try JSONDecoder().decode(PeerApp.self, from: Data(contentsOf: file))
                guard app.app + ".json" == file.lastPathComponent else {
                    throw HarnessError("it describes \"\(app.app)\": the file must be named \(app.app).json")
                }
                guard !app.command.isEmpty else { throw HarnessError("its command is empty") }
                if app.sends == .server, app.server.map(PeerServer.hasReceiver) != true {
                    throw HarnessError("sends \"server\" needs a server the lab has a receiver for (prosody)")
                }
                if app.sends == .server, app.accessible.log != nil {
                    throw HarnessError("sends \"server\" reads the sends at the server: drop accessible.log")
                }
                for key in app.notApplicable.keys where MatrixScenario(rawValue: key) == nil {
                    throw HarnessError("not_applicable names no scenario: \(key)")
                }
                for key in (app.knownFailures ?? [:]).keys {
                    let parts = key.split(separator: "/", maxSplits: 1).map(String.init)
                    guard parts.count == 2, MatrixScenario(rawValue: parts[1]) != nil else {
                        throw HarnessError("known_failures key \(key) is not ENGINE/SCENARIO")
                    }
                }
                let missing = MatrixScenario.allCases.filter { app.notApplicable[$0.rawValue] == nil && !PeerRun.scenarios.contains($0) }
                guard missing.isEmpty else {
                    throw HarnessError("the lab cannot run \(missing.map(\.rawValue).joined(separator: ", ")) against an app: "
                        + "say why it does not apply in not_applicable")
                }
                apps.append(app)
            } catch {
                throw HarnessError("\(file.path): \(error)")
            }
        }
        return apps.sorted { $0.app < $1.app }
    }

    /// The app named `name`, or an error listing the apps there are.
    public static func named(_ name: String, in directory: URL = directory) throws -> PeerApp {
        let apps = try load(from: directory)
        guard let app = apps.first(where: { $0.app == name }) else {
            throw HarnessError("--app \(name): no such app; the lab knows \(apps.map(\.app).joined(separator: ", "))")
        }
        return app
    }
}
