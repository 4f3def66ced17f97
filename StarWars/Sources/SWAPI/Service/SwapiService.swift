import Foundation

/// The app's access to SWAPI data: a struct of closures with live and mock values, so view
/// models are tested with plain values and no protocol-and-class boilerplate.
///
/// ```swift
/// let service = SwapiService.live(.embedded)
/// let archive = try await service.archive()
/// ```
public struct SwapiService: Sendable {
    /// Loads the whole archive (cached by the live value after the first call).
    public var archive: @Sendable () async throws -> SwapiArchive

    public init(archive: @escaping @Sendable () async throws -> SwapiArchive) {
        self.archive = archive
    }

    /// Where live data comes from.
    public enum Source: Sendable {
        /// The snapshot built into holocron.
        case embedded
        /// A snapshot folder.
        case directory(URL)
        /// An archive already in memory.
        case archive(SwapiArchive)

        /// Reads the archive.
        /// - Throws: ``SwapiError`` naming the file, position and field of bad data.
        public func load() throws -> SwapiArchive {
            switch self {
            case .embedded: try EmbeddedSnapshot.load()
            case .directory(let url): try SnapshotDirectory(url: url).load()
            case .archive(let archive): archive
            }
        }
    }

    /// A service over `source` that loads it once and shares the result.
    public static func live(_ source: Source) -> SwapiService {
        let cache = LoadOnce { try source.load() }
        return SwapiService { try await cache.value() }
    }

    /// A service that answers `archive`.
    public static func mock(_ archive: SwapiArchive) -> SwapiService {
        SwapiService { archive }
    }

    /// A service whose every call fails with `error`.
    public static func failing(_ error: any Error) -> SwapiService {
        SwapiService { throw error }
    }
}

/// Grants a ``SwapiService``.
public protocol HasSwapiService {
    var swapi: SwapiService { get }
}
