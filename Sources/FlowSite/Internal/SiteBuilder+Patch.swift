import Foundation
import Synchronization

extension SiteBuilder {
    /// Writes an edit into the private preview at `output` in place (see ``patchesInPlace``):
    /// the pages that read a changed input are made again; when every one of them leads where
    /// it led (the same title and links), no other page moves, and only the files whose bytes
    /// changed are written: those pages, and the search index and page index when what they
    /// list of them changed. `nil` when the edit moves a page (or can't be patched): then it
    /// is built as a new generation, and nothing was written nor remembered.
    ///
    /// On success `pages` is this build's memory. A throw leaves the site as it was, and
    /// `pages` half updated: the caller forgets it.
    func patch(
        _ output: URL, from pages: BuildMemory<C.R>.Pages, changedInputs: Set<InputKey>, renderer: PageRenderer<C.R>,
        buildKey: StableHash, lint configuration: FlowLintConfiguration, started: ContinuousClock.Instant
    ) async throws -> BuildReport? {
        guard var written = pages.written, var graph = pages.graph else { return nil }
        let touched = pages.walk.routes(reading: changedInputs)
        guard touched.count <= Self.patchLimit(pages: graph.routes.count) else { return nil }
        let phases = PhaseClock()
        var walker = SiteWalker(coordinator: coordinator, concurrency: concurrency, keepsEdges: false)
        walker.phases = phases
        walker.memory = pages.walk
        walker.previous = (pages.walk, changedInputs)
        let search = coordinator.search
        // Each page made again: what it leaves, and its HTML when what it says changed.
        let remade = Mutex<[(route: C.R, products: BuildMemory<C.R>.Products, html: [UInt8]?)]>([])
        let leadsAsBefore = try await walker.remake(touched, in: &graph) { visit in
            var siteFiles: [String] = []
            let markdown = phases.measure(.markdown) {
                renderer.markdown(of: visit.page.document, at: visit.route.path) { siteFiles.append($0) }
            }
            let content = Self.contentFingerprint(of: visit, markdown: markdown)
            let html = pages.products(visit.route)?.content == content ? nil : try renderer.render(visit, markdown: markdown, phases: phases)
            let files = visit.page.files.sorted(by: { $0.key < $1.key })
            for (name, _) in files { try Page<C.R>.checkFileName(name, route: "\(visit.route)") }
            let products = BuildMemory<C.R>.Products(visit, search: search, content: content, siteFiles: siteFiles, files: files)
            remade.withLock { $0.append((visit.route, products, html)) }
        }
        guard leadsAsBefore else { return nil }
        let made = remade.withLock { $0 }

        var files: [(path: String, bytes: [UInt8])] = []
        var removed: [String] = []
        var contentChanged = false
        var summaryChanged = false
        var byPath: [String: Int] = [:]
        for (offset, page) in made.enumerated() {
            let path = page.products.page.path
            byPath[path] = offset
            if let html = page.html {
                files.append((path, html))
                contentChanged = true
            }
            let before = pages.products(page.route)?.files ?? []
            for (name, contents) in page.products.files where !before.contains(where: { $0.key == name && $0.value == contents }) {
                files.append((page.route.path.directory + name, Array(contents)))
            }
            // A file the page wrote and no longer writes goes, as a full build would leave it out.
            for (name, _) in before where !page.products.files.contains(where: { $0.key == name }) {
                removed.append(page.route.path.directory + name)
            }
        }
        // What the search index and the page index list of the pages made again.
        for position in written.made.indices {
            guard let offset = byPath[written.made[position].path] else { continue }
            let page = made[offset].products.page
            if page.summary != written.made[position].summary { summaryChanged = true }
            written.made[position] = page
        }
        for page in made {
            let path = page.products.page.path
            // The first entry not before `path`.
            var (position, end) = (0, written.index.count)
            while position < end {
                let middle = (position + end) / 2
                if written.index[middle].path < path { position = middle + 1 } else { end = middle }
            }
            if position < written.index.count, written.index[position].path == path {
                written.index[position].content = page.products.content
            }
        }
        if let search, search.summaries, summaryChanged {
            let index = phases.measure(.steps) { SiteSearch<C.R>.json(written.searchEntries, pages: written.made, summaries: true) }
            files.append((search.indexPath, index))
        }
        let (flow, lint) = try flowAndLint(of: graph, configuration: configuration, phases: phases)
        let record = Array(FlowRecord(graph: flow, lint: lint).json().utf8)
        if record != written.flowRecord {
            files.append((FlowRecord.fileName, record))
            written.flowRecord = record
        }
        if contentChanged {
            let kinds = flow.kinds.map(\.id)
            let index = written.index
            files.append((PageIndex.fileName, PageIndex.bytes(count: index.count) { index[$0].path } kind: { kinds[Int(index[$0].kind)] } content: { index[$0].content }))
        }
        // Route links lead to pages by construction, and the templates' links are as they were:
        // what is left are the links to site files of the pages made again.
        let writer = SiteWriter(output: output, force: force)
        let writing = Set(files.map(\.path))
        var broken: [(String, String)] = []
        for page in made {
            for link in page.products.siteFiles where !writing.contains(link) && (removed.contains(link) || !writer.holds(link)) {
                broken.append((page.products.page.path, link))
            }
        }
        if !broken.isEmpty { throw FlowSiteError(.brokenLinks(broken)) }
        let patched = try phases.measure(.write) { try writer.patch(files, removing: removed) }

        for page in made { pages.keep(page.route, page.products) }
        pages.graph = graph
        written.bytes += patched.byteChange
        written.files += patched.created - patched.removed
        pages.written = written
        var report = BuildReport(
            pages: graph.routes.count,
            rendered: made.count(where: { $0.html != nil }),
            edges: graph.edgeCount,
            links: written.links,
            files: written.files,
            bytes: written.bytes,
            unchangedFiles: written.files - patched.files,
            warnings: graph.recovered.map { "\($0.route): \($0.error)" },
            duration: ContinuousClock.now - started,
            timings: phases.seconds,
            sitemap: baseURL != nil,
            flow: flow,
            flowLint: lint
        )
        report.replayed = graph.routes.count - made.count
        report.patched = true
        return report
    }
}
