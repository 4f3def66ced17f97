import Foundation

/// The app's flow as a build leaves it (`.flowsite-flow.json`) and the `.flow` snapshot stores it: kinds,
/// transitions and active lint findings, and in a build's the journeys. No source lines, so moving code does not
/// make two flows differ. A build that draws the flow map also keeps where the map drew each kind's box, which
/// `diff` draws the old kinds at.
package struct FlowRecord: Codable, Sendable, Equatable {
    package struct Kind: Codable, Sendable, Equatable {
        package var id: String
        package var name: String
        package var flow: String
        package var pages: Int
        /// Where the flow map's first page drew the kind; none without a map (and in the `.flow` snapshot).
        package var box: Box?
    }

    /// A box's centre and size in the map's points, to a tenth, as the map draws them.
    package struct Box: Codable, Sendable, Equatable {
        package var x: Double
        package var y: Double
        package var width: Double
        package var height: Double

        package init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (
                Self.tenth(x), Self.tenth(y), Self.tenth(width), Self.tenth(height)
            )
        }

        private static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    }

    package struct Transition: Codable, Sendable, Equatable {
        package var from: String
        package var to: String
        package var presentation: String
        package var links: Int
    }

    package struct Finding: Codable, Sendable, Equatable, Hashable {
        package var rule: String
        package var kind: String?
        package var message: String
    }

    /// A newer FlowSite may write a higher one.
    package var format = 1
    package var kinds: [Kind]
    package var transitions: [Transition]
    package var findings: [Finding]
    /// The journeys a build took (``FlowGraph/journeys``), which `diff` reports first; none in the `.flow`
    /// snapshot, nor in a record written before journeys were.
    package var journeys: [JourneyRecord]?

    package init(kinds: [Kind], transitions: [Transition], findings: [Finding]) {
        self.kinds = kinds
        self.transitions = transitions
        self.findings = findings
    }

    /// `boxes`, when given, are the kinds' on the map, in the graph's order.
    package init(graph: FlowGraph, lint: FlowLintReport?, boxes: [Box]? = nil) {
        let boxes = boxes?.count == graph.kinds.count ? boxes : nil
        kinds = graph.kinds.enumerated().map { index, kind in
            Kind(id: kind.id, name: kind.kind.name, flow: kind.kind.flow, pages: kind.pages, box: boxes?[index])
        }
        transitions = graph.transitions.map {
            Transition(from: $0.from, to: $0.to, presentation: $0.presentation.rawValue, links: $0.links)
        }
        findings = (lint?.active ?? []).map { Finding(rule: $0.rule.id, kind: $0.kind?.id, message: $0.message) }
    }

    /// Sorted keys, one field per line: the same bytes on every machine.
    package func json() -> String { FlowJSON.encode(self) }

    /// Reads a record written by ``json()``.
    /// - Throws: ``FlowSiteError`` naming `source` when the text is not a flow record.
    package init(json data: Data, source: String) throws {
        do {
            self = try JSONDecoder().decode(FlowRecord.self, from: data)
        } catch {
            throw FlowSiteError(
                .siteUnreadable(
                    path: source,
                    message:
                        "not a flow record (\(Self.describe(error))); rebuild the site with this version of FlowSite"))
        }
    }

    /// The kind with `id`, if any.
    package func kind(_ id: String) -> Kind? { kinds.first { $0.id == id } }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}
