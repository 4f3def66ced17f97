/// An error reading SWAPI data; the description names the file or URL, the position (line and
/// column, or resource), the field and what was expected, and says what to do.
public struct SwapiError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// A snapshot folder lacks one of the six files.
        case missingFile(path: String)
        /// A snapshot file's path is a folder.
        case notAFile(path: String)
        /// A file exists but could not be read.
        case unreadable(path: String, problem: ReadProblem)
        /// The bytes at `position` are not UTF-8.
        case invalidUTF8(source: String, position: TextPosition)
        /// The text is not JSON: at `position`, `expected` was expected and `found` was there
        /// (`nil` at the end of the data).
        case invalidJSON(source: String, position: TextPosition, expected: String, found: String?)
        /// A file is not a JSON array of resources, or a resource is malformed.
        case malformed(source: String, resource: String?, field: String?, message: String)
        /// Two resources of one kind share an id; `first` and `second` name them ("resource 1
        /// (\"A New Hope\")") when the source is known.
        case duplicateID(kind: ResourceKind, id: Int, source: String?, first: String?, second: String?)
    }

    /// Why a file could not be read.
    public enum ReadProblem: Sendable, Equatable {
        /// The file's permissions forbid reading it.
        case permissionDenied
        /// Reading failed for another reason (see ``SwapiError/underlying``).
        case failed
    }

    public let reason: Reason
    /// The error underneath, such as the file system's, when there is one.
    public let underlying: (any Error)?

    public init(_ reason: Reason, underlying: (any Error)? = nil) {
        self.reason = reason
        self.underlying = underlying
    }

    public var description: String {
        switch reason {
        case .missingFile(let path):
            return
                """
                \(path) is missing: a snapshot folder holds people.json, films.json, planets.json, species.json, \
                starships.json and vehicles.json (write one with `holocron snapshot`).
                """
        case .notAFile(let path):
            return
                """
                \(path) is a folder, not a file: \
                a snapshot folder holds six JSON files (write one with `holocron snapshot`).
                """
        case .unreadable(let path, .permissionDenied):
            return
                """
                Cannot read \(path): permission denied. \
                Make the file readable (chmod a+r) or copy the data somewhere you can read.
                """
        case .unreadable(let path, .failed):
            return
                """
                Cannot read \(path): the system could not read it. \
                Check that it is a regular file on a working disk, then try again.
                """
        case .invalidUTF8(let source, let position):
            return "\(source): not valid UTF-8 at \(position). Save the file as UTF-8 (JSON must be UTF-8)."
        case .invalidJSON(let source, let position, let expected, let found):
            return
                """
                \(source): not valid JSON at \(position): expected \(expected), \
                found \(found ?? "the end of the data"). \
                Fix the data: each file is a JSON array of resources in SWAPI's REST shape.
                """
        case .malformed(let source, let resource, let field, let message):
            var place = source
            if let resource { place += ", \(resource)" }
            if let field { place += ", field '\(field)'" }
            return "\(place): \(message). Fix the data: each file is a JSON array of resources in SWAPI's REST shape."
        case .duplicateID(let kind, let id, let source, let first, let second):
            if let source, let first, let second {
                return
                    """
                    \(source): \(first) and \(second) both have the id \(id) (the last number of their url). \
                    Fix the data: each id may appear once.
                    """
            }
            return
                """
                Two \(kind.rawValue) resources have the id \(id) (the last number of their url): \
                each id may appear once.
                """
        }
    }
}
