import Foundation
import Testing
import TestHarness

/// What a screen reader gets, read through AT-SPI (python3-pyatspi, `Tests/Drivers/atspi_probe.py`)
/// from the real app in its Xvfb session (issue #17, item 4): every control has a real name
/// and the right role, and the counter, the over-limit hint and the completion selection
/// reach the accessibility bus when they change.
///
/// GTK 4.8 sends an object's events only once a client has read it, and says nothing when
/// a hidden widget appears: the probe reads the window first, as a screen reader does, and
/// what appears later (the hint, the list) is told through the input, which keeps the focus.
@Suite(.serialized)
struct AccessibilityEndToEndTests {
    static let probe = ComposerBinary.packageRoot.appendingPathComponent("Tests/Drivers/atspi_probe.py").path
    /// The app reaches the accessibility bus (the session's bus activates at-spi-bus-launcher):
    /// GTK 4 reads GTK_A11Y (not NO_AT_BRIDGE, which the harness sets for GTK 3's bridge).
    static let accessibilityOn = ["GTK_A11Y": "atspi", "NO_AT_BRIDGE": "0"]

    /// Controls: each must have a real name. Containers (panels, scroll panes' fillers) may
    /// be unnamed.
    static let controlRoles: Set<String> = [
        "push button", "toggle button", "check box", "text", "entry", "list", "list item", "scroll bar",
        "status bar", "tool bar", "alert", "notification",
    ]

    /// A name that is a GType's ("GtkImage", "GtkButton"): what GTK 4.8 says of a widget
    /// with no name of its own.
    static func isTypeName(_ name: String) -> Bool {
        name.range(of: #"^(Gtk|Gdk|Adw)[A-Z][A-Za-z]*$"#, options: .regularExpression) != nil
    }

    @Test(.timeLimit(.minutes(3)))
    func everyControlIsNamedAndChangesReachTheAccessibilityBus() throws {
        guard FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/pyatspi/__init__.py") else {
            throw HarnessError("python3-pyatspi is not installed: run scripts/install-deps.sh (or `make deps`)")
        }
        let cs = try ComposerSession(.gtkSimple, arguments: ["--osk-inset", "200", "--limit", "10"],
                                     environment: Self.accessibilityOn, name: "e2e-accessibility")
        defer { cs.stop() }
        let probe = Probe(cs)

        // The window as a screen reader first reads it.
        let first = try probe.tree()
        try Self.expectEveryControlNamed(first)
        let input = try #require(first.first { $0.role == "text" })
        #expect(input.name == "Message" && input.states.contains("focused"), "\(input)")
        #expect(first.contains { $0.role == "push button" && $0.name == "Send" })
        #expect(first.contains { $0.role == "list" && $0.name == "Messages" })
        #expect(first.contains { $0.role == "status bar" && $0.name == "10 characters left" },
                "the counter: \(first.filter { $0.role == "status bar" })")
        // GTK 4.8 has no toggle-button role: the toggles are check boxes there (4.10 and
        // later say toggle button).
        var toggles: [String: Probe.Node] = [:]
        for name in ["IME inspector", "Caret toolbar", "Simulated on-screen keyboard"] {
            let toggle = try #require(first.first { $0.name == name }, "no control named \(name)")
            #expect(["toggle button", "check box"].contains(toggle.role), "\(toggle)")
            // "checked" follows the toggle (GTK 4.8 itself says only "pressed").
            #expect(toggle.states.contains("checked") == toggle.states.contains("pressed"), "\(toggle)")
            toggles[name] = toggle
        }

        let events = try probe.listen()

        // The caret toolbar's toggle, clicked as a screen reader user does (its action): it
        // shows the toolbar, or hides it when the simulated keyboard, up, showed it.
        var from = events.count
        let wasChecked = toggles["Caret toolbar"]?.states.contains("checked") == true
        let click = try probe.run(["click", toggles["Caret toolbar"]?.role ?? "", "Caret toolbar"])
        #expect(click.contains("\"done\": true"), "\(click)")
        try events.waitFor("the toggle's checked state", from: from) {
            $0.type == "object:state-changed:checked" && $0.name == "Caret toolbar" && $0.detail1 == (wasChecked ? 0 : 1)
        }
        let afterClick = try probe.tree()
        try Self.expectEveryControlNamed(afterClick)
        let toolbar = try #require((first + afterClick).first { $0.role == "tool bar" }, "the caret toolbar was never shown")
        #expect(toolbar.name == "Caret")
        #expect(toolbar.children.map(\.role) == Array(repeating: "push button", count: 4))
        #expect(toolbar.children.map(\.name) == ["Caret left", "Caret up a line", "Caret down a line", "Caret right"])

        // Past the limit: the counter's name says so, the input is invalid.
        from = events.count
        try cs.xdotool.type("abcdefghijk")
        try events.waitFor("the counter's name to say the text is over", from: from) {
            $0.type == "object:property-change:accessible-name" && $0.role == "status bar"
                && $0.data == "1 character over the limit"
        }
        try events.waitFor("the input to be invalid", from: from) {
            $0.type.hasPrefix("object:state-changed:invalid") && $0.role == "text" && $0.detail1 == 1
        }
        // A refused Enter: the hint reaches the bus as the input's description.
        from = events.count
        try cs.xdotool.key(["Return"])
        let described = try events.waitFor("the hint on the bus", from: from) {
            $0.type == "object:property-change:accessible-description" && $0.role == "text"
                && ($0.data ?? "").contains("over the limit of 10")
        }
        #expect(described.name == "Message")
        #expect(!cs.trace.entries.contains { $0.name == "send" }, "Enter over the limit never sends")
        // Enter again: told again, though the hint is the same.
        from = events.count
        try cs.xdotool.key(["Return"])
        try events.waitFor("the hint on the bus again", from: from) {
            $0.type == "object:property-change:accessible-description" && $0.role == "text"
                && ($0.data ?? "").contains("over the limit of 10")
        }
        let over = try probe.tree()
        try Self.expectEveryControlNamed(over)
        #expect(over.contains { ["alert", "notification"].contains($0.role) && $0.name.contains("over the limit of 10") },
                "the hint is an alert")
        #expect(over.contains { $0.role == "push button" && $0.name == "Trim to limit" })
        #expect(over.first { $0.role == "text" }?.description.contains("over the limit of 10") == true)

        // Back under the limit, then a mention: the list opens, its selection is told.
        from = events.count
        try cs.xdotool.key(Array(repeating: "BackSpace", count: 11))
        try events.waitFor("the hint to leave the input's description", from: from) {
            $0.type == "object:property-change:accessible-description" && $0.role == "text" && ($0.data ?? "") == ""
        }
        // The list opens at "@" and changes with each letter. Once it shows "tana" (the
        // trace says so), Down moves the selection: the input's description follows, after
        // the rows show the "tana" list.
        try cs.xdotool.type("@tana")
        try cs.trace.waitFor("the list for tana") {
            $0["ev"]?.stringValue == "completion" && $0["query"]?.stringValue == "tana"
        }
        from = events.count
        try cs.xdotool.key(["Down"])
        let second = try events.waitFor("the second suggestion in the input's description", from: from) {
            $0.type == "object:property-change:accessible-description" && $0.role == "text"
                && ($0.data ?? "").hasPrefix("Suggestion 2 of ")
        }
        // A screen reader reads the list (as it would on the input's "controller for").
        let open = try probe.tree()
        try Self.expectEveryControlNamed(open)
        let list = try #require(open.first { $0.role == "list" && $0.name == "Suggestions" })
        let rows = list.children.filter { $0.role == "list item" }
        try #require(rows.count >= 4, "\(list)")
        #expect(rows.allSatisfy { !$0.name.isEmpty && !Self.isTypeName($0.name) }, "\(rows)")
        // 田中 太郎 (u0001) first for "tana", as in CompletionEndToEndTests.
        #expect(rows[0].name == "田中 太郎, @tanaka")
        #expect(rows[1].states.contains("selected") && list.selectedChildren == 1, "\(list)")
        #expect(second.data?.hasSuffix(": \(rows[1].name)") == true, "\(second)")
        // Down again: now that the rows were read, their selected state reaches the bus too.
        for index in 2...3 {
            from = events.count
            try cs.xdotool.key(["Down"])
            try events.waitFor("row \(index) (\(rows[index].name)) selected on the bus", from: from) {
                $0.type == "object:state-changed:selected" && $0.role == "list item" && $0.detail1 == 1
                    && $0.name == rows[index].name
            }
            try events.waitFor("suggestion \(index + 1) in the input's description", from: from) {
                $0.type == "object:property-change:accessible-description" && $0.role == "text"
                    && ($0.data ?? "").hasPrefix("Suggestion \(index + 1) of ") && ($0.data ?? "").hasSuffix(rows[index].name)
            }
        }
        let moved = try probe.tree()
        let selected = moved.first { $0.role == "list" && $0.name == "Suggestions" }?.children.filter { $0.states.contains("selected") }
        #expect(selected?.map(\.name) == [rows[3].name])

        // The IME inspector, opened through its toggle: named controls there too.
        from = events.count
        let opened = try probe.run(["click", toggles["IME inspector"]?.role ?? "", "IME inspector"])
        #expect(opened.contains("\"done\": true"), "\(opened)")
        try events.waitFor("the inspector's toggle checked", from: from) {
            $0.type == "object:state-changed:checked" && $0.name == "IME inspector" && $0.detail1 == 1
        }
        let inspector = try Wait.until("the inspector's rows in the accessible tree", timeout: .seconds(20)) { () -> [Probe.Node]? in
            let nodes = try probe.tree()
            let list = nodes.first { $0.role == "list" && $0.name == "Events" }
            return list?.children.contains { $0.role == "list item" } == true ? nodes : nil
        }
        try Self.expectEveryControlNamed(inspector)
        #expect(inspector.contains { $0.role == "entry" && $0.name == "Search events" })
        #expect(inspector.contains { $0.name == "Pause" && ["toggle button", "check box"].contains($0.role) })
        #expect(inspector.filter { $0.name.hasPrefix("Show ") && $0.name.hasSuffix(" events") }
            .allSatisfy { $0.states.contains("checked") })

        #expect(try cs.terminateApp() == 0)
    }

    /// No node is named like a GType, and every control has a name.
    static func expectEveryControlNamed(_ nodes: [Probe.Node]) throws {
        let typeNamed = nodes.filter { isTypeName($0.name) }
        #expect(typeNamed.isEmpty, "named after their GType: \(typeNamed.map { "\($0.role) \($0.name)" })")
        let unnamed = nodes.filter { controlRoles.contains($0.role) && $0.name.isEmpty }
        #expect(unnamed.isEmpty, "controls without a name: \(unnamed.map(\.role))")
    }
}

/// `atspi_probe.py` in the app's session.
struct Probe {
    let cs: ComposerSession

    init(_ cs: ComposerSession) { self.cs = cs }

    /// One accessible object, flattened out of the tree (children kept for structure).
    struct Node {
        var role: String
        var name: String
        var description: String
        var states: Set<String>
        var selectedChildren: Int?
        var children: [Node]

        init(_ json: [String: Any]) {
            role = json["role"] as? String ?? ""
            name = json["name"] as? String ?? ""
            description = json["description"] as? String ?? ""
            states = Set(json["states"] as? [String] ?? [])
            selectedChildren = json["selectedChildren"] as? Int
            children = (json["children"] as? [[String: Any]] ?? []).map(Node.init)
        }

        var flattened: [Node] { [self] + children.flatMap(\.flattened) }
    }

    func run(_ arguments: [String]) throws -> String {
        let result = try cs.session.run("/usr/bin/python3", [Probe.path] + arguments.prefix(1) + ["\(cs.app.pid)"] + arguments.dropFirst(),
                                        environment: AccessibilityEndToEndTests.accessibilityOn, timeout: .seconds(60))
        guard result.succeeded else {
            throw cs.session.failure("atspi_probe.py \(arguments.joined(separator: " ")) failed (\(result.status)):\n"
                + result.stdout + result.stderr)
        }
        return result.stdout
    }

    static var path: String { AccessibilityEndToEndTests.probe }

    /// The application's tree, every node in document order (the application first).
    func tree() throws -> [Node] {
        let output = try run(["tree"])
        guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            throw cs.session.failure("atspi_probe.py tree printed no object: \(output)")
        }
        return Node(json).flattened
    }

    /// Starts listening; returns once the probe's listener is on the bus.
    func listen() throws -> Events {
        let process = try cs.session.launch("atspi-listen", executable: "/usr/bin/python3",
                                            arguments: [Probe.path, "listen", "\(cs.app.pid)"],
                                            environment: AccessibilityEndToEndTests.accessibilityOn)
        let events = Events(process: process)
        try Wait.until("the AT-SPI listener to be ready", timeout: .seconds(60),
                       diagnostics: { process.diagnostics() },
                       failFast: { if !process.isRunning { throw cs.session.failure("the listener exited:\n" + process.diagnostics()) } }) {
            events.ready
        }
        return events
    }

    /// The listener's events, read from its output as it grows.
    struct Events {
        let process: AppProcess

        struct Event: CustomStringConvertible {
            var type: String
            var role: String
            var name: String
            var detail1: Int
            var data: String?
            var description: String { "\(type) \(role) \"\(name)\" \(detail1) \(data ?? "-")" }
        }

        private var lines: [[String: Any]] {
            process.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        var ready: Bool { lines.contains { $0["ready"] as? Bool == true } }

        var all: [Event] {
            lines.compactMap { line in
                guard let type = line["type"] as? String else { return nil }
                return Event(type: type, role: line["role"] as? String ?? "", name: line["name"] as? String ?? "",
                             detail1: line["detail1"] as? Int ?? 0, data: line["data"] as? String)
            }
        }

        var count: Int { all.count }

        @discardableResult
        func waitFor(_ what: String, from: Int, timeout: Duration = .seconds(20),
                     _ condition: (Event) -> Bool) throws -> Event {
            try Wait.until(what, timeout: timeout, diagnostics: {
                "events since:\n" + all.dropFirst(from).suffix(40).map { "    \($0)" }.joined(separator: "\n")
            }) {
                all.dropFirst(from).first(where: condition)
            }
        }
    }
}
