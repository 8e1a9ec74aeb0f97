/// One styled run as Pango reports it: UTF-8 byte offsets into the preedit string.
///
/// Kept separate from `PreeditSegment` because the units differ: bytes here,
/// Unicode scalars there. Mixing them up is the classic multibyte preedit bug.
public struct StyledByteRun: Sendable {
    public var start: Int
    public var end: Int
    public var styles: Set<PreeditStyle>

    public init(start: Int, end: Int, styles: Set<PreeditStyle>) {
        self.start = start
        self.end = end
        self.styles = styles
    }
}

/// Turns Pango attribute runs into scalar-offset preedit segments.
public enum PreeditSegmentation {
    /// Converts byte runs to sorted, non-overlapping, coalesced scalar segments.
    ///
    /// - Byte offsets are clamped to the text: Pango uses `G_MAXINT`-like end
    ///   indexes for "to the end", and negative values are nonsense.
    /// - A byte offset inside a multibyte scalar rounds down to that scalar's start.
    /// - Runs without styles and empty runs are dropped: they draw nothing.
    /// - Overlapping runs are resolved by giving each scalar the union of the
    ///   styles covering it, so the output never overlaps.
    /// - Neighbouring spans with equal styles are merged into one segment.
    public static func segments(of text: String, byteRuns: [StyledByteRun]) -> [PreeditSegment] {
        let scalarEndBytes = scalarEndByteOffsets(of: text)
        let byteLength = scalarEndBytes.last ?? 0
        var stylesPerScalar = [Set<PreeditStyle>](repeating: [], count: scalarEndBytes.count)

        for run in byteRuns where !run.styles.isEmpty {
            let startByte = min(max(run.start, 0), byteLength)
            let endByte = min(max(run.end, 0), byteLength)
            let start = scalarOffset(ofByte: startByte, scalarEndBytes: scalarEndBytes)
            let end = scalarOffset(ofByte: endByte, scalarEndBytes: scalarEndBytes)
            guard start < end else { continue }
            for scalar in start..<end {
                stylesPerScalar[scalar].formUnion(run.styles)
            }
        }
        return coalesce(stylesPerScalar)
    }

    /// `result[i]` is the UTF-8 byte offset just after scalar `i`.
    private static func scalarEndByteOffsets(of text: String) -> [Int] {
        var ends: [Int] = []
        var byte = 0
        for scalar in text.unicodeScalars {
            byte += UTF8.width(scalar)
            ends.append(byte)
        }
        return ends
    }

    /// Number of scalars that end at or before `byte` — i.e. rounds down inside a scalar.
    private static func scalarOffset(ofByte byte: Int, scalarEndBytes: [Int]) -> Int {
        var low = 0
        var high = scalarEndBytes.count
        while low < high {
            let mid = (low + high) / 2
            if scalarEndBytes[mid] <= byte { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private static func coalesce(_ stylesPerScalar: [Set<PreeditStyle>]) -> [PreeditSegment] {
        var segments: [PreeditSegment] = []
        var runStart = 0
        while runStart < stylesPerScalar.count {
            let styles = stylesPerScalar[runStart]
            var runEnd = runStart + 1
            while runEnd < stylesPerScalar.count, stylesPerScalar[runEnd] == styles { runEnd += 1 }
            if !styles.isEmpty {
                segments.append(PreeditSegment(start: runStart, end: runEnd, styles: Array(styles)))
            }
            runStart = runEnd
        }
        return segments
    }
}
