import Foundation

/// Whether the input method has answered every key an app passed it, read from the input
/// method's own bus: another app has no trace to say when a composition is complete, and
/// its keys reach the engine asynchronously (IBus 1.5.27's GTK 4 module, Fcitx5's batches).
/// A scenario that types a composition and then moves the focus or clicks waits on this
/// first; before, focus out in GNOME Text Editor × ibus-hangul once committed "ㅎ" where
/// the keys composed 한: the engine had answered one key of three.
///
/// `dbus-monitor` watches the key calls of the app's input context and their replies:
/// IBus's `org.freedesktop.IBus.InputContext.ProcessKeyEvent` on ibus-daemon's own bus (it
/// has no BecomeMonitor: dbus-monitor eavesdrops), Fcitx5's
/// `org.fcitx.Fcitx.InputContext1.ProcessKeyEvent(Batch)` on the session bus (its batch's
/// reply carries the preedit it changed). GTK's simple context answers in the app itself,
/// in order: there is nothing to wait for.
public final class KeyAnswers: @unchecked Sendable {
    let monitor: AppProcess
    let interface: String

    /// A monitor for `kind`'s bus in `session`, or nil for GTK's simple context.
    public static func start(_ kind: InputMethodKind, in session: TestSession) throws -> KeyAnswers? {
        let address: String
        let interface: String
        let members: [String]
        switch kind.framework {
        case .ibus:
            address = try session.runChecked("ibus", ["address"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            interface = "org.freedesktop.IBus.InputContext"
            members = ["ProcessKeyEvent"]
        case .fcitx5:
            guard let bus = session.environment["DBUS_SESSION_BUS_ADDRESS"] else {
                throw HarnessError("the session has no D-Bus session bus for fcitx5")
            }
            address = bus
            interface = "org.fcitx.Fcitx.InputContext1"
            members = ["ProcessKeyEvent", "ProcessKeyEventBatch"]
        default:
            return nil
        }
        let rules = members.map { "type='method_call',interface='\(interface)',member='\($0)'" } + ["type='method_return'"]
        // Line-buffered: dbus-monitor writes to a file here, which stdio would buffer whole.
        let monitor = try session.launch("dbus-monitor-keys", executable: "stdbuf",
                                         arguments: ["-oL", "dbus-monitor", "--address", address] + rules)
        return KeyAnswers(monitor: monitor, interface: interface)
    }

    init(monitor: AppProcess, interface: String) {
        self.monitor = monitor
        self.interface = interface
    }

    /// The key calls seen from a mark on: how many, how many were presses (a key's press
    /// and its release are a call each, and a module may not pass every release or
    /// modifier), and which are still waiting for their answer.
    public struct Calls: Equatable, Sendable {
        public var count = 0
        public var presses = 0
        public var unanswered: [Int] = []
        /// The keyvals of the releases passed, in order.
        public var releasedKeyvals: [UInt32] = []

        public init(count: Int = 0, presses: Int = 0, unanswered: [Int] = [], releasedKeyvals: [UInt32] = []) {
            self.count = count
            self.presses = presses
            self.unanswered = unanswered
            self.releasedKeyvals = releasedKeyvals
        }
    }

    /// Parses dbus-monitor's output: a key call is a header `method call … sender=S -> …
    /// serial=N …; interface=I; member=ProcessKeyEvent…` and its arguments, indented (IBus:
    /// keyval, keycode, state — a release has bit 30, IBUS_RELEASE_MASK; Fcitx5: keyval,
    /// keycode, state, `boolean true` for a release, time); its answer is `method return …
    /// destination=S serial=… reply_serial=N`. Calls are counted from `from` on.
    public static func calls(in output: String, interface: String, from: Int = 0) -> Calls {
        var pending: [String: Int] = [:]  // "sender serial" → call index
        var releases: [Bool] = []
        var keyvals: [UInt32] = []
        var arguments: [String]? = nil  // the current key call's argument lines
        func close() {
            guard let lines = arguments else { return }
            let uints = lines.compactMap { line -> UInt32? in
                let parts = line.split(separator: " ")
                return parts.count == 2 && parts[0] == "uint32" ? UInt32(parts[1]) : nil
            }
            let ibusRelease = interface.contains("IBus") && uints.count >= 3 && uints[2] & (1 << 30) != 0
            let fcitxRelease = lines.contains { $0.split(separator: " ").map(String.init) == ["boolean", "true"] }
            releases.append(ibusRelease || fcitxRelease)
            keyvals.append(uints.first ?? 0)
            arguments = nil
        }
        for line in output.split(separator: "\n") {
            if line.hasPrefix(" ") {
                arguments?.append(line.trimmingCharacters(in: .whitespaces))
                continue
            }
            close()
            let fields = Dictionary(line.split(separator: " ").compactMap { part -> (String, String)? in
                let pair = part.split(separator: "=", maxSplits: 1)
                return pair.count == 2 ? (String(pair[0]), String(pair[1]).trimmingCharacters(in: CharacterSet(charactersIn: ";"))) : nil
            }, uniquingKeysWith: { first, _ in first })
            if line.hasPrefix("method call"), fields["interface"] == interface, fields["member"]?.hasPrefix("ProcessKeyEvent") == true,
               let sender = fields["sender"], let serial = fields["serial"] {
                pending["\(sender) \(serial)"] = releases.count
                arguments = []
            } else if line.hasPrefix("method return"), let destination = fields["destination"], let reply = fields["reply_serial"] {
                pending.removeValue(forKey: "\(destination) \(reply)")
            }
        }
        close()
        let counted = releases.count > from ? Array(releases[from...]) : []
        let released = releases.indices.filter { $0 >= from && releases[$0] }.map { keyvals[$0] }
        return Calls(count: counted.count, presses: counted.filter { !$0 }.count,
                     unanswered: pending.values.filter { $0 >= from }.sorted(), releasedKeyvals: released)
    }

    /// The key calls seen so far (a mark for `waitUntilAnswered(since:keys:)`).
    public var mark: Int { Self.calls(in: monitor.stdout, interface: interface).count }


    /// Waits until the monitor is in place: it has seen a key call (the session's engine
    /// probe typed some) — IBus's eavesdropping says nothing when its rule is set.
    public func waitUntilWatching(timeout: Duration = .seconds(10)) throws {
        try Wait.until("dbus-monitor to see the input method's key calls", timeout: timeout,
                       diagnostics: { "stdout:\n\(self.monitor.stdout.suffix(2000))\n" + self.monitor.diagnostics() },
                       failFast: { if !self.monitor.isRunning { throw HarnessError("dbus-monitor exited\n" + self.monitor.diagnostics()) } }) {
            self.mark > 0
        }
    }

    /// The X keysym of an xdotool key name the lab types (a letter or digit, or a named
    /// key), or nil.
    public static func keyval(_ key: String) -> UInt32? {
        let named: [String: UInt32] = ["End": 0xff57, "Return": 0xff0d, "space": 0x20, "BackSpace": 0xff08, "Escape": 0xff1b]
        if let value = named[key] { return value }
        guard key.unicodeScalars.count == 1, let scalar = key.unicodeScalars.first, scalar.isASCII else { return nil }
        return scalar.value
    }

    /// Waits until the keys typed since `mark` were all passed on and answered: the release
    /// of `last` (the last key typed; its press came before it) was passed after `mark`,
    /// and none of the calls since is waiting for its answer. (Counting calls was not
    /// enough: after g's press and release and k's press, Polari × ibus-hangul's focus out
    /// committed 하 where g k s compose 한; nor presses: Polari's entry keeps Control+End's
    /// End press from the input method and passes its release.)
    public func waitUntilAnswered(since mark: Int, last: String, timeout: Duration = .seconds(20)) throws {
        let key = last.split(separator: "+").last.map(String.init) ?? last
        guard let keyval = Self.keyval(key) else { throw HarnessError("KeyAnswers: no keysym known for \(last)") }
        try Wait.until("the input method to answer the keys up to \(last)'s release", timeout: timeout,
                       diagnostics: { "calls: \(Self.calls(in: self.monitor.stdout, interface: self.interface, from: mark))\n"
                           + "stdout:\n\(self.monitor.stdout.suffix(3000))" }) {
            let calls = Self.calls(in: self.monitor.stdout, interface: self.interface, from: mark)
            return calls.releasedKeyvals.contains(keyval) && calls.unanswered.isEmpty
        }
    }

    /// Waits until every key call seen so far has its answer.
    public func waitUntilNothingPending(timeout: Duration = .seconds(20)) throws {
        try Wait.until("the input method to answer every key call", timeout: timeout,
                       diagnostics: { "calls: \(Self.calls(in: self.monitor.stdout, interface: self.interface))" }) {
            Self.calls(in: self.monitor.stdout, interface: self.interface).unanswered.isEmpty
        }
    }

    public func stop() { monitor.terminate(signal: SIGTERM) }
}
