/// What every SWAPI resource has: a kind, an id from its URL and a name to show.
public protocol SwapiResource: Codable, Sendable, Hashable {
    /// The kind of resource this type holds.
    static var kind: ResourceKind { get }
    /// The resource's own URL.
    var url: ResourceLink { get }
    /// The resource's id, from its URL.
    var id: Int { get }
    /// The name, or a film's title.
    var displayName: String { get }
}
