import Foundation

/// Order statistics of a sample (linear interpolation between ranks, as R's type 7).
struct Summary {
    let count: Int
    let median: Double
    let p90: Double
    let mean: Double
    let min: Double
    let max: Double

    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        count = sorted.count
        median = Self.quantile(sorted, 0.5)
        p90 = Self.quantile(sorted, 0.9)
        mean = sorted.reduce(0, +) / Double(sorted.count)
        min = sorted.first!
        max = sorted.last!
    }

    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}

/// Formatting for the tables.
enum Format {
    static func ms(_ microseconds: Double) -> String { String(format: "%.2f ms", microseconds / 1000) }
    static func ratio(_ value: Double) -> String { value.isFinite ? String(format: "%.2f×", value) : "—" }
    static func mib(_ kib: Double) -> String { String(format: "%.1f MiB", kib / 1024) }
    static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
    /// "12,345 px"
    static func pixels(_ value: Double) -> String {
        let whole = Int(value.rounded())
        let digits = String(whole)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped + " px"
    }
}
