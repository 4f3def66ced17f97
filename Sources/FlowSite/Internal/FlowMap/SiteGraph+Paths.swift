import Foundation

/// A way through the site's pages, as `graph --from … --to …` prints it: each page in order, with the link taken
/// to reach it.
package struct PagePath: Sendable, Equatable, Encodable {
    package struct Step: Sendable, Equatable, Encodable {
        /// The page's path from the site's root, `/characters/luke-skywalker/`.
        package var path: String
        package var title: String
        /// The text of the link taken to this page; `nil` for the first.
        package var label: String?
        /// How that link is presented; `nil` for the first.
        package var presentation: String?
    }

    package var steps: [Step]
    /// Links followed: one fewer than the pages.
    package var taps: Int { steps.count - 1 }

    private enum CodingKeys: String, CodingKey { case taps, steps }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(taps, forKey: .taps)
        try container.encode(steps, forKey: .steps)
    }

    /// `{"taps": …, "steps": [{"path", "title", "label", "presentation"}, …]}`, for tools.
    package var json: String { FlowJSON.encode(self) }

    /// "Home (/) → 'Luke Skywalker' (push) → Luke Skywalker (/characters/luke-skywalker/)", one line per link.
    package var text: String {
        guard let first = steps.first else { return "" }
        var lines = ["\(first.title) (\(first.path))"]
        for step in steps.dropFirst() {
            lines.append("  → '\(step.label ?? "")' (\(step.presentation ?? "")) → \(step.title) (\(step.path))")
        }
        return lines.joined(separator: "\n")
    }
}

extension SiteGraph {
    /// Which pages a query names: a page path (`/planets/tatooine/`), else a screen kind's id (`planets-detail`).
    /// `nil` when it names neither.
    package func pages(named query: String) -> [Int]? {
        if query.hasPrefix("/") {
            let wanted = query.hasSuffix("/") || query.hasSuffix(".html") ? query : query + "/"
            return table.index(ofPath: RoutePath(parsing: wanted)).flatMap { found in
                table.path(of: found).description == wanted ? [found] : nil
            }
        }
        guard let kind = flow.kinds.firstIndex(where: { $0.id == query }) else { return nil }
        return table.routes.indices.filter { flow.kindOfRoute[$0] == Int32(kind) }
    }

    /// The screen kinds' ids, for an error that names what a query may be.
    package var kindIDs: [String] { flow.kinds.map(\.id) }

    /// The shortest way from any of `sources` to any of `targets` (route indices) over every link the walk kept
    /// (``SiteWalker/keepsEdges``), and the tab bar's on every page but a dialog: a breadth-first search from the
    /// sources in discovery order, each page's links in reading order, so the same app always gives the same way.
    /// `nil` when no link leads there.
    package func shortestPath(from sources: [Int], to targets: [Int]) -> PagePath? {
        let wanted = Set(targets)
        var next: [R: [Int]] = [:]
        for (offset, edge) in edges.enumerated() { next[edge.from, default: []].append(offset) }
        // How each page was reached: the edge taken from which page (a tab's edge names the start page as its
        // source), or -1 for a source.
        var reachedBy: [Int: (edge: Int, from: Int)] = [:]
        var queue: [Int] = []
        for source in sources where reachedBy[source] == nil {
            reachedBy[source] = (-1, -1)
            queue.append(source)
        }
        var head = 0
        var found = queue.first { wanted.contains($0) }
        while found == nil, head < queue.count {
            let page = queue[head]
            head += 1
            // The tab bar is on every page but a dialog, though the walk took its tabs from the start page alone.
            let tabs = table.presentation(of: page) == .modal || page == 0 ? [] : tabEdges
            for offset in (next[table.routes[page]] ?? []) + tabs {
                let target = Int(edgeTargets[offset])
                guard target >= 0, reachedBy[target] == nil else { continue }
                reachedBy[target] = (offset, page)
                if wanted.contains(target) {
                    found = target
                    break
                }
                queue.append(target)
            }
        }
        guard var page = found else { return nil }
        var steps: [PagePath.Step] = []
        while true {
            let (edge, from) = reachedBy[page]!
            let route = table.routes[page]
            steps.append(
                PagePath.Step(
                    path: table.path(of: page).description, title: title(of: route),
                    label: edge < 0 ? nil : edges[edge].label,
                    presentation: edge < 0 ? nil : edges[edge].presentation.rawValue))
            guard edge >= 0 else { break }
            page = from
        }
        return PagePath(steps: steps.reversed())
    }
}
