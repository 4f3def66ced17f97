import ArgumentParser
import FlowSite
import Foundation
import Testing

@testable import FlowSiteCommandLine

/// A roster read from a data folder: `crew.txt` holds one `name: role` line per member. The
/// roster lists the names; each member's page shows their role.
enum RosterRoute: StorableRoute {
    case roster, member(Int)

    var path: RoutePath {
        switch self {
        case .roster: .root
        case .member(let id): [Slug("member-\(id)")]
        }
    }
    static var screenKindExamples: [RosterRoute] { [.roster, .member(0)] }

    var storedName: String {
        switch self {
        case .roster: "roster"
        case .member(let id): "member/\(id)"
        }
    }

    init?(storedName: String) {
        if storedName == "roster" {
            self = .roster
        } else if storedName.hasPrefix("member/"), let id = Int(storedName.dropFirst(7)) {
            self = .member(id)
        } else {
            return nil
        }
    }
}

/// The roster's data: what every page reads goes through here, which tags it with its input.
struct Roster: Sendable {
    var members: [(name: String, role: String)]

    /// Table 0 holds the names, table 1 the roles.
    static func name(_ id: Int) -> InputKey { InputKey(table: 0, id: id) }
    static func role(_ id: Int) -> InputKey { InputKey(table: 1, id: id) }

    func name(of id: Int) -> String {
        InputKey.read(Self.name(id))
        return members[id].name
    }

    func role(of id: Int) -> String {
        InputKey.read(Self.role(id))
        return members[id].role
    }

    var fingerprints: InputFingerprints {
        func hash(_ text: String) -> UInt64 {
            text.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        }
        return InputFingerprints(
            members.indices.flatMap {
                [(Self.name($0), hash(members[$0].name)), (Self.role($0), hash(members[$0].role))]
            })
    }

    init(folder: URL) throws {
        let file = folder.appendingPathComponent("crew.txt")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw ValidationError("Cannot read \(file.path): give --data a folder holding crew.txt.")
        }
        members = text.split(separator: "\n").map { line in
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }
}

struct RosterScreen: Screen {
    let route: RosterRoute
    let roster: Roster

    func makePage() async throws -> Page<RosterRoute> {
        var document = MarkdownDocument<RosterRoute>()
        switch route {
        case .roster:
            document.list(roster.members.indices.map { [.link(roster.name(of: $0), to: .member($0))] })
            return Page(title: "Roster", document: document)
        case .member(let id):
            document.paragraph(.text("Role: \(roster.role(of: id))"))
            document.paragraph(.link("Roster", to: .roster))
            return Page(title: roster.name(of: id), document: document)
        }
    }
}

struct RosterCoordinator: RootCoordinator {
    let roster: Roster
    var startRoute: RosterRoute { .roster }
    var siteInfo: SiteInfo<RosterRoute> { SiteInfo(name: "Roster", footer: "A test roster.") }
    func makeScreen(for route: RosterRoute) async throws -> any Screen<RosterRoute> {
        RosterScreen(route: route, roster: roster)
    }
    func presentation(of route: RosterRoute, from source: RosterRoute) -> Presentation { .push }
}

/// The roster as a site executable loads it, from `--data`.
struct RosterSite: SiteApp {
    struct Options: ParsableArguments {
        @Option(help: "A folder holding crew.txt.") var data: String
    }

    let folder: URL

    init(options: Options) { folder = URL(fileURLWithPath: options.data) }

    func load(_ load: SiteLoad) async throws -> SiteContent<RosterCoordinator> {
        let roster = try Roster(folder: folder)
        return SiteContent(coordinator: RosterCoordinator(roster: roster), inputFingerprints: { roster.fingerprints })
    }

    var inputs: String? { SiteInputs.listing(of: folder) }
    func watchedFolders(output: URL) -> [URL] { [folder] }
}

/// An app with options and data of its own gets every verb, and edits that cost what they change.
@Suite struct SiteAppTests {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("site-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data((0..<30).map { "Crew \($0): ensign\n" }.joined().utf8).write(
            to: url.appendingPathComponent("data/crew.txt"))
        return url
    }

    func build(_ folder: URL, into site: String = "site") async throws -> BuildReport {
        try await SiteBuildAction(
            app: RosterSite(options: try .parse(["--data", folder.appendingPathComponent("data").path])),
            output: folder.appendingPathComponent(site), quiet: true
        ).run()
    }

    func promote(_ member: Int, in folder: URL) throws {
        let file = folder.appendingPathComponent("data/crew.txt")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "Crew \(member): ensign", with: "Crew \(member): captain")
        try Data(text.utf8).write(to: file)
    }

    @Test func anEditRemakesOnlyThePagesThatReadItAndAnUnchangedSiteIsNotLoaded() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await build(folder)
        #expect(first.pages == 31 && first.rendered == 31)

        let unchanged = try await build(folder)
        #expect(unchanged.isUpToDate)

        try promote(7, in: folder)
        let edited = try await build(folder)
        #expect(edited.pages == 31)
        #expect(edited.rendered == 1, "only crew 7's page reads crew 7's role")
        #expect(edited.replayed == 30, "the other pages come from the journal kept beside the site, unwalked")
        let page = try String(contentsOf: folder.appendingPathComponent("site/member-7/index.html"), encoding: .utf8)
        #expect(page.contains("Role: captain"))

        // The site is what a build from nothing makes of the same data.
        _ = try await build(folder, into: "fresh")
        for file in ["index.html", "member-7/index.html", "member-8/index.html"] {
            let kept = try Data(contentsOf: folder.appendingPathComponent("site/" + file))
            #expect(kept == (try Data(contentsOf: folder.appendingPathComponent("fresh/" + file))), "\(file)")
        }
    }

    @Test func serveRebuildsReplayEveryPageAnEditDoesNotReach() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try RosterSite(options: .parse(["--data", folder.appendingPathComponent("data").path]))
        let rebuild = SiteBuildAction(app: app, output: folder.appendingPathComponent("preview"), quiet: true)
            .rebuilds()
        let first = try await rebuild(nil)
        #expect(first.replayed == 0)
        try promote(3, in: folder)
        let second = try await rebuild([folder.appendingPathComponent("data/crew.txt").path])
        #expect(second.rendered == 1)
        #expect(second.replayed == 30)
        #expect(
            try String(contentsOf: folder.appendingPathComponent("preview/member-3/index.html"), encoding: .utf8)
                .contains("Role: captain"))
    }

    @Test func theAppsOptionsAreEveryWalkingVerbsAndItsErrorsNameTheFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        #expect(
            await RosterSite.runCommandLine([
                "build", "--output", folder.appendingPathComponent("site").path, "--data", data, "--quiet"
            ]) == 0)
        #expect(
            await RosterSite.runCommandLine([
                "lint", "--data", data, "--output", folder.appendingPathComponent("lint.json").path, "--format", "json"
            ]) == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("lint.json").path))
        #expect(
            await RosterSite.runCommandLine([
                "graph", "--data", data, "--output", folder.appendingPathComponent("flow.dot").path
            ]) == 0)
        let dot = try String(contentsOf: folder.appendingPathComponent("flow.dot"), encoding: .utf8)
        #expect(dot.contains("digraph"))
        // No --data: a usage error, exit 2.
        #expect(await RosterSite.runCommandLine(["lint"]) == 2)
        // A folder without crew.txt: the load fails, exit 2, and no site is written.
        #expect(
            await RosterSite.runCommandLine([
                "build", "--output", folder.appendingPathComponent("none").path, "--data", folder.path
            ]) == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("none").path))
    }
}

/// An app whose option takes a name a built-in verb has (issue 63, item 6).
struct ClashingSite: SiteApp {
    struct Options: ParsableArguments {
        @Option(help: "Where the app writes its cache.") var output: String?
        @Flag(help: "Fetch again.") var refresh = false
    }

    init(options: Options) {}

    func load(_ load: SiteLoad) async throws -> SiteContent<RosterCoordinator> {
        SiteContent(coordinator: RosterCoordinator(roster: try Roster(folder: URL(fileURLWithPath: "/nonexistent"))))
    }
}

@Suite struct OptionClashTests {
    @Test func aClashIsReportedWhenTheCommandLineIsFirstParsed() async {
        // Any verb, even one that would not read the option: the clash is found before anything runs.
        let clash = SiteCommand<ClashingSite>.optionClash()
        #expect(clash?.contains("--output") == true && clash?.contains("build") == true, "\(clash ?? "none")")
        #expect(await ClashingSite.runCommandLine(["graph"]) == 2)
        #expect(SiteCommand<RosterSite>.optionClash() == nil, "--data is the app's alone")
        #expect(
            SiteCommand<RosterSite>.optionNames(in: "OPTIONS:\n  -o, --output <dir>  Where.\n  --strict  Fail.\n")
                == ["-o", "--output", "--strict"])
    }
}
