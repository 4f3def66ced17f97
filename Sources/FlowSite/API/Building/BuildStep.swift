import FlowSiteUtilities
import Foundation
import Logging

/// One step of a build, run after every page is written and before the link check: write a feed, a manifest,
/// a page the app's screens don't make. An error a step throws fails the build and names the step.
///
/// ```swift
/// let feed = BuildStep("feed") { context in
///     let items = context.pages.map { "<item><title>\($0.title)</title></item>" }
///     try context.write(Data(("<rss>" + items.joined() + "</rss>").utf8), to: "feed.xml")
/// }
/// let builder = SiteBuilder(coordinator: app, steps: [feed])
/// ```
public struct BuildStep: Sendable {
    /// The step's name, for the log and for errors.
    public let name: String
    private let body: @Sendable (Context) async throws -> Void

    /// A step called `name` that runs `body`.
    public init(_ name: String, _ body: @escaping @Sendable (Context) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// A page the build made, as a step sees it.
    public struct BuiltPage: Sendable, Hashable {
        /// Its file, from the site's (or language's) root: `characters/luke-skywalker/index.html`.
        public var path: String
        /// Its title.
        public var title: String
        /// Its summary, for a description or a list entry.
        public var summary: String?
        /// Whether the app presents it as a dialog.
        public var isDialog: Bool

        /// The page whose file is `path`.
        public init(path: String, title: String, summary: String?, isDialog: Bool) {
            self.path = path
            self.title = title
            self.summary = summary
            self.isDialog = isDialog
        }
    }

    /// What a step can see of the build and how it adds files.
    public struct Context: Sendable {
        /// Every page the build made, in path order.
        public let pages: [BuiltPage]
        /// The site's name.
        public let siteName: String
        /// The absolute URL the site is served from, with a trailing slash, if known.
        public let baseURL: String?
        let staging: SiteStaging
        /// The language's folder in a multilingual site (`es/`), or empty: every path is from that language's root.
        var folder = ""

        /// The pages the steps write, by path from the site root, kept for the link check as they are written
        /// so that it need not read them back.
        let writtenPages = Locked<[(path: String, html: [UInt8])]>([])

        /// Writes a file into the new site at `path` (from the site root; no `.` or `..` components).
        /// - Throws: ``FlowSiteError`` when the path would leave the site or writing fails.
        public func write(_ data: Data, to path: String) throws {
            try staging.write(data, to: folder + path)
            if path.hasSuffix(".html") { keep(Array(data), at: path) }
        }

        /// Writes bytes without copying them into `Data` first.
        func write(_ bytes: [UInt8], to path: String) throws {
            try staging.write(bytes, to: folder + path, fingerprint: nil)
            if path.hasSuffix(".html") { keep(bytes, at: path) }
        }

        /// Writes a file that `produce` makes a piece at a time, without holding it whole (but a page, which the
        /// link check reads).
        func write(to path: String, _ produce: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws
        {
            guard path.hasSuffix(".html") else { return try staging.write(to: folder + path, produce) }
            var html: [UInt8] = []
            try staging.write(to: folder + path) { emit in
                try withoutActuallyEscaping(emit) { emit in
                    try produce { piece in
                        html.append(contentsOf: piece)
                        try emit(piece)
                    }
                }
            }
            keep(html, at: path)
        }

        private func keep(_ html: [UInt8], at path: String) {
            writtenPages.withLock { $0.append((folder + path, html)) }
        }
    }

    /// Runs `steps` in order, tagging any error with its step.
    static func run(_ steps: [BuildStep], in context: Context, logger: Logger) async throws {
        for (number, step) in steps.enumerated() {
            logger.debug("[\(number + 1)/\(steps.count)] \(step.name)")
            do {
                try await step.body(context)
            } catch {
                throw FlowSiteError(.stepFailed(step: step.name, error: error))
            }
        }
    }
}
