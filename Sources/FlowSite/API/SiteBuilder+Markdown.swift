extension SiteBuilder {
    /// Every page's Markdown as a build hands it to cmark (links resolved as on the page, each
    /// styled section in place), with the site file the build writes it to
    /// (`characters/luke-skywalker/index.html`), sorted by file. The app is walked as a build
    /// walks it, with ``templates``; nothing is rendered to HTML and nothing is written. For
    /// handing the pages to another generator, or timing a Markdown converter on its own.
    public func pageMarkdown() async throws -> [(file: String, markdown: [UInt8])] {
        let renderer = try PageRenderer(templates: templates, site: coordinator.siteInfo)
        let documents = Locked<[(file: String, markdown: [UInt8])]>([])
        _ = try await SiteWalker(coordinator: coordinator, keepsEdges: false).walk { visit in
            let markdown = renderer.markdown(of: visit).bytes
            documents.withLock { $0.append((visit.path.file, markdown)) }
        }
        return documents.withLock { $0 }.sorted { $0.file < $1.file }
    }
}
