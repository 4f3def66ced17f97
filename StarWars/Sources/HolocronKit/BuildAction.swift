@_spi(Engine) import FlowSite
import Foundation
import Logging
import StarWarsApp
import SWAPI
import SWAPILive
@_spi(Engine) import FlowSiteCommandLine

/// Everything `holocron build` needs, as a value: the command parses, this runs.
public struct BuildAction: Sendable {
    public var output: URL
    public var source: DataSource
    public var templates: URL?
    public var baseURL: String?
    /// The language the site's words are in: a code ``Strings/languages`` lists.
    public var language = "en"
    /// A multilingual site's languages, the default first: each is a tree under its code. Empty
    /// for a site of one language (``language``).
    public var languages: [String] = []
    /// The language whose text stands in for a key a table lacks, marked on the page; `nil`
    /// fails the build on a missing translation instead.
    public var fallbackLanguage: String?
    public var force: Bool
    public var quiet: Bool
    /// Whether a flow lint warning fails the build.
    public var strictFlowLint = false
    /// Flow lint settings over the app's own.
    public var flowLint: FlowLintConfiguration?
    /// Waits between fetch attempts; tests pass one that doesn't sleep.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// What one run leaves for the next, so that an edit makes only the pages it reaches;
    /// `serve --watch` keeps one for its rebuilds.
    public var session: EditSession?
    /// Whether `output` is a private preview nobody else reads as a whole (`serve --watch`'s
    /// own, on tmpfs): an edit that moves no page is then written into it in place, costing what
    /// it changes, instead of as a new generation of the site.
    public var patchesInPlace = false
    /// Whether the process ends when ``run()`` returns (`holocron build`): what the build held
    /// is then left for the exit to free, not freed piece by piece first.
    public var endsProcess = false

    public init(
        output: URL, source: DataSource = .embedded, templates: URL? = nil, baseURL: String? = nil,
        language: String = "en", languages: [String] = [], fallbackLanguage: String? = nil, force: Bool = false, quiet: Bool = false,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.output = output
        self.source = source
        self.sleep = sleep
        self.templates = templates
        self.baseURL = baseURL
        self.language = language
        self.languages = languages
        self.fallbackLanguage = fallbackLanguage
        self.force = force
        self.quiet = quiet
    }

    /// Loads the data, warns about relations to missing resources, and builds the site; when
    /// nothing it reads has changed since the site was built, it loads nothing and writes
    /// nothing. On a terminal, a long build shows a progress line (``BuildProgressLine``).
    public func run() async throws -> BuildReport {
        let inputs = inputsFingerprint()
        if force { SiteBuilder<AppCoordinator>.stopUnchangedSiteCheck() }
        if !force, let report = SiteBuilder<AppCoordinator>.unchangedSite(at: output, inputs: inputs, logger: makeLogger()) {
            return report
        }
        let clock = ContinuousClock()
        let started = clock.now
        // The site's manifests and journal are read on another core while the data loads.
        let readAhead = force || languages.count > 1 ? nil : SiteReadAhead(output: output)
        var builder = try await makeBuilder(journal: true)
        builder.readAhead = readAhead
        builder.leavesMemoryToExit = endsProcess
        if endsProcess { ProcessLeftovers.keep([LeftoverBox(builder)] + (readAhead.map { [$0] } ?? [])) }
        let loading = clock.now - started
        builder.inputs = inputs
        let line = BuildProgressLine(enabled: BuildProgressLine.shouldDraw(quiet: quiet))
        builder.progress = { line.update($0) }
        line.start()
        defer { line.finish() }
        var report = try await builder.build(into: output)
        session?.commit()
        let (seconds, attoseconds) = loading.components
        report.timings.insert(("load data and templates", Double(seconds) + Double(attoseconds) / 1e18), at: 0)
        return report
    }

    /// This build as `serve` runs it, given the paths that changed since the last run (`nil`
    /// for the first). With `remembering` (`serve --watch`), the builds share an edit session,
    /// so that a rebuild makes only the pages an edit reaches.
    public func rebuilds(remembering: Bool) -> @Sendable (Set<String>?) async throws -> BuildReport {
        var build = self
        if remembering, build.session == nil { build.session = EditSession() }
        return { [build] changed in
            if let changed { build.session?.changedPaths = changed }
            return try await build.run()
        }
    }

    /// Begins the no-change check of the site at `output` (a path as given) while the rest of
    /// the command line is read and the inputs are fingerprinted; ``run()`` uses it when it is
    /// of the same site.
    public static func beginUnchangedSiteCheck(at output: String) {
        SiteBuilder<AppCoordinator>.beginUnchangedSiteCheck(at: output)
    }

    /// What the site depends on outside the program's code: the data files and template files
    /// (each by path, size and modification time, as make does), the options and the program
    /// itself. `nil` for a live API, whose answers can change at any time.
    func inputsFingerprint() -> String? {
        var parts = ["holocron", ProgramIdentity.current, language, languages.joined(separator: ","), fallbackLanguage ?? "-", baseURL ?? "-", strictFlowLint ? "strict" : "-", flowLint.map { "\($0)" } ?? "-"]
        switch source {
        case .local(.embedded): parts.append("embedded")
        case .local(.directory(let folder)): parts.append("data " + Self.listing(of: folder))
        case .local(.archive), .api: return nil
        }
        if let templates { parts.append("templates " + Self.listing(of: templates)) }
        var hash = StableHash()
        for part in parts { hash.combine(part) }
        return hash.description
    }

    /// Every file below `folder`: path, size and modification time, in order. A link to a file
    /// counts as the file it leads to, so an edit through the link is seen. Plain `stat` calls:
    /// Foundation's resource values looked up each file's owner in /etc/passwd.
    private static func listing(of folder: URL) -> String {
        let root = folder.resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return "?" }
        var lines: [String] = []
        for case let relative as String in enumerator {
            let path = root + "/" + relative
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            lines.append("\(path) \(status.st_size) \(FileStamp(status))")
        }
        return lines.sorted().joined(separator: "\n")
    }

    /// Loads the data and the templates, and makes the builder `run` uses; `holocron check` and
    /// `holocron serve` build with it too.
    /// With `journal`, the build writes down its pages beside the site, so that the next build
    /// after an edit makes only the pages the edit reaches (``SiteBuilder/journalsEdits``): the
    /// catalog fingerprints every input for it.
    public func makeBuilder(journal: Bool = false) async throws -> SiteBuilder<AppCoordinator> {
        let logger = makeLogger()
        let (coordinator, catalog, decoded, fingerprints) = try await loadCatalogedApp(logger: logger)
        let templateSet = try templates.map { try TemplateSet.load(from: $0) } ?? .embedded
        var builder = SiteBuilder(coordinator: coordinator, templates: templateSet, baseURL: baseURL, force: force, logger: logger)
        builder.otherLanguages = try languages.dropFirst().map { try coordinator.translated(into: Self.strings(in: $0, fallback: fallbackLanguage, logger: logger)) }
        builder.strictFlowLint = strictFlowLint
        builder.flowLint = flowLint
        if let session {
            builder.patchesInPlace = patchesInPlace
            builder.memory = session.memory
            builder.changedInputs = session.changes(to: catalog, kinds: decoded)
        } else if journal, languages.count <= 1 {
            builder.journalsEdits = true
            builder.inputFingerprints = catalog.inputFingerprints(resources: fingerprints)
        }
        return builder
    }

    /// The Star Wars app over the loaded data. All data is loaded before any site is touched,
    /// so a failed fetch leaves the old site as it was.
    public func loadApp(logger: Logger) async throws -> AppCoordinator {
        try await loadCatalogedApp(logger: logger).app
    }

    /// The app, the catalog its pages read, and (in an edit session reading a snapshot folder)
    /// the kinds whose files were read afresh; the others are the last run's.
    /// Also the fingerprint of each record's text, when the data is a snapshot folder.
    func loadCatalogedApp(logger: Logger) async throws -> (
        app: AppCoordinator, catalog: Catalog, decoded: Set<ResourceKind>?, fingerprints: [ResourceKind: (ids: [Int], fingerprints: [UInt64])]?
    ) {
        let archive: SwapiArchive
        var decoded: Set<ResourceKind>?
        var fingerprints: [ResourceKind: (ids: [Int], fingerprints: [UInt64])]?
        if let session, case .local(.directory(let folder)) = source {
            let loaded = try SnapshotDirectory(url: folder).load(reusing: session.snapshot, changed: session.changedPaths)
            decoded = session.loaded(loaded)
            archive = loaded.archive
        } else if case .local(.directory(let folder)) = source {
            // Each data file's resources are kept beside the site as decoded, so the next build
            // decodes only the files that changed.
            let cache = SiteBuilder<AppCoordinator>.cacheFolder(named: "data", for: output).map { DecodedCache(folder: $0, program: ProgramIdentity.current) }
            let loaded = try SnapshotDirectory(url: folder).load(reusing: nil, cache: cache)
            archive = loaded.archive
            fingerprints = loaded.resourceFingerprints
        } else {
            archive = try await source.load(sleep: sleep, reporter: ProgressReporter(quiet: quiet))
        }
        // The references are checked while the catalog is made: at 1000x each is a tenth of a
        // second of one core, and the catalog leaves a core idle for part of its time.
        async let danglingReferences = archive.danglingReferences
        let catalog = Catalog(archive: archive)
        for dangling in await danglingReferences {
            logger.warning("\(dangling)")
        }
        let strings = try Self.strings(in: languages.first ?? language, fallback: fallbackLanguage, logger: logger)
        let dependencies = AppDependencies(swapi: .live(.archive(archive)), catalog: CatalogService { catalog }, strings: strings, logger: logger)
        return (AppCoordinator(dependencies: dependencies), catalog, decoded, fingerprints)
    }

    /// The languages the app has words in, English first, then the pseudo-locales.
    public static var languages: [String] { Strings.languages }

    /// The language every other table is checked against, and the one a missing text can fall
    /// back to.
    public static var referenceLanguage: String { Strings.english.language }

    /// The app's words in `language`, when its table is complete: a missing key, a placeholder
    /// that differs from English's, a plural form the language needs or a key nothing uses
    /// fails the build with every problem listed once, before any site is touched.
    ///
    /// With a `fallback` language, missing keys and plural forms are not problems: the build
    /// goes on, says how many keys fell back, and their text is marked on the pages.
    static func strings(in language: String, fallback: String? = nil, logger: Logger? = nil) throws -> Strings {
        let strings = try Strings(language: language, marksFallback: fallback != nil)
        if language != Strings.english.language {
            var problems = try Strings.problems(of: language)
            if fallback != nil {
                let missing = problems.filter { $0.fallsBack }
                problems.removeAll { $0.fallsBack }
                if !missing.isEmpty {
                    let keys = missing.map(\.key).sorted()
                    logger?.warning("\(language): \(keys.count) keys fall back to \(Strings.english.language) and are marked on the pages that show them: \(keys.prefix(8).joined(separator: ", "))\(keys.count > 8 ? ", …" : "")")
                }
            }
            if !problems.isEmpty { throw TranslationProblems(problems) }
        }
        return strings
    }

    /// Warnings and errors on standard error; only errors when quiet.
    public func makeLogger() -> Logger {
        var logger = Logger(label: "holocron") { TerminalSafeLogHandler(base: StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = quiet ? .error : .info
        return logger
    }
}
