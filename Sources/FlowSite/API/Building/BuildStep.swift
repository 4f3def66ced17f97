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

    /// What a step can see of the build and how it adds files.
    public struct Context: Sendable {
        /// Every page the build made, in path order: its file, title, summary, and whether it is a dialog.
        public let pages: [(path: String, title: String, summary: String?, isDialog: Bool)]
        /// The site's name.
        public let siteName: String
        /// The absolute URL the site is served from, with a trailing slash, if known.
        public let baseURL: String?
        let staging: SiteStaging
        /// The language's folder in a multilingual site (`es/`), or empty: every path is from that language's root.
        var folder = ""

        /// Writes a file into the new site at `path` (from the site root; no `.` or `..` components).
        /// - Throws: ``FlowSiteError`` when the path would leave the site or writing fails.
        public func write(_ data: Data, to path: String) throws {
            try staging.write(data, to: folder + path)
        }

        /// Writes bytes without copying them into `Data` first.
        func write(_ bytes: [UInt8], to path: String) throws {
            try staging.write(bytes, to: folder + path, fingerprint: nil)
        }

        /// Writes a file that `produce` makes a piece at a time, without holding it whole.
        func write(to path: String, _ produce: (_ emit: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws
        {
            try staging.write(to: folder + path, produce)
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
