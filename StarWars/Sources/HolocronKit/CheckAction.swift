@_spi(Engine) import FlowSite
import Foundation

/// Everything `holocron check` does, as a value: builds the site afresh into a temporary
/// folder (link check included) and compares it with the built site file by file.
public struct CheckAction: Sendable {
    /// The built site to check.
    public var site: URL
    /// The build that should have made it; its output is replaced by a temporary folder.
    public var build: BuildAction

    public init(site: URL, build: BuildAction) {
        self.site = site
        self.build = build
    }

    /// The outcome: the fresh build's report and how the site differs from it.
    public struct Result: Sendable {
        /// The fresh build.
        public let report: BuildReport
        /// One line per changed, missing or extra file; empty when the site is up to date.
        public let differences: [String]
        public var isUpToDate: Bool { differences.isEmpty }
    }

    /// Builds and compares; the site itself is never written.
    /// - Throws: what the build throws (bad data, broken links…), or a folder that can't be read.
    public func run() async throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("holocron-check-\(UUID().uuidString)")
        defer { try? SiteStaging.removeTree(at: scratch.path) }
        var build = build
        build.output = scratch
        build.force = true
        let report = try await build.run()
        let difference = try SiteDifference(expected: scratch, actual: site)
        return Result(report: report, differences: difference.lines())
    }
}
