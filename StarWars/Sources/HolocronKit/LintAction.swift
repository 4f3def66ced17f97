@_spi(Engine) import FlowSite
import Foundation
import StarWarsApp

/// Everything `holocron lint` does, as a value: walks the app over the data without writing a
/// site, runs flow lint, and formats the report.
package struct LintAction: Sendable {
    /// The report's formats.
    package enum Format: String, Sendable, CaseIterable {
        case text, json, sarif
    }

    /// Where the data comes from.
    package var source: DataSource
    package var format: Format
    /// Settings over the app's own (from a configuration file and options).
    package var configuration: FlowLintConfiguration?
    /// The folder SARIF locations are relative to (the package's root).
    package var sourceRoot: String?
    package var quiet: Bool

    package init(source: DataSource, format: Format, configuration: FlowLintConfiguration? = nil, sourceRoot: String? = nil, quiet: Bool = false) {
        self.source = source
        self.format = format
        self.configuration = configuration
        self.sourceRoot = sourceRoot
        self.quiet = quiet
    }

    /// The report, and the report formatted.
    package func run() async throws -> (report: FlowLintReport, text: String) {
        let build = BuildAction(output: URL(fileURLWithPath: "/dev/null"), source: source, quiet: quiet)
        let coordinator = try await build.loadApp(logger: build.makeLogger())
        let report = try await FlowLinter(coordinator: coordinator, configuration: configuration).run()
        let text = switch format {
        case .text: report.text(sourceRoot: sourceRoot)
        case .json: report.json()
        case .sarif:
            report.sarif(toolName: "holocron", version: HolocronVersion.current, sourceRoot: sourceRoot)
        }
        return (report, text)
    }
}

/// The version `holocron --version` prints and SARIF logs name.
package enum HolocronVersion {
    package static let current = "0.1.0"
}
