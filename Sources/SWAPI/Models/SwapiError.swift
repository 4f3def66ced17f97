/// An error reading SWAPI data; the description names the file or URL, the resource and the
/// field, and says what to do.
public struct SwapiError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// A snapshot folder lacks one of the six files.
        case missingFile(path: String)
        /// A file could not be read.
        case unreadable(path: String, message: String)
        /// A file is not a JSON array of resources, or a resource is malformed.
        case malformed(source: String, resource: String?, field: String?, message: String)
        /// Two resources of one kind share an id.
        case duplicateID(kind: ResourceKind, id: Int)
    }

    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public var description: String {
        switch reason {
        case .missingFile(let path):
            return "\(path) is missing: a snapshot folder holds people.json, films.json, planets.json, species.json, starships.json and vehicles.json (write one with `holocron snapshot`)."
        case .unreadable(let path, let message):
            return "Cannot read \(path): \(message)."
        case .malformed(let source, let resource, let field, let message):
            var place = source
            if let resource { place += ", \(resource)" }
            if let field { place += ", field '\(field)'" }
            return "\(place): \(message). Fix the data: each file is a JSON array of resources in SWAPI's REST shape."
        case .duplicateID(let kind, let id):
            return "Two \(kind.rawValue) resources have the id \(id) (the last number of their url): each id may appear once."
        }
    }
}
