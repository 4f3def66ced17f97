import Foundation

extension FlowLintReport {
    /// The report for a terminal: the counts per rule, then each rule's findings (the first `limit`, if given) with
    /// kind, example page and location, then suppressed findings with their reasons. Locations are editor paths
    /// from `sourceRoot` when the file lies below it (``CodeLocation/editorPath(relativeTo:)``).
    public func text(limit: Int? = nil, sourceRoot: String? = nil) -> String {
        text(limit: limit, sourceRoot: sourceRoot, seeAll: "pass no limit to list all")
    }

    /// ``text(limit:sourceRoot:)`` whose "… and N more" lines end with `seeAll`, such as the command line's option.
    package func text(limit: Int?, sourceRoot: String?, seeAll: String) -> String {
        let limit = limit.map { max(0, $0) }
        var lines = [summaryLine]
        for rule in FlowLintRule.all {
            let found = active.filter { $0.rule == rule }
            guard !found.isEmpty else { continue }
            lines.append("")
            lines.append("\(rule.level.rawValue): \(rule.id) (\(found.count)): \(rule.summary)")
            for finding in found.prefix(limit ?? found.count) {
                lines.append("  - \(finding.message)")
                if let location = finding.location {
                    lines.append("    at \(location.editorPath(relativeTo: sourceRoot)):\(location.line)")
                }
            }
            if let cut = Self.leftOut(found.count, limit, seeAll) { lines.append("  " + cut) }
            lines.append("  \(rule.help)")
        }
        let suppressed = findings.filter { !$0.isActive }
        if !suppressed.isEmpty {
            lines.append("")
            lines.append("Suppressed (\(suppressed.count)):")
            for finding in suppressed.prefix(limit ?? suppressed.count) {
                lines.append(
                    "  - \(finding.rule.id)\(finding.kind.map { " on \($0.id)" } ?? ""): \(finding.suppression ?? "")")
            }
            if let cut = Self.leftOut(suppressed.count, limit, seeAll) { lines.append("  " + cut) }
        }
        if let coverage {
            lines.append("")
            lines.append(contentsOf: Self.coverageLines(coverage))
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append(contentsOf: notes.map { "Note: \($0)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "… and 3 more (pass no limit to list all)" when `limit` leaves out some of `count` lines.
    private static func leftOut(_ count: Int, _ limit: Int?, _ seeAll: String) -> String? {
        guard let limit, count > limit else { return nil }
        return "… and \(count - limit) more (\(seeAll))"
    }

    /// The flow coverage part of ``text(limit:sourceRoot:)``: per flow, how many transitions the tests take.
    private static func coverageLines(_ coverage: [FlowGraph.Coverage.FlowCount]) -> [String] {
        let total = coverage.reduce(0) { $0 + $1.total }
        let tested = coverage.reduce(0) { $0 + $1.tested }
        var lines = ["Flow coverage: tests take \(tested) of \(total) transitions"]
        for flow in coverage where flow.total > 0 {
            lines.append("  \(flow.flow): \(flow.tested) of \(flow.total)")
            for transition in flow.untested {
                lines.append(
                    "    untested: \(transition.isTabOnly ? FlowGraph.Coverage.tabBar : transition.from) → "
                        + "\(transition.to) (\(transition.presentation.rawValue)), "
                        + Wording.english("countLinks", count: transition.links))
            }
        }
        return lines
    }

    /// Every finding as JSON, for tools: the rules, the counts, and each finding in full. Locations are `path:line`
    /// as ``text(limit:sourceRoot:)`` prints them, so a finding reads alike in every format.
    public func json(sourceRoot: String? = nil) -> String {
        struct Document: Encodable {
            struct Rule: Encodable { let id, level, summary, help: String }
            struct Page: Encodable { let path, title, route: String }
            struct Finding: Encodable {
                let rule, level: String
                let kind: String?
                let kindName: String?
                let message: String
                let count: Int
                let examples: [Page]
                let location: String?
                let suppressed: String?
            }
            struct Summary: Encodable { let errors, warnings, notes, suppressed: Int }
            struct Transition: Encodable {
                let from, to, presentation: String
                let links: Int
            }
            struct Coverage: Encodable {
                let flow: String
                let tested, total: Int
                let untested: [Transition]
            }
            let rules: [Rule]
            let summary: Summary
            let maximumClickDepth: Int
            let findings: [Finding]
            let notes: [String]
            /// Per flow, when flow coverage was given.
            let coverage: [Coverage]?
        }
        let document = Document(
            rules: FlowLintRule.all.map {
                .init(id: $0.id, level: $0.level.rawValue, summary: $0.summary, help: $0.help)
            },
            summary: .init(
                errors: count(.error), warnings: count(.warning), notes: count(.note),
                suppressed: findings.count - active.count),
            maximumClickDepth: configuration.maximumClickDepth,
            findings: findings.map { finding in
                .init(
                    rule: finding.rule.id, level: finding.rule.level.rawValue, kind: finding.kind?.id,
                    kindName: finding.kind?.name,
                    message: finding.message, count: finding.count,
                    examples: finding.examples.map {
                        .init(path: $0.path.description, title: $0.title, route: $0.route)
                    },
                    location: finding.location.map { "\($0.editorPath(relativeTo: sourceRoot)):\($0.line)" },
                    suppressed: finding.suppression
                )
            },
            notes: notes,
            coverage: coverage?.map { flow in
                Document.Coverage(
                    flow: flow.flow, tested: flow.tested, total: flow.total,
                    untested: flow.untested.map {
                        Document.Transition(
                            from: $0.from, to: $0.to, presentation: $0.presentation.rawValue, links: $0.links)
                    })
            }
        )
        return FlowJSON.encode(document)
    }

    /// The report as a SARIF 2.1.0 log for code-review tools: one result per finding, at its source line under
    /// `SRCROOT` (or by module and file), with a stable fingerprint of rule and kind to follow it across runs.
    public func sarif(toolName: String, version: String, informationURI: String? = nil, sourceRoot: String?) -> String {
        struct Log: Encodable {
            let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
            let version = "2.1.0"
            let runs: [Run]
            enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
        }
        struct Text: Encodable { let text: String }
        struct Run: Encodable {
            let tool: Tool
            let originalUriBaseIds: [String: Artifact]?
            let results: [Result]
        }
        struct Tool: Encodable { let driver: Driver }
        struct Driver: Encodable {
            let name, version: String
            let informationUri: String?
            let rules: [Rule]
        }
        struct Rule: Encodable {
            let id: String
            let shortDescription, fullDescription, help: Text
            let defaultConfiguration: Configuration
        }
        /// `enabled` is written only for a rule that is off by default.
        struct Configuration: Encodable {
            let level: String
            let enabled: Bool?
        }
        struct Artifact: Encodable {
            let uri: String
            let uriBaseId: String?
        }
        struct Result: Encodable {
            let ruleId: String
            let ruleIndex: Int
            let level: String
            let message: Text
            let locations: [Location]?
            let partialFingerprints: [String: String]
            let suppressions: [Suppression]?
            let properties: Properties
        }
        struct Location: Encodable {
            let physicalLocation: PhysicalLocation?
            let logicalLocations: [LogicalLocation]?
        }
        struct PhysicalLocation: Encodable {
            let artifactLocation: Artifact
            let region: Region
        }
        struct Region: Encodable { let startLine: Int }
        struct LogicalLocation: Encodable { let name, kind: String }
        struct Suppression: Encodable { let kind, justification: String }
        struct Properties: Encodable {
            let screenKind: String?
            let pages: Int
            let examples: [String]
        }
        let root = sourceRoot.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        let results = findings.map { finding -> Result in
            var locations: [Location] = []
            if let location = finding.location {
                let relative = root.flatMap { location.path(relativeTo: $0) }
                let artifact =
                    relative.map { Artifact(uri: Self.uriPath($0), uriBaseId: "SRCROOT") }
                    ?? Artifact(uri: Self.uriPath(location.fileID), uriBaseId: nil)
                locations.append(
                    Location(
                        physicalLocation: PhysicalLocation(
                            artifactLocation: artifact, region: Region(startLine: max(1, location.line))),
                        logicalLocations: nil))
            }
            if let kind = finding.kind {
                if locations.isEmpty {
                    locations.append(
                        Location(
                            physicalLocation: nil, logicalLocations: [LogicalLocation(name: kind.id, kind: "type")]))
                }
            }
            return Result(
                ruleId: finding.rule.id, ruleIndex: FlowLintRule.all.firstIndex(of: finding.rule)!,
                level: finding.rule.level.rawValue,
                message: Text(text: finding.message), locations: locations.isEmpty ? nil : locations,
                partialFingerprints: ["flowFinding/v1": finding.rule.id + "/" + (finding.kind?.id ?? "-")],
                suppressions: finding.suppression.map { [Suppression(kind: "external", justification: $0)] },
                properties: Properties(
                    screenKind: finding.kind?.id, pages: finding.count,
                    examples: finding.examples.map(\.path.description))
            )
        }
        let run = Run(
            tool: Tool(
                driver: Driver(
                    name: toolName, version: version, informationUri: informationURI,
                    rules: FlowLintRule.all.map {
                        Rule(
                            id: $0.id, shortDescription: Text(text: $0.summary),
                            fullDescription: Text(text: $0.summary), help: Text(text: $0.help),
                            defaultConfiguration: Configuration(
                                level: $0.level.rawValue, enabled: $0.isOnByDefault ? nil : false))
                    }
                )),
            originalUriBaseIds: root.map { ["SRCROOT": Artifact(uri: Self.fileURI($0), uriBaseId: nil)] },
            results: results
        )
        return FlowJSON.encode(Log(runs: [run]))
    }

    /// A relative path as a URI reference: each segment percent-encoded.
    private static func uriPath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;?#"))) ?? String($0)
        }.joined(separator: "/")
    }

    /// `file:///abs/path/` for a folder.
    private static func fileURI(_ folder: String) -> String {
        "file://" + uriPath(folder.hasPrefix("/") ? folder : "/" + folder)
    }
}

/// Pretty, key-sorted JSON without escaped slashes: the same bytes for the same value.
enum FlowJSON {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Plain strings, numbers and arrays always encode.
        let data = (try? encoder.encode(value)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
