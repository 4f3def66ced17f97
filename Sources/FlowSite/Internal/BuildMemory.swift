import Foundation
import Synchronization

/// What builds into one output learnt of their pages, kept from one build to the next (see
/// ``SiteBuilder/memory``).
@_spi(Engine) public final class BuildMemory<R: Route>: Sendable {
    private let last = Mutex<Pages?>(nil)

    @_spi(Engine) public init() {}

    /// How many pages the last successful build left, for tests and reports.
    @_spi(Engine) public var pageCount: Int { last.withLock { $0?.walk.count ?? 0 } }

    func take() -> Pages? { last.withLock { last in defer { last = nil }; return last } }
    func keep(_ pages: Pages) { last.withLock { $0 = pages } }

    /// One build's pages: the walk's side and the builder's.
    final class Pages: Sendable {
        let buildKey: StableHash
        let walk: WalkMemory<R>
        private let made: Mutex<[R: Products]>
        private let walked = Mutex<SiteGraph<R>?>(nil)
        private let wrote = Mutex<Written?>(nil)

        /// The graph of the build that left these pages, once it succeeded.
        var graph: SiteGraph<R>? {
            get { walked.withLock { $0 } }
            set { walked.withLock { $0 = newValue } }
        }

        /// What the build that left these pages wrote besides their files, once it succeeded.
        var written: Written? {
            get { wrote.withLock { $0 } }
            set { wrote.withLock { $0 = newValue } }
        }

        init(buildKey: StableHash, capacity: Int) {
            self.buildKey = buildKey
            walk = WalkMemory(capacity: capacity)
            made = Mutex(Dictionary(minimumCapacity: capacity))
        }

        func products(_ route: R) -> Products? { made.withLock { $0[route] } }
        func keep(_ route: R, _ products: Products) { made.withLock { $0[route] = products } }

        /// Forgets every page but those of `routes`.
        func keepOnly(_ routes: Set<R>) {
            walk.keepOnly(routes)
            made.withLock { made in made = made.filter { routes.contains($0.key) } }
        }
    }

    /// What a build wrote besides its pages' files, from the pages' records: what an edit
    /// patched in place (``SiteBuilder/patchesInPlace``) needs to write the search index and
    /// the page index again, and to report on the whole site.
    struct Written: Sendable {
        /// Every page, in the order the build made them (the search entries point into it).
        var made: [(path: String, title: String, summary: String?, isDialog: Bool)]
        var searchEntries: [SiteSearch<R>.Entry]
        /// Every page's file, kind and content fingerprint, sorted by path.
        var index: [(path: String, kind: Int32, content: StableHash)]
        /// The flow record's bytes.
        var flowRecord: [UInt8]
        var files: Int
        var bytes: Int
        var links: Int
    }

    /// What a page left besides its file.
    struct Products: Sendable {
        var page: (path: String, title: String, summary: String?, isDialog: Bool)
        var search: SiteSearch<R>.Entry?
        var content: StableHash
        var siteFiles: [String]
        var files: [(key: String, value: Data)]

        /// What the page of `visit` leaves, whose content has the fingerprint `content`; `file`
        /// is its path's file when the caller made it already (one String for both: a second
        /// copy of each page's path would be held to the end of the build).
        init(
            _ visit: PageVisit<R>, file: String? = nil, search: SiteSearch<R>?, content: StableHash, siteFiles: [String], files: [(key: String, value: Data)]
        ) {
            page = (path: file ?? visit.route.path.file, title: visit.page.title, summary: visit.page.summary, isDialog: visit.presentation == .modal)
            self.search = search?.entry(for: visit.route, page: visit.page)
            self.content = content
            self.siteFiles = siteFiles
            self.files = files
        }
    }
}
