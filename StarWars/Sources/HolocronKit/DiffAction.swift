@_spi(Engine) import FlowSite
import Foundation

/// Everything `holocron diff` does, as a value: compares two built sites, or builds both sides
/// first from two data or template folders, and formats the report.
package struct DiffAction: Sendable {
    /// The report's formats.
    package enum Format: String, Sendable, CaseIterable {
        case text, markdown, json
    }

    /// One side of the comparison.
    package enum Side: Sendable {
        /// A folder `holocron build` made.
        case site(URL)
        /// A site to build first, from a data folder (`nil`: the embedded data) and a templates
        /// folder (`nil`: the built-in templates).
        case build(data: URL?, templates: URL?)
    }

    package var old: Side
    package var new: Side
    package var format: Format
    package var options: SiteComparison.ReportOptions

    package init(old: Side, new: Side, format: Format = .text, options: SiteComparison.ReportOptions = .init()) {
        self.old = old
        self.new = new
        self.format = format
        self.options = options
    }

    /// The comparison and the report. Sides that are built are built into a temporary folder,
    /// removed afterwards.
    package func run() async throws -> (comparison: SiteComparison, report: String) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("holocron-diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let oldFolder = try await folder(for: old, at: scratch.appendingPathComponent("old"))
        let newFolder = try await folder(for: new, at: scratch.appendingPathComponent("new"))
        let comparison = try SiteComparison(old: oldFolder, new: newFolder)
        let report = switch format {
        case .text: comparison.text(options)
        case .markdown: comparison.markdown(options)
        case .json: comparison.json()
        }
        return (comparison, report)
    }

    private func folder(for side: Side, at scratch: URL) async throws -> URL {
        switch side {
        case .site(let url):
            return url
        case .build(let data, let templates):
            let action = BuildAction(output: scratch, source: data.map(DataSource.directory) ?? .embedded, templates: templates, quiet: true)
            _ = try await action.run()
            return scratch
        }
    }
}
