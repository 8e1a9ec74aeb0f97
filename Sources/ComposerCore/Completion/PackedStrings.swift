/// Many short texts in one UTF-8 buffer, for the completion indexes: 4 bytes each beside
/// their bytes, where an array of `String`s costs 16 bytes each and a heap object (32
/// bytes and its growth) for every text longer than 15 bytes. The emoji index keeps about
/// 42,000 keys and 18,000 row texts; as `String`s they and their arrays held more than
/// the rest of the index.
///
/// Built by appending, then `compacted()` once: arrays grown by appending keep up to
/// twice the capacity they need.
struct PackedStrings: Sendable {
    private var bytes: [UInt8] = []
    /// Where each text ends in `bytes` (it starts where the previous one ends).
    private var ends: [UInt32] = []

    init() {}

    var count: Int { ends.count }

    /// Appends `text`; its index is the count before.
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        precondition(bytes.count <= Int(UInt32.max), "PackedStrings: more than 4 GiB of text")
        ends.append(UInt32(bytes.count))
    }

    /// The bytes of text `index`.
    func utf8(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])]
    }

    subscript(index: Int) -> String {
        String(decoding: utf8(index), as: UTF8.self)
    }

    /// The same texts with no spare capacity.
    func compacted() -> PackedStrings {
        var result = PackedStrings()
        result.bytes = bytes.compacted()
        result.ends = ends.compacted()
        return result
    }
}

extension Array {
    /// A copy of the elements with no spare capacity (an array grown by appending has up
    /// to twice what it holds), for arrays kept for the life of an index.
    func compacted() -> [Element] {
        withUnsafeBufferPointer { Array($0) }
    }
}
