import Foundation
import SWAPI
import Testing

@testable import FlowSite
@testable import StarWarsApp

/// The Star Wars site's flow map and flow lint, on the embedded data.
@Suite struct FlowMapTests {
    /// The map's arrows in drawing order, each as its pair of boxes and the transition it
    /// stands for: a transition's tab selections start at the tab bar, its other links at its
    /// source kind.
    static func arrows(of flow: FlowGraph) -> [(pair: [String], transition: FlowGraph.Transition)] {
        flow.transitions.flatMap { transition in
            (transition.tabSelections > 0 ? [(["tab bar", transition.to], transition)] : [])
                + (transition.links > transition.tabSelections ? [([transition.from, transition.to], transition)] : [])
        }
    }

    /// The app package's folder on this machine.
    static let appRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func build(_ archive: SwapiArchive) async throws -> (URL, BuildReport) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("starwars-flow-\(UUID().uuidString)")
        let report = try await SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(archive)))).build(
            into: folder)
        return (folder, report)
    }

    /// Every `<tag …>` in `html` whose start matches `prefix`, as its attribute text.
    func tags(_ prefix: String, in html: String) -> [String] {
        html.components(separatedBy: prefix).dropFirst().map { $0.components(separatedBy: ">")[0] }
    }

    func attribute(_ name: String, in tag: String) -> String? {
        tag.components(separatedBy: " \(name)=\"").dropFirst().first?.components(separatedBy: "\"").first
    }

    /// The map's SVG has a box for every kind of the screen-level graph, named like it and
    /// linking to a page that exists, and an arrow for every pair of kinds with transitions.
    @Test func theMapDrawsEveryKindAndTransitionOfTheScreenGraph() async throws {
        let (folder, report) = try await build(try EmbeddedSnapshot.load())
        defer { try? FileManager.default.removeItem(at: folder) }
        let flow = try #require(report.flow)
        let html = try String(contentsOf: folder.appendingPathComponent("flow/index.html"), encoding: .utf8)
        let svg = try #require(
            html.components(separatedBy: "<svg class=\"flow-graph\"").dropFirst().first?.components(
                separatedBy: "</svg>"
            ).first)

        let nodes = tags("<a class=\"kind member", in: svg)
        #expect(nodes.count == flow.kinds.count)
        let names = svg.components(separatedBy: "<text x=").dropFirst().compactMap {
            $0.components(separatedBy: ">").dropFirst().first?.components(separatedBy: "<").first
        }
        for kind in flow.kinds { #expect(names.contains(kind.kind.name), "no box for \(kind.kind.name)") }
        // Lint on the map: the dead ends' badge, and the missing-record dialog, which no link
        // reaches on complete data, drawn apart and named by its declaration; both lead to
        // their findings.
        #expect(
            svg.contains(
                #"<a class="badge" href="index.html#finding-dead-end-planets-detail" aria-label="Planet: dead-end 2">"#)
        )
        #expect(
            svg.contains(
                ##"""
                <a class="kind unreachable" href="#finding-unreachable-screen-missing-record" \##
                aria-label="Missing record · no way in"><title>Sources/StarWarsApp/App/AppRoute.swift:
                """##
            ))
        for anchor in ["finding-dead-end-planets-detail", "finding-unreachable-screen-missing-record"] {
            #expect(html.contains("<li id=\"\(anchor)\""), "no finding \(anchor)")
        }
        #expect(
            svg.components(separatedBy: "<title>").count - 1 == flow.kinds.count + 1, "a box without its source line")
        #expect(!html.contains(Self.appRoot), "the map names a path of this machine")
        for node in nodes {
            let href = try #require(attribute("href", in: node))
            let target = folder.appendingPathComponent("flow").appendingPathComponent(href).standardized
            #expect(FileManager.default.fileExists(atPath: target.path), "\(href) leads nowhere")
        }
        // The whole map draws one arrow per pair of boxes (the tabs' from the tab bar); the table
        // lists every presentation.
        let pairs = Set(Self.arrows(of: flow).map(\.pair))
        #expect(tags("<g class=\"transition", in: svg).count == pairs.count)
        #expect(html.components(separatedBy: "<tr><td>").count - 1 == flow.transitions.count)
        #expect(
            flow.kinds.map(\.id) == [
                "home", "characters-list", "films-list", "planets-list", "species-list", "starships-list",
                "vehicles-list",
                "characters-detail", "search", "about", "films-detail", "planets-detail", "species-detail",
                "starships-detail", "vehicles-detail"
            ])
        // Home reaches each list with the navigation, and a dialog is modal.
        #expect(flow.transitions.contains { $0.from == "home" && $0.to == "about" && $0.presentation == .modal })
        #expect(
            flow.transitions.contains {
                $0.from == "characters-list" && $0.to == "characters-list" && $0.presentation == .replace
            })

        // One page per flow and per kind, each linked from the map.
        for group in flow.flows {
            #expect(html.contains(">\(group.name)</a>"))
        }
        // A build checks the map's first page; its links are made like every other map page's,
        // and here every one of them is checked.
        let files = try SiteDifference.files(in: folder)
        let mapPages = files.keys.filter { $0.hasPrefix("flow/") && $0.hasSuffix(".html") }
        // The whole map, a page per flow and per kind, then the journeys' index and a story each.
        let journeyPages = flow.journeys.isEmpty ? 0 : 1 + flow.journeys.count
        #expect(
            mapPages.count == 1 + flow.flows.filter { $0.kinds.count > 1 }.count + flow.kinds.count + journeyPages)
        #expect(journeyPages == 6)
        let broken = LinkChecker().brokenLinks(files: Set(files.keys)) { path in
            mapPages.contains(path) ? String(decoding: files[path]!, as: UTF8.self) : ""
        }
        #expect(broken.isEmpty, "\(broken)")
        let footer = try String(
            contentsOf: folder.appendingPathComponent("characters/luke-skywalker/index.html"), encoding: .utf8)
        #expect(footer.contains(#"<a href="../../flow/index.html">Flow map</a>"#))
    }

    /// The app's real findings on its own data: two planets nobody lives on and no film shows
    /// are dead ends; the missing-record dialog can't be reached on complete data, suppressed
    /// with the app's reason.
    @Test func lintReportsTheAppsRealFindings() async throws {
        let report = try await FlowLinter(
            coordinator: AppCoordinator(dependencies: .live(.archive(try EmbeddedSnapshot.load())))
        ).run()
        #expect(report.active.map(\.rule.id) == ["dead-end"])
        let dead = try #require(report.active.first)
        #expect(dead.kind?.id == "planets-detail")
        #expect(dead.count == 2)
        #expect(dead.location?.fileID == "StarWarsApp/ResourceDetailScreen.swift")
        let suppressed = report.findings.filter { !$0.isActive }
        #expect(suppressed.map(\.kind?.id) == ["missing-record"])
        #expect(suppressed.first?.suppression?.contains("complete data has none") == true)
        // It points at the line that declares the kind.
        let declaration = try #require(suppressed.first?.location)
        let lines = try String(contentsOfFile: declaration.filePath, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(
            declaration.fileID == "StarWarsApp/AppRoute.swift"
                && lines[declaration.line - 1].contains(#"ScreenKind("missing-record""#))

        // On data with a missing relation, the dialog is reached and nothing is suppressed.
        let broken = try await FlowLinter(coordinator: AppCoordinator(dependencies: .live(.archive(Fixtures.archive))))
            .walk()
        #expect(broken.graph.kind("missing-record")?.kind.flow == "Alerts")
        #expect(!broken.lint.findings.contains { $0.rule == .unreachableScreen && $0.kind?.id == "missing-record" })
    }

    /// Click depth is the shortest path from the start page: the walker's depth for every page
    /// equals a breadth-first search over every link.
    @Test func clickDepthIsTheShortestPathOverEveryLink() async throws {
        let app = AppCoordinator(dependencies: .live(.archive(try EmbeddedSnapshot.load())))
        let graph = try await SiteWalker(coordinator: app).walk { _ in }
        var next: [AppRoute: [AppRoute]] = [:]
        for edge in graph.edges { next[edge.from, default: []].append(edge.to) }
        var depth: [AppRoute: Int] = [.home: 0]
        var queue: [AppRoute] = [.home]
        while !queue.isEmpty {
            let route = queue.removeFirst()
            for target in next[route] ?? [] where depth[target] == nil {
                depth[target] = depth[route]! + 1
                queue.append(target)
            }
        }
        let flow = graph.flowGraph(lint: nil, coverage: nil)
        for kind in flow.kinds {
            let depths = graph.routes.filter { $0.screenKind.id == kind.id }.map { depth[$0]! }.sorted()
            #expect(kind.depth.minimum == depths.first && kind.depth.maximum == depths.last, "\(kind.id)")
            #expect(kind.depth.median == depths[(depths.count - 1) / 2], "\(kind.id)")
        }
    }

    /// The coverage the coordinator tests record (`CoordinatorTests`, under `.flowCoverage()`)
    /// is what the golden site's map shows: each transition they don't take drawn as untested,
    /// the others not, and the count per flow beside the map.
    @Test func theGoldenMapShowsWhichTransitionsTheCoordinatorTestsTake() async throws {
        let coverage = try SiteTests.flowCoverage
        let flow = try await FlowLinter(
            coordinator: AppCoordinator(dependencies: .live(.archive(try EmbeddedSnapshot.load())))
        ).walk().graph
        let untested = flow.transitions.filter { !coverage.covers($0) }
        // Meaningful coverage: the tests take some transitions, and not all.
        #expect(
            untested.count > 0 && untested.count < flow.transitions.count,
            "\(untested.count) of \(flow.transitions.count) untested")
        #expect(
            coverage.covers(try #require(flow.transitions.first { $0.from == "home" && $0.to == "characters-list" })))
        #expect(
            coverage.covers(
                try #require(
                    flow.transitions.first {
                        $0.from == "characters-list" && $0.to == "characters-list" && $0.presentation == .replace
                    })))
        #expect(
            !coverage.covers(try #require(flow.transitions.first { $0.from == "search" && $0.to == "films-detail" })))

        let html = try String(
            contentsOf: SiteTests.repository.appendingPathComponent("site/flow/index.html"), encoding: .utf8)
        // The whole map merges the transitions between two kinds into one arrow, in the order
        // of the first of them, untested when any of them is.
        var pairs: [[String]] = []
        var marked: [[String]: Bool] = [:]
        for (pair, transition) in Self.arrows(of: flow) {
            if marked[pair] == nil { pairs.append(pair) }
            marked[pair] = marked[pair] == true || !coverage.covers(transition)
        }
        let svg = try #require(
            html.components(separatedBy: "<svg class=\"flow-graph\"").dropFirst().first?.components(
                separatedBy: "</svg>"
            ).first)
        let arrows = svg.components(separatedBy: "<g class=\"transition ").dropFirst().map {
            $0.components(separatedBy: ">")[0].hasSuffix(" untested\"")
        }
        #expect(arrows == pairs.map { marked[$0]! })
        #expect(
            svg.components(separatedBy: "untested\"><title>untested</title>").count - 1 == pairs.count { marked[$0]! })
        #expect(
            html.contains(
                """
                The app’s tests take \(flow.transitions.count - untested.count) \
                of its \(flow.transitions.count) transitions.
                """
            ))
        #expect(html.components(separatedBy: "<td class=\"untested\">untested</td>").count - 1 == untested.count)
    }
}
