/// Whether a replay decided what the recording did: the events a replay must reproduce
/// with the recorded settings, compared line by line without their times.
public enum ReplayComparison {
    /// The decisions and their results: the committed text, every edit, the limit's cuts,
    /// the overflow, the completion list, accepts and sends.
    public static let comparedEvents: Set<String> = ["text", "edit", "limit", "overflow", "completion", "accept", "send"]

    /// The first difference between the recording's compared events and the replay's, in
    /// words; nil when they are the same.
    public static func firstDifference(recorded: Transcript, replayed: Replayer.Output) -> String? {
        let expected = recorded.lines.filter { comparedEvents.contains($0.event.name) }
        let actual = replayed.events.filter { comparedEvents.contains($0.event.name) }
        for index in 0..<max(expected.count, actual.count) {
            let expectedLine = index < expected.count ? line(expected[index].event) : nil
            let actualLine = index < actual.count ? line(actual[index].event) : nil
            guard expectedLine != actualLine else { continue }
            let where_ = index < expected.count ? "line \(expected[index].number)" : "after the last line"
            return "the replay differs from the recording at \(where_) (compared event \(index + 1)):\n"
                + "  recorded: \(expectedLine ?? "(nothing)")\n"
                + "  replayed: \(actualLine ?? "(nothing)")"
        }
        return nil
    }

    /// The event's line without "t".
    static func line(_ event: TraceEvent) -> String {
        guard case .object(let members) = event.json(t: 0) else { return "" }
        return JSONValue.object(members.filter { $0.0 != "t" }).serialized()
    }
}
