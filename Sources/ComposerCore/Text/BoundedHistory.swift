/// The last `capacity` appended elements, in order, in a ring buffer.
///
/// O(1) per append, so keeping a long in-memory trace costs nothing per event.
struct BoundedHistory<Element> {
    let capacity: Int
    private var buffer: [Element] = []
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func append(_ element: Element) {
        if buffer.count < capacity {
            buffer.append(element)
        } else {
            buffer[oldest] = element
            oldest = (oldest + 1) % capacity
        }
    }

    var elements: [Element] {
        Array(buffer[oldest...] + buffer[..<oldest])
    }
}

extension BoundedHistory: Sendable where Element: Sendable {}
