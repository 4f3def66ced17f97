import FlowSiteUtilities

extension SiteBuilder {
    /// Every page's Markdown as a build hands it to cmark, with the site file it goes to, sorted by file. The app
    /// is walked with ``templates`` as a build walks it, but nothing is rendered to HTML or written.
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
