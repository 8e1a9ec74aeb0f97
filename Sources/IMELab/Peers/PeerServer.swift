import Foundation

/// A chat app's server, run by the session on the loopback only, stopped with it: nothing
/// reaches outside the machine.
public final class PeerServer: @unchecked Sendable {
    public let kind: PeerApp.Server
    public let process: AppProcess
    /// What the app's command gets for `{server}`.
    public let address: String
    /// What the app's environment gets (a proxy to reach the server by).
    public let environment: [String: String]
    /// The server's helpers (prosody's SOCKS forwarder).
    let helpers: [AppProcess]
    /// A command that logs in as the other end of the app's conversation and prints what
    /// it receives (`atspi-watch.py`'s "receiver"), for `PeerApp.Sends.server`.
    public let receiver: [String]?

    init(kind: PeerApp.Server, process: AppProcess, address: String, environment: [String: String] = [:],
         helpers: [AppProcess] = [], receiver: [String]? = nil) {
        self.kind = kind
        self.process = process
        self.address = address
        self.environment = environment
        self.helpers = helpers
        self.receiver = receiver
    }

    /// Whether the lab can read an app's sends at `kind` (`receiver`).
    public static func hasReceiver(_ kind: PeerApp.Server) -> Bool { kind == .prosody }

    /// The programs `kind` needs.
    public static func programs(_ kind: PeerApp.Server) -> [String] {
        switch kind {
        case .ngircd: ["/usr/sbin/ngircd"]
        case .prosody: ["/usr/bin/prosody", "/usr/bin/prosodyctl", "/usr/bin/openssl", "/usr/bin/python3"]
        }
    }

    public static func start(_ kind: PeerApp.Server, in session: TestSession) throws -> PeerServer {
        try Prerequisites.require(programs(kind))
        switch kind {
        case .ngircd: return try startNgircd(in: session)
        case .prosody: return try startProsody(in: session)
        }
    }

    /// ngIRCd on 127.0.0.1 at a free port, with the channel #lab, in the foreground.
    static func startNgircd(in session: TestSession) throws -> PeerServer {
        let port = try freePort()
        let dir = session.directory.appendingPathComponent("ngircd", isDirectory: true)
        try session.makeDirectory(dir)
        // Its own (empty) include folder: not the system's /etc/ngircd/ngircd.conf.d.
        try session.makeDirectory(dir.appendingPathComponent("conf.d", isDirectory: true))
        let config = dir.appendingPathComponent("ngircd.conf")
        try """
        [Global]
        \tName = irc.lab.test
        \tInfo = IME lab IRC
        \tListen = 127.0.0.1
        \tPorts = \(port)
        \tPidFile = \(dir.path)/ngircd.pid
        \tMotdPhrase = "IME lab"
        [Limits]
        \tMaxConnectionsIP = 0
        [Options]
        \tIncludeDir = \(dir.path)/conf.d
        \tDNS = no
        \tIdent = no
        \tPAM = no
        [Channel]
        \tName = #lab
        \tTopic = IME lab channel
        \tModes = +P

        """.write(to: config, atomically: true, encoding: .utf8)
        let process = try session.launch("ngircd", executable: "/usr/sbin/ngircd", arguments: ["--nodaemon", "-f", config.path])
        try waitForListener(port: port, process: process)
        return PeerServer(kind: .ngircd, process: process, address: "127.0.0.1:\(port)")
    }

    /// The XMPP domain of the lab's prosody. Dino (0.4.2) accepts a certificate no
    /// authority signed only for a domain ending in .onion (its connection_manager.vala),
    /// and the lab's is self-signed: nothing of the system's trust store is touched.
    public static let xmppDomain = "lab.onion"

    /// Prosody on 127.0.0.1 at a free port, with the accounts lab@ and peer@ (password
    /// "pass": the receiver is peer@, `xmpp-receive.py`) and a group-chat component, its
    /// certificate self-signed for the domain; and a
    /// SOCKS5 forwarder on the next free port that sends every connection to it (Dino asks
    /// for the domain's port 5222 and honours GIO's proxy settings: `environment`). Nothing
    /// is looked up in DNS (`RES_OPTIONS=attempts:0`).
    static func startProsody(in session: TestSession) throws -> PeerServer {
        let port = try freePort()
        let domain = xmppDomain
        let dir = session.directory.appendingPathComponent("prosody", isDirectory: true)
        try session.makeDirectory(dir.appendingPathComponent("data", isDirectory: true))
        try session.runChecked("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "30",
                                                    "-subj", "/CN=\(domain)", "-addext", "subjectAltName=DNS:\(domain),DNS:conference.\(domain)",
                                                    "-addext", "extendedKeyUsage=serverAuth",
                                                    "-keyout", dir.appendingPathComponent("server.key").path,
                                                    "-out", dir.appendingPathComponent("server.crt").path], timeout: .seconds(60))
        let config = dir.appendingPathComponent("prosody.cfg.lua")
        // Run as root (CI), prosody and prosodyctl switch to the user "prosody", who may not
        // read the session's files: they stay the session's user.
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        let group = getgrgid(getegid()).map { String(cString: $0.pointee.gr_name) } ?? "root"
        try """
        prosody_user = "\(user)"
        prosody_group = "\(group)"
        run_as_root = \(geteuid() == 0)
        pidfile = "\(dir.path)/prosody.pid"
        data_path = "\(dir.path)/data"
        daemonize = false
        log = { debug = "\(dir.path)/prosody.log", info = "*stdout" }
        interfaces = { "127.0.0.1" }
        local_interfaces = { "127.0.0.1" }
        c2s_ports = { \(port) }
        c2s_interfaces = { "127.0.0.1" }
        c2s_direct_tls_ports = { }
        s2s_ports = { }
        component_ports = { }
        http_ports = { }
        https_ports = { }
        admins = { }
        authentication = "internal_plain"
        storage = "internal"
        allow_registration = false
        c2s_require_encryption = true
        modules_enabled = { "roster", "saslauth", "tls", "disco", "ping", "carbons", "pep", "private", "vcard4", "vcard_legacy", "bookmarks", "mam", "offline", "smacks" }
        modules_disabled = { "s2s" }
        certificates = "\(dir.path)"
        ssl = { key = "\(dir.path)/server.key", certificate = "\(dir.path)/server.crt" }
        VirtualHost "\(domain)"
        Component "conference.\(domain)" "muc"
            restrict_room_creation = false

        """.write(to: config, atomically: true, encoding: .utf8)
        for user in ["lab", "peer"] {
            try session.runChecked("/usr/bin/prosodyctl", ["--config", config.path, "register", user, domain, "pass"], timeout: .seconds(60))
        }
        let process = try session.launch("prosody", executable: "/usr/bin/prosody", arguments: ["--config", config.path, "-F"])
        try waitForListener(port: port, process: process)
        let proxyPort = try freePort()
        let forwarder = try session.launch("socks-forward", executable: "/usr/bin/python3",
                                           arguments: [PeerApp.directory.appendingPathComponent("socks-forward.py").path,
                                                       String(proxyPort), String(port)])
        try waitForListener(port: proxyPort, process: forwarder)
        return PeerServer(kind: .prosody, process: process, address: domain,
                          environment: ["GIO_USE_PROXY_RESOLVER": "libproxy", "http_proxy": "socks5://127.0.0.1:\(proxyPort)",
                                        "https_proxy": "socks5://127.0.0.1:\(proxyPort)", "no_proxy": "",
                                        "RES_OPTIONS": "attempts:0"],
                          helpers: [forwarder],
                          receiver: ["/usr/bin/python3", PeerApp.directory.appendingPathComponent("xmpp-receive.py").path,
                                     String(port), "peer@\(domain)", "pass"])
    }

    /// A TCP port on 127.0.0.1 nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket(): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError("bind(127.0.0.1:0): \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until something accepts connections on 127.0.0.1:`port`.
    static func waitForListener(port: Int, process: AppProcess, timeout: Duration = .seconds(20)) throws {
        try Wait.until("\(process.name) listening on 127.0.0.1:\(port)", timeout: timeout,
                       diagnostics: { process.diagnostics() },
                       failFast: { if !process.isRunning { throw HarnessError("\(process.name) exited:\n" + process.diagnostics()) } }) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
        }
    }
}
