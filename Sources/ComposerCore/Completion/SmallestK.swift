/// The `capacity` smallest distinct values seen, ascending.
struct SmallestK {
    let capacity: Int
    private(set) var values: [UInt64] = []

    init(capacity: Int) {
        self.capacity = capacity
        values.reserveCapacity(capacity)
    }

    var isFull: Bool { values.count == capacity }

    @inline(__always)
    mutating func insert(_ value: UInt64) {
        if values.count == capacity {
            guard let last = values.last, value < last else { return }
        }
        var index = values.count
        while index > 0, values[index - 1] > value { index -= 1 }
        if index > 0, values[index - 1] == value { return }
        if values.count == capacity { values.removeLast() }
        values.insert(value, at: index)
    }
}
