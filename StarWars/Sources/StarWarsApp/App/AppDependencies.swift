import Foundation
import Logging
import SWAPI

/// Gives view models the catalog: the archive with slugs and routes, loaded once.
public struct CatalogService: Sendable {
    /// Loads the catalog.
    public var catalog: @Sendable () async throws -> Catalog

    public init(catalog: @escaping @Sendable () async throws -> Catalog) {
        self.catalog = catalog
    }

    /// A catalog over the SWAPI service, built once and shared.
    public static func live(_ swapi: SwapiService) -> CatalogService {
        let cache = LoadOnce { Catalog(archive: try await swapi.archive()) }
        return CatalogService { try await cache.value() }
    }

    /// A catalog of `archive`.
    public static func mock(_ archive: SwapiArchive) -> CatalogService {
        let catalog = Catalog(archive: archive)
        return CatalogService { catalog }
    }

    /// A catalog whose loading fails with `error`.
    public static func failing(_ error: any Error) -> CatalogService {
        CatalogService { throw error }
    }
}

/// Grants the ``CatalogService``.
public protocol HasCatalogService {
    var catalog: CatalogService { get }
}

/// Grants a logger.
public protocol HasLogger {
    var logger: Logger { get }
}

/// Grants the app's words in the site's language: view models and their screens take every
/// label, heading and message from it, never from a literal.
public protocol HasStrings {
    var strings: Strings { get }
}

/// The app's one dependency container: it conforms to every `Has…` protocol, and each view
/// model sees only the ones it declares.
public struct AppDependencies: HasSwapiService, HasCatalogService, HasLogger, HasStrings, Sendable {
    public var swapi: SwapiService
    public var catalog: CatalogService
    public var logger: Logger
    /// The site's language and its words; English unless another table is chosen.
    public var strings: Strings

    public init(
        swapi: SwapiService, catalog: CatalogService? = nil, strings: Strings = .english,
        logger: Logger = Logger(label: "holocron.app")
    ) {
        self.swapi = swapi
        self.catalog = catalog ?? .live(swapi)
        self.strings = strings
        self.logger = logger
    }

    /// The container the site is built with: data from `source`, words from `strings`.
    public static func live(
        _ source: SwapiService.Source, strings: Strings = .english, logger: Logger = Logger(label: "holocron.app")
    ) -> AppDependencies {
        AppDependencies(swapi: .live(source), strings: strings, logger: logger)
    }

    /// A container of mocks over `archive`.
    public static func mock(_ archive: SwapiArchive, strings: Strings = .english) -> AppDependencies {
        AppDependencies(swapi: .mock(archive), catalog: .mock(archive), strings: strings)
    }
}
