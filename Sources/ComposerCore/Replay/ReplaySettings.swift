/// A setting of trace v1's `start` line that older recordings lack.
///
/// The start line has carried the settings since 2026-11-24 (commit 31fecd3). The build of
/// 2026-11-23 wrote `v`, `backend` and `im_module` only, with the same `"v":1`: such a file
/// stays readable, each missing setting taken from the command line or, without one, from
/// `olderRecordingDefault` (what that build used).
public enum StartSetting: String, CaseIterable, Sendable {
    case limit
    case limitMode = "limit_mode"
    case unit
    case data

    /// The field's name on the start line.
    public var field: String { rawValue }

    /// The settings the start line `json` does not have, in field order.
    static func missing(from json: JSONValue) -> [StartSetting] {
        allCases.filter { json[$0.field] == nil }
    }

    /// What the build that wrote no settings used: `--limit 200 --limit-mode soft --count
    /// graphemes` (its defaults) and the app's default data directory, written here as `""`
    /// (the replay turns a missing `data` into the default directory, not into none).
    public static let olderRecordingDefault = TranscriptSettings(
        limit: LengthLimit(limit: 200, mode: .soft, unit: .graphemes), dataDirectory: "")
}

/// The settings `ime-composer replay` runs a transcript with: each one given on the command
/// line, else the recorded one, else — a start line without it — the older build's
/// (`StartSetting.olderRecordingDefault`); and a note saying which were not recorded and
/// where their values came from.
public struct ReplaySettings: Equatable, Sendable {
    /// The command line's settings; nil where none was given.
    public struct Flags: Equatable, Sendable {
        public var limit: Int?
        public var limitMode: LengthLimit.Mode?
        public var count: CountUnit?
        /// `--data DIR`.
        public var data: String?

        public init(limit: Int? = nil, limitMode: LengthLimit.Mode? = nil, count: CountUnit? = nil, data: String? = nil) {
            self.limit = limit
            self.limitMode = limitMode
            self.count = count
            self.data = data
        }
    }

    /// The settings to replay with. The data directory is `--data`'s, else the recorded
    /// one, else (none recorded) the app's default.
    public var settings: TranscriptSettings
    /// The start line has no `data` and no `--data` was given: the older build read the
    /// app's default data directory, so the replay does too.
    public var dataIsDefault: Bool
    /// For stderr (`ime-composer: NOTE`) when the start line lacks settings; nil when it has
    /// them all.
    public var note: String?

    /// - Parameter defaultDataDirectory: the app's default data directory (what a start line
    ///   without `data` stands for).
    public init(transcript: Transcript, flags: Flags, defaultDataDirectory: String) {
        var settings = transcript.settings
        if let limit = flags.limit { settings.limit.limit = limit }
        if let mode = flags.limitMode { settings.limit.mode = mode }
        if let unit = flags.count { settings.limit.unit = unit }
        if let data = flags.data { settings.dataDirectory = data }
        let unrecorded = transcript.unrecordedSettings
        dataIsDefault = unrecorded.contains(.data) && flags.data == nil
        if dataIsDefault { settings.dataDirectory = defaultDataDirectory }
        self.settings = settings
        note = Self.note(name: transcript.name, unrecorded: unrecorded, flags: flags, settings: settings)
    }

    /// "FILE: the start line has no limit, limit_mode, unit, data (an older recording);
    /// took --limit 10 from the command line; assumed soft, graphemes and the default data
    /// directory DIR (what that build used)".
    static func note(name: String, unrecorded: [StartSetting], flags: Flags, settings: TranscriptSettings) -> String? {
        guard !unrecorded.isEmpty else { return nil }
        var given: [String] = []
        var assumed: [String] = []
        var assumedData = false
        for setting in unrecorded {
            switch setting {
            case .limit:
                if let limit = flags.limit { given.append("--limit \(limit)") } else { assumed.append("\(settings.limit.limit)") }
            case .limitMode:
                if let mode = flags.limitMode { given.append("--limit-mode \(mode.rawValue)") } else { assumed.append(settings.limit.mode.rawValue) }
            case .unit:
                if let unit = flags.count { given.append("--count \(unit.rawValue)") } else { assumed.append(settings.limit.unit.rawValue) }
            case .data:
                if let data = flags.data { given.append("--data \(data)") } else { assumedData = true }
            }
        }
        // "200, soft, graphemes and the default data directory DIR"
        let assumedValues = [assumed.joined(separator: ", "), assumedData ? "the default data directory \(settings.dataDirectory)" : ""]
            .filter { !$0.isEmpty }.joined(separator: " and ")
        var parts = ["\(name): the start line has no \(unrecorded.map(\.field).joined(separator: ", ")) (an older recording)"]
        if !given.isEmpty { parts.append("took \(given.joined(separator: ", ")) from the command line") }
        if !assumedValues.isEmpty { parts.append("assumed \(assumedValues) (what that build used)") }
        return parts.joined(separator: "; ")
    }
}
