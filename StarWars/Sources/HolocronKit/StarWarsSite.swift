import FlowSite
import FlowSiteCommandLine
import Foundation
import Logging
import SWAPI
import SWAPILive
import StarWarsApp

/// The Star Wars app as the site executable loads it: its data from the embedded snapshot, a
/// snapshot folder or a live SWAPI server, and its words in one language or several. The
/// command line's verbs (FlowSiteCommandLine's) build, serve, lint and graph it.
public struct StarWarsSite: Sendable {
    /// Where the data comes from.
    public var source: DataSource
    /// Whether a live API's cache goes beside the folder being built (no `--cache` given).
    public var cacheBesideOutput = false
    /// The language the site's words are in: a code ``StringTables/languages`` lists.
    public var language = "en"
    /// A multilingual site's languages, the default first: each is a tree under its code. Empty
    /// for a site of one language (``language``).
    public var languages: [String] = []
    /// The language whose text stands in for a key a table lacks, marked on the page; `nil`
    /// fails the build on a missing translation instead.
    public var fallbackLanguage: String?
    /// A folder of string tables (`<code>.json`) read at each load, each adding a language or taking
    /// the place of the compiled-in table of its language (``StringTables/init(folder:)``).
    public var stringsFolder: URL?
    /// Waits between fetch attempts; tests pass one that doesn't sleep.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// The last load of a snapshot folder, whose unchanged files the next load (a rebuild of
    /// `serve --watch`) keeps.
    private let lastLoad = LastLoad()

    public init(
        source: DataSource = .embedded, language: String = "en", languages: [String] = [],
        fallbackLanguage: String? = nil, stringsFolder: URL? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.source = source
        self.language = language
        self.languages = languages
        self.fallbackLanguage = fallbackLanguage
        self.stringsFolder = stringsFolder
        self.sleep = sleep
    }

    /// Loads the data and makes the app. All data is loaded before any site is touched, so a
    /// failed fetch leaves the old site as it was.
    public func load(_ load: SiteLoad) async throws -> SiteContent<AppCoordinator> {
        let archive: SwapiArchive
        var fingerprints: [ResourceKind: (ids: [Int], fingerprints: [UInt64])]?
        if case .local(.directory(let folder)) = source {
            let loaded: SnapshotDirectory.Loaded
            if let changed = load.changedPaths {
                // A rebuild of serve --watch: the files that didn't change are the last load's.
                loaded = try SnapshotDirectory(url: folder).load(reusing: lastLoad.value, changed: changed)
            } else {
                // Each data file's resources are kept beside the site as decoded, so the next
                // build decodes only the files that changed.
                let cache = load.output.flatMap { SiteBuilder<AppCoordinator>.cacheFolder(named: "data", for: $0) }.map
                { DecodedCache(folder: $0, program: load.program) }
                loaded = try SnapshotDirectory(url: folder).load(reusing: nil, cache: cache)
            }
            lastLoad.value = loaded
            archive = loaded.archive
            fingerprints = loaded.resourceFingerprints
        } else {
            archive = try await source(beside: load.output).load(
                sleep: sleep, reporter: ProgressReporter(quiet: load.quiet))
        }
        // The references are checked while the catalog is made: each takes one core a while on
        // a large archive, and the catalog leaves a core idle for part of its time.
        async let danglingReferences = archive.danglingReferences
        let catalog = Catalog(archive: archive)
        for dangling in await danglingReferences {
            load.logger.warning("\(dangling)")
        }
        let tables = try stringsFolder.map(StringTables.init(folder:)) ?? .compiledIn
        let strings = try Self.strings(
            in: languages.first ?? language, from: tables, fallback: fallbackLanguage, logger: load.logger)
        let dependencies = AppDependencies(
            swapi: .live(.archive(archive)), catalog: CatalogService { catalog }, strings: strings, logger: load.logger)
        let coordinator = AppCoordinator(dependencies: dependencies)
        let others = try languages.dropFirst().map {
            try coordinator.translated(
                into: Self.strings(in: $0, from: tables, fallback: fallbackLanguage, logger: load.logger))
        }
        return SiteContent(
            coordinator: coordinator, otherLanguages: others,
            inputFingerprints: { [fingerprints] in catalog.inputFingerprints(resources: fingerprints) })
    }

    /// The data source, a live API's default cache placed beside `output`.
    func source(beside output: URL?) -> DataSource {
        guard cacheBesideOutput, case .api(var live) = source, let output else { return source }
        live.cache = output.standardizedFileURL.deletingLastPathComponent().appendingPathComponent(".holocron-cache")
        return .api(live)
    }

    /// What the site depends on outside the program: the data files (each by path, size and
    /// modification time, as make does) and the languages. `nil` for a live API, whose answers
    /// can change at any time.
    public var inputs: String? {
        var parts = [language, languages.joined(separator: ","), fallbackLanguage ?? "-"]
        if let stringsFolder { parts.append("strings " + SiteInputs.listing(of: stringsFolder)) }
        switch source {
        case .local(.embedded): parts.append("embedded")
        case .local(.directory(let folder)): parts.append("data " + SiteInputs.listing(of: folder))
        case .local(.archive), .api: return nil
        }
        return parts.joined(separator: "\n")
    }

    /// The data folder, or the API cache when a build reads only the cache.
    public func watchedFolders(output: URL) -> [URL] {
        let data: [URL] =
            switch source(beside: output) {
            case .local(.directory(let folder)): [folder]
            case .api(let live) where live.mode == .offline: [live.cache]
            default: []
            }
        return data + [stringsFolder].compactMap { $0 }
    }

    /// The languages the app has words in, English first, then the pseudo-locales.
    public static var languages: [String] { StringTables.compiledIn.languages }

    /// The languages the app has words in with the tables of a ``stringsFolder`` too.
    public static func languages(withStringsIn folder: URL) throws -> [String] {
        try StringTables(folder: folder).languages
    }

    /// The language every other table is checked against, and the one a missing text can fall
    /// back to.
    public static var referenceLanguage: String { Strings.english.language }

    /// The app's words in `language`, when its table is complete: a missing key, a placeholder
    /// that differs from English's, a plural form the language needs or a key nothing uses
    /// fails the build with every problem listed once, before any site is touched.
    ///
    /// With a `fallback` language, missing keys and plural forms are not problems: the build
    /// goes on, says how many keys fell back, and their text is marked on the pages.
    static func strings(
        in language: String, from tables: StringTables = .compiledIn, fallback: String? = nil, logger: Logger? = nil
    ) throws -> Strings {
        let strings = try tables.strings(in: language, marksFallback: fallback != nil)
        if language != Strings.english.language {
            var problems = try tables.problems(of: language)
            if fallback != nil {
                let missing = problems.filter { $0.fallsBack }
                problems.removeAll { $0.fallsBack }
                if !missing.isEmpty {
                    let keys = missing.map(\.key).sorted()
                    logger?.warning(
                        """
                        \(language): \(keys.count) keys fall back to \(Strings.english.language) \
                        and are marked on the pages that show them: \
                        \(keys.prefix(8).joined(separator: ", "))\(keys.count > 8 ? ", …" : "")
                        """
                    )
                }
            }
            if !problems.isEmpty { throw FlowSiteError(.translations(problems)) }
        }
        return strings
    }
}

/// The last snapshot folder a ``StarWarsSite`` loaded.
private final class LastLoad: Sendable {
    private let loaded = Locked<SnapshotDirectory.Loaded?>(nil)
    var value: SnapshotDirectory.Loaded? {
        get { loaded.withLock { $0 } }
        set { loaded.withLock { $0 = newValue } }
    }
}
