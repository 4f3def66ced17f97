import FlowSiteUtilities

/// One page's step, the same in a full build and in an edit: its Markdown, the fingerprint of what it says, and
/// its HTML unless the file it would make is already current, with what the page leaves for the indexes.
struct PageStep<R: Route>: Sendable {
    let renderer: PageRenderer<R>
    let phases: PhaseClock
    /// What every page's bytes depend on besides its own state.
    let buildKey: StableHash
    let search: SiteSearch<R>?

    /// What the step made of a page.
    struct Made {
        /// The build key and the content: the page file's fingerprint.
        var fingerprint: StableHash
        /// `nil` when the file was current.
        var html: [UInt8]?
        var products: PageProducts<R>
    }

    /// Makes `visit`'s page (its file named `file`). `isCurrent` is asked, with the file's fingerprint and the
    /// fingerprint of what the page says, whether the file is already what it would be; when it is not, the page
    /// is rendered and `write` is called with its HTML and fingerprint.
    ///
    /// A page with thousands of links makes megabytes of Markdown and HTML, and cmark's tree ten times that: such
    /// pages go one at a time, so memory is bounded by one of them.
    func make(
        _ visit: PageVisit<R>, file: String, isCurrent: (_ fingerprint: StableHash, _ content: StableHash) -> Bool,
        write: ([UInt8], StableHash) throws -> Void
    ) throws -> Made {
        var siteFiles: [String] = []
        var html: [UInt8]?
        var content = StableHash()
        var fingerprint = buildKey
        let heavy = visit.page.document.routes.count >= HeavyPages.links
        try HeavyPages.one(if: heavy) {
            let markdown: PageMarkdown
            (markdown, content) = phases.measure(.markdown) {
                let markdown = renderer.markdown(of: visit) { siteFiles.append($0) }
                return (markdown, Self.contentFingerprint(of: visit, markdown: markdown))
            }
            fingerprint.combine(content)
            if !isCurrent(fingerprint, content) {
                try HeavyPages.one(if: !heavy && markdown.bytes.count >= HeavyPages.bytes) {
                    let bytes = try renderer.render(visit, markdown: markdown, phases: phases)
                    try write(bytes, fingerprint)
                    html = bytes
                }
            }
        }
        let products = PageProducts(visit, file: file, search: search, content: content, siteFiles: siteFiles)
        return Made(fingerprint: fingerprint, html: html, products: products)
    }

    /// A page's state: what its bytes depend on besides the build key.
    static func contentFingerprint(of visit: PageVisit<R>, markdown: PageMarkdown) -> StableHash {
        var hash = StableHash()
        hash.combine(visit.path.description)
        hash.combine(visit.page.title)
        hash.combine(visit.page.summary ?? "\u{0}")
        for (name, value) in visit.page.templateValues.sorted(by: { $0.key < $1.key }) {
            hash.combine(name)
            hash.combine(value)
        }
        for crumb in visit.breadcrumbs {
            hash.combine(crumb.title)
            hash.combine(crumb.path.description)
        }
        hash.combine(visit.presentation.rawValue)
        for text in visit.fallbackTexts { hash.combine(text) }
        if let presenter = visit.presenter {
            hash.combine(presenter.title)
            hash.combine(presenter.path.description)
        }
        markdown.bytes.withUnsafeBytes { bytes in
            for chunk in markdown.chunks {
                hash.combine(chunk.style?.name ?? "\u{0}")
                hash.combine(UnsafeRawBufferPointer(rebasing: bytes[chunk.range]))
            }
        }
        return hash
    }
}

/// What a page leaves besides its file.
struct PageProducts<R: Route>: Sendable {
    var page: BuildStep.BuiltPage
    var search: SiteSearch<R>.Entry?
    var content: StableHash
    var siteFiles: [String]

    /// `file` is the visit path's file, made once by the caller.
    init(_ visit: PageVisit<R>, file: String, search: SiteSearch<R>?, content: StableHash, siteFiles: [String]) {
        page = BuildStep.BuiltPage(
            path: file, title: visit.page.title, summary: visit.page.summary, isDialog: visit.presentation == .modal)
        // A tab root's dialog copy is found in search as its tab.
        self.search = visit.isDialogCopy ? nil : search?.entry(for: visit.route, page: visit.page)
        self.content = content
        self.siteFiles = siteFiles
    }
}
