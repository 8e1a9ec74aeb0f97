import Foundation

/// The D-Bus session bus as the doctor and the inspector ask it: through `dbus-send` with a
/// reply timeout, inside a `BoundedCommand` time limit.
public struct SessionBus: Sendable {
    public let environment: [String: String]
    /// The time limit of each call, in seconds.
    public let timeout: TimeInterval

    public init(environment: [String: String], timeout: TimeInterval = 3) {
        self.environment = environment
        self.timeout = timeout
    }

    public enum Failure: Error, CustomStringConvertible, Sendable {
        case noAddress
        case command(BoundedCommand.Failure)
        case error(String)

        public var description: String {
            switch self {
            case .noAddress: return "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"
            case let .command(failure): return failure.description
            case let .error(message): return message
            }
        }
    }

    /// The unique name of the connection that owns `name`, nil when nobody does
    /// (`NameHasOwner`, then `GetNameOwner`). Unlike a call to `name` itself, neither
    /// D-Bus-activates its service.
    public func nameOwner(_ name: String) -> Result<String?, Failure> {
        let has = call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                       method: "org.freedesktop.DBus.NameHasOwner", arguments: ["string:\(name)"])
        switch has {
        case let .failure(failure): return .failure(failure)
        case let .success(reply) where !reply.hasSuffix("true"): return .success(nil)
        case .success:
            // The owner can go away in between: then nobody owns it.
            let owner = call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                             method: "org.freedesktop.DBus.GetNameOwner", arguments: ["string:\(name)"])
            return .success((try? owner.get()).flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// A method call with `--print-reply=literal`; the reply text, trimmed.
    public func call(destination: String, path: String, method: String, arguments: [String] = []) -> Result<String, Failure> {
        guard !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty else { return .failure(.noAddress) }
        let result = BoundedCommand.run(
            "dbus-send",
            ["--session", "--reply-timeout=\(Int(timeout * 1000) * 2 / 3)", "--print-reply=literal", "--dest=\(destination)", path, method] + arguments,
            environment: environment, timeout: timeout)
        switch result {
        case let .failure(failure): return .failure(.command(failure))
        case let .success(output):
            guard output.succeeded else {
                let message = output.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                return .failure(.error(message.isEmpty ? "dbus-send exited with status \(output.status)" : message))
            }
            return .success(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
