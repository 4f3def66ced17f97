import FlowSiteUtilities

/// One input a page can read: a record, a field worked out from many records (a slug, a
/// count), or a whole table. The app numbers its tables; FlowSite only compares keys.
public struct InputKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The table in the high 16 bits, the id in the 48 below (``whole`` is all ones there).
    public let rawValue: UInt64

    /// The id that stands for a whole table (every record, their number and order).
    public static let whole = -1

    /// The key of record `id` of `table` (or of the whole table, with ``whole``).
    public init(table: UInt16, id: Int) {
        rawValue = UInt64(table) << 48 | UInt64(bitPattern: Int64(id)) & 0xFFFF_FFFF_FFFF
    }

    init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The table the record is in: a number the app gives each kind of input.
    public var table: UInt16 { UInt16(rawValue >> 48) }
    /// The record's id in its table, or ``whole`` for a key that stands for the whole table.
    public var id: Int {
        let low = rawValue & 0xFFFF_FFFF_FFFF
        return low == 0xFFFF_FFFF_FFFF ? Self.whole : Int(low)
    }

    public static func < (a: InputKey, b: InputKey) -> Bool { a.rawValue < b.rawValue }
    public var description: String { id == Self.whole ? "\(table)/*" : "\(table)/\(id)" }
}

/// What the page being made reads, recorded so a rebuild knows which pages an edit reaches. The app calls
/// ``read(_:)-swift.type.method`` wherever its data layer hands out a value; outside a walk a read costs one
/// task-local lookup.
extension InputKey {
    /// Records that the page being made read `key`.
    public static func read(_ key: InputKey) {
        InputRecorder.current?.add(key)
    }

    /// Records that the page being made read every key of `keys`.
    public static func read(_ keys: some Sequence<InputKey>) {
        guard let recorder = InputRecorder.current else { return }
        for key in keys { recorder.add(key) }
    }

    /// The keys `work` read, sorted, without repeats, with what it returned.
    static func recording<T>(_ work: () async throws -> T) async rethrows -> (value: T, inputs: [InputKey]) {
        let recorder = InputRecorder()
        let value = try await InputRecorder.$current.withValue(recorder) { try await work() }
        return (value, recorder.keys)
    }
}

/// The keys one page read; the lock keeps a page that reads from child tasks correct.
final class InputRecorder: Sendable {
    @TaskLocal static var current: InputRecorder?
    private let read = Locked<[InputKey]>([])

    func add(_ key: InputKey) {
        read.withLock { $0.append(key) }
    }

    /// Sorted, without repeats.
    var keys: [InputKey] {
        var keys = read.withLock { $0 }
        keys.sort()
        var unique: [InputKey] = []
        unique.reserveCapacity(keys.count)
        for key in keys where unique.last != key { unique.append(key) }
        return unique
    }
}
