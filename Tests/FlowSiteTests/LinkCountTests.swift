import FlowSiteUtilities
import Foundation
import Testing

@testable import FlowSite

/// Forty pages at depth one under a home page; page i links home and to i % 7 others, and is
/// made after a number of task yields that the run's generator picks, so each build finishes
/// its pages in another order.
private struct ShuffledCoordinator: RootCoordinator {
    let pages = (0..<40).map { Node("p\($0)") }
    let yields: @Sendable () -> Int

    var startRoute: Node { "" }
    var siteInfo: SiteInfo<Node> { SiteInfo(name: "Shuffled", footer: "") }
    func presentation(of route: Node, from source: Node) -> Presentation { .push }

    func makeScreen(for route: Node) async throws -> any Screen<Node> {
        let targets: [Node]
        if route.name.isEmpty {
            targets = pages
        } else {
            let i = Int(route.name.dropFirst())!
            targets = [""] + (0..<(i % 7)).map { pages[(i + 1 + $0) % pages.count] }
        }
        return ShuffledScreen(title: route.description, targets: targets, yields: yields())
    }
}

private struct ShuffledScreen: Screen {
    let title: String
    let targets: [Node]
    let yields: Int

    func makePage() async throws -> Page<Node> {
        for _ in 0..<yields { await Task.yield() }
        var document = MarkdownDocument<Node>()
        document.list(targets.map { [.link($0.description, to: $0)] })
        return Page(title: title, document: document)
    }
}

/// A build's link count is the same however the walk's tasks are scheduled: the link check
/// samples the first page by path of each depth, not the first one made.
@Suite struct LinkCountTests {
    @Test func everyBuildOfTheSameSiteCountsTheSameLinks() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("link-count-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var counts: [Int] = []
        for run in 0..<12 {
            let random = Locked(SystemRandomNumberGenerator())
            let app = ShuffledCoordinator { random.withLock { Int.random(in: 0..<200, using: &$0) } }
            let report = try await SiteBuilder(coordinator: app, concurrency: 8).build(
                into: folder.appendingPathComponent("\(run)"))
            counts.append(report.links)
        }
        #expect(Set(counts).count == 1, "\(counts)")
    }
}
