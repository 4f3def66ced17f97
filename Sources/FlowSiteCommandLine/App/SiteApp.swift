import ArgumentParser
import FlowSite
import FlowSiteUtilities
import Foundation
import Logging

/// An app whose site executable loads its data, with command-line options of its own (where the data comes
/// from, its language) that every verb walking the app (`build`, `serve`, `lint`, `graph`) takes.
/// An app without options passes its coordinator to ``FlowSite/SiteBuilder/runCommandLine(_:coordinator:)``.
///
/// ```swift
/// struct ShopSite: SiteApp {
///     struct Options: ParsableArguments { @Option(help: "A folder of catalog JSON files.") var data: String }
///     let options: Options
///     init(options: Options) { self.options = options }
///     func load(_ load: SiteLoad) async throws -> SiteContent<ShopCoordinator> {
///         let catalog = try Catalog(folder: URL(fileURLWithPath: options.data))
///         return SiteContent(
///             coordinator: ShopCoordinator(catalog: catalog), inputFingerprints: { catalog.fingerprints })
///     }
///     var inputs: String? { SiteInputs.listing(of: URL(fileURLWithPath: options.data)) }
///     func watchedFolders(output: URL) -> [URL] { [URL(fileURLWithPath: options.data)] }
/// }
/// exit(await ShopSite.runCommandLine())  // Sources/shop-site/main.swift
/// ```
public protocol SiteApp: Sendable {
    /// The app's root coordinator, which ``load(_:)`` makes.
    associatedtype Coordinator: RootCoordinator
    /// The app's own options, parsed by every verb that walks the app.
    associatedtype Options: ParsableArguments

    /// Made once per command; `serve --watch` keeps it across rebuilds, so it may keep what the last load read.
    init(options: Options) throws

    /// Loads the data and makes the root coordinator; load it all before returning (a failed load keeps the old site).
    func load(_ load: SiteLoad) async throws -> SiteContent<Coordinator>

    /// A fingerprint of what the site reads outside the program (``SiteInputs/listing(of:)``), so `build` finds
    /// an unchanged site without loading; `nil` when unknowable (a live API), `""` (the default) for nothing.
    var inputs: String? { get }

    /// Folders whose changes change the site, which `serve --watch` follows besides `--templates`; none by default.
    func watchedFolders(output: URL) -> [URL]

    /// The command line's name, one-line description, version and verbs of the app's own.
    static var commandLine: SiteCommandLine { get }
}

extension SiteApp {
    public var inputs: String? { "" }
    public func watchedFolders(output: URL) -> [URL] { [] }
    public static var commandLine: SiteCommandLine { SiteCommandLine() }

    /// Parses `arguments` and runs that verb; see ``FlowSite/SiteBuilder/runCommandLine(_:coordinator:)``.
    @inlinable
    public static func runCommandLine(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Int32 {
        await runSiteCommand(Self.self, arguments, engine: SiteEngine<Coordinator>())
    }
}

@usableFromInline
func runSiteCommand<App: SiteApp>(
    _ app: App.Type, _ arguments: [String], engine: SiteEngine<App.Coordinator>
) async -> Int32 {
    await SiteEngineStore.$current.withValue(engine) { await SiteCommand<App>.main(arguments) }
}

/// The engine's build and lint as closures made in the app's module (``SiteApp/runCommandLine(_:)`` is inlined),
/// so they run specialised: swift-argument-parser, which reaches the verbs, can't know the app's types.
@usableFromInline
struct SiteEngine<C: RootCoordinator>: Sendable {
    let build: @Sendable (SiteBuilder<C>, URL) async throws -> BuildReport
    let lint: @Sendable (FlowLinter<C>) async throws -> FlowLintReport

    @inlinable
    init() {
        self.init(
            build: { builder, output in try await builder.build(into: output) },
            lint: { linter in try await linter.run() })
    }

    @usableFromInline
    init(
        build: @escaping @Sendable (SiteBuilder<C>, URL) async throws -> BuildReport,
        lint: @escaping @Sendable (FlowLinter<C>) async throws -> FlowLintReport
    ) {
        self.build = build
        self.lint = lint
    }

    /// The engine made for the running command line, or one made here (generic) without one.
    static var forCommand: SiteEngine {
        SiteEngineStore.current as? SiteEngine ?? SiteEngine()
    }
}

/// The running command line's engine, as `any Sendable`: a generic type has no static stored properties.
@usableFromInline
enum SiteEngineStore {
    @TaskLocal static var current: (any Sendable)?
}

/// What the command line that runs a ``SiteApp`` is called and has besides the built-in verbs.
public struct SiteCommandLine: Sendable {
    /// The name help and messages give the program (by default the name it was run by).
    public var name: String
    /// The one-line description `--help` prints under the name.
    public var abstract: String
    /// What `--version` prints; `nil` for no `--version`.
    public var version: String?
    /// Verbs of the app's own, after `build`, `serve`, `lint`, `diff` and `graph`.
    public var moreCommands: [any ParsableCommand.Type]
    /// The folder `build` writes when `--output` is not given; `nil` makes `--output` required.
    public var defaultOutput: String?
    /// Whether the program with no verb runs `build`.
    public var buildsByDefault: Bool

    /// A command line named `name` (the program's name by default), with `--version` when `version` is given.
    public init(
        name: String? = nil,
        abstract: String = "Build, check and compare the app's flow as a static site.",
        version: String? = nil, moreCommands: [any ParsableCommand.Type] = [], defaultOutput: String? = nil,
        buildsByDefault: Bool = false
    ) {
        self.name = name ?? CommandLineMessage.programName
        self.abstract = abstract
        self.version = version
        self.moreCommands = moreCommands
        self.defaultOutput = defaultOutput
        self.buildsByDefault = buildsByDefault
    }
}

/// What a ``SiteApp`` is loaded for.
public struct SiteLoad: Sendable {
    /// The folder the site is built into, for caches kept beside it; `nil` when no site is written (`lint`, `graph`).
    public var output: URL?
    /// Paths `serve --watch` saw change since the last load (read them afresh whatever their file identities);
    /// `nil` at first.
    public var changedPaths: Set<String>?
    /// Warnings go here (a relation to a missing record, say); it is quiet under `--quiet`.
    public var logger: Logger
    /// Whether the user asked for nothing but errors.
    public var quiet: Bool

    /// A load for the site in `output`; tests make one to call ``SiteApp/load(_:)`` directly.
    public init(
        output: URL? = nil, changedPaths: Set<String>? = nil, logger: Logger = Logger(label: "flowsite"),
        quiet: Bool = false
    ) {
        self.output = output
        self.changedPaths = changedPaths
        self.logger = logger
        self.quiet = quiet
    }

    /// The program's identity (executable path, size, modification time), which a build keys pages by. Key caches
    /// beside the site (`SiteBuilder.cacheFolder(named:for:)`) by it too: a new build may read data differently.
    public var program: String { ProgramIdentity.current }
}

/// A loaded app: what its site is made of.
public struct SiteContent<C: RootCoordinator>: Sendable {
    /// The app's root coordinator, over the loaded data.
    public var coordinator: C
    /// The same app in other languages, for a multilingual site (see `SiteBuilder.otherLanguages`).
    public var otherLanguages: [C]
    /// Fingerprints of every input the pages read (see `InputKey`), made on demand: `build` and `serve --watch`
    /// then remake only the pages that read a changed input (for routes that are `StorableRoute`).
    public var inputFingerprints: (@Sendable () -> InputFingerprints)?

    /// The content of a site of `coordinator`, in `otherLanguages` too, with its inputs' fingerprints if kept.
    public init(coordinator: C, otherLanguages: [C] = [], inputFingerprints: (@Sendable () -> InputFingerprints)? = nil)
    {
        self.coordinator = coordinator
        self.otherLanguages = otherLanguages
        self.inputFingerprints = inputFingerprints
    }
}

/// Fingerprints of files, for ``SiteApp/inputs``.
public enum SiteInputs {
    /// Every file below `folder` by path, size and modification time, sorted; a link counts as its target.
    public static func listing(of folder: URL) -> String {
        let root = folder.resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return "?" }
        var lines: [String] = []
        for case let relative as String in enumerator {
            if let line = FileIdentity.listingLine(of: root + "/" + relative) { lines.append(line) }
        }
        return lines.sorted().joined(separator: "\n")
    }
}

/// The app of ``FlowSite/SiteBuilder/runCommandLine(_:coordinator:)``: a coordinator from `main.swift`, no options.
@usableFromInline
struct CoordinatorApp<C: RootCoordinator>: SiteApp {
    @usableFromInline
    struct Options: ParsableArguments {
        @usableFromInline init() {}
    }

    let coordinator: C

    @usableFromInline
    init(options: Options) throws {
        guard let coordinator = CoordinatorAppMaker.current?() as? C else {
            throw ValidationError("No app: run this command through SiteBuilder.runCommandLine(coordinator:).")
        }
        self.coordinator = coordinator
    }

    @usableFromInline
    func load(_ load: SiteLoad) async throws -> SiteContent<C> { SiteContent(coordinator: coordinator) }
}

/// Hands ``CoordinatorApp`` the coordinator `main.swift` made (a generic type has no static stored properties).
@usableFromInline
enum CoordinatorAppMaker {
    @TaskLocal static var current: (@Sendable () -> any Sendable)?

    /// Runs `work` with `coordinator` handed to the app it makes.
    @usableFromInline
    static func with(_ coordinator: any Sendable, _ work: () async -> Int32) async -> Int32 {
        await $current.withValue({ coordinator }) { await work() }
    }
}
