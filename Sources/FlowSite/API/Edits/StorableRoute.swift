/// A route that can be written down and made again in another process: what lets a build's journal remember its
/// pages from one run to the next, so that an edit makes only the pages it reaches.
///
/// ```swift
/// extension AppRoute: StorableRoute {
///     var storedName: String { … }          // "detail/people/1/luke-skywalker"
///     init?(storedName: String) { … }
/// }
/// ```
public protocol StorableRoute: Route {
    /// A text this route is made again from by ``init(storedName:)``: the same in every process.
    var storedName: String { get }
    /// The route a ``storedName`` names, or `nil` for a name this app does not know.
    init?(storedName: String)
}

/// A fingerprint of every input a page can read (see ``InputKey``), made by the app from its data on every build;
/// the next build compares them key by key to know which inputs an edit changed.
public struct InputFingerprints: Sendable, Equatable {
    /// The keys' raw values, sorted, and each one's fingerprint.
    private(set) var keys: [UInt64] = []
    private(set) var values: [UInt64] = []

    /// The fingerprints of `pairs` (a key given twice keeps its last value).
    public init(_ pairs: [(key: InputKey, value: UInt64)]) {
        var pairs = pairs
        if zip(pairs, pairs.dropFirst()).contains(where: { $0.key.rawValue > $1.key.rawValue }) {
            pairs.sort { $0.key.rawValue < $1.key.rawValue }
        }
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            if keys.last == key.rawValue {
                values[values.count - 1] = value
            } else {
                keys.append(key.rawValue)
                values.append(value)
            }
        }
    }

    init(keys: [UInt64], values: [UInt64]) {
        self.keys = keys
        self.values = values
    }

    /// How many inputs have a fingerprint.
    public var count: Int { keys.count }

    /// The keys whose fingerprints differ from `old`'s, with those only one of the two has.
    public func changes(since old: InputFingerprints) -> Set<InputKey> {
        var changed: Set<InputKey> = []
        var (i, j) = (0, 0)
        while i < keys.count || j < old.keys.count {
            if j == old.keys.count || (i < keys.count && keys[i] < old.keys[j]) {
                changed.insert(InputKey(rawValue: keys[i]))
                i += 1
            } else if i == keys.count || old.keys[j] < keys[i] {
                changed.insert(InputKey(rawValue: old.keys[j]))
                j += 1
            } else {
                if values[i] != old.values[j] { changed.insert(InputKey(rawValue: keys[i])) }
                i += 1
                j += 1
            }
        }
        return changed
    }
}

extension InputFingerprints {
    /// The 64-bit fingerprint of one input: every value its `encode(to:)` writes, in order, with nils and container
    /// boundaries marked; the same in every process. `userInfo` is passed to the encoder.
    public static func fingerprint(
        of value: some Encodable, userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) -> UInt64 {
        Fingerprint.of(value, userInfo: userInfo)
    }
}
