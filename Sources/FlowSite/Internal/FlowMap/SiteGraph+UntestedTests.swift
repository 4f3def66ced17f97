import Foundation

/// How flow lint writes the tests of the transitions no test takes (`lint --write-tests`).
package struct TransitionTestOptions: Sendable, Equatable {
    /// The Swift expression that makes the app's root coordinator in the tests' target, such as
    /// `AppCoordinator(dependencies: .mock)`; `nil` for the coordinator type's `init()`.
    package var coordinator: String?
    /// The suite's name, an identifier.
    package var suite: String
    /// The module the tests are compiled in, which they do not import (an app whose routes are in its test target).
    package var module: String?

    package static let defaultSuite = "UntestedTransitionTests"

    package init(coordinator: String? = nil, suite: String = Self.defaultSuite, module: String? = nil) {
        self.coordinator = coordinator
        self.suite = suite
        self.module = module
    }

    /// Whether `name` is an identifier of ASCII letters, digits and underscores and no keyword, as a suite's name
    /// must be.
    package static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            !SwiftSource.keywords.contains(name)
        else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}

extension SiteGraph {
    /// A Swift Testing suite with a test for each transition `coverage` leaves untested, in flow lint's order: it
    /// makes the coordinator (`coordinator` names its type, for the default), starts a `RecordingNavigator` on the
    /// stack of the page the walk first took the transition from, follows that link (selects that tab, for a tab
    /// selection) and expects the step the app showed, with the code that showed it in a comment. A route that
    /// can't be written as Swift gets a comment saying why, instead of a test. Needs the walk's edges.
    func untestedTransitionTests(
        coverage: FlowGraph.Coverage, options: TransitionTestOptions, coordinator: String
    ) -> String {
        let flow = self.flow
        var untested: [(key: UInt64, onlyTabs: Bool)] = []
        for key in flow.transitions.keys.sorted() {
            let transition = flow.transitions[key]!
            let (from, to, presentation) = FlowRecorder.parts(of: key)
            let onlyTabs = transition.tabs > 0 && transition.tabs == transition.links
            if !coverage.covers(
                from: flow.kinds[from].id, to: flow.kinds[to].id, presentation: presentation, onlyTabs: onlyTabs)
            {
                untested.append((key, onlyTabs))
            }
        }
        // Each transition's first link, a tab selection only for a transition of tab selections alone: a test of
        // a tab covers the transition from the tab bar, not from the start page.
        let wanted = Dictionary(untested.map { ($0.key, $0.onlyTabs) }) { first, _ in first }
        let tabs = Set(tabEdges)
        var examples: [UInt64: Int] = [:]
        for offset in edges.indices where edgeTargets[offset] >= 0 {
            guard let source = table.index(of: edges[offset].from) else { continue }
            let key = FlowRecorder.transitionKey(
                from: flow.kindOfRoute[source], to: flow.kindOfRoute[Int(edgeTargets[offset])],
                presentation: edges[offset].presentation)
            if examples[key] == nil, let onlyTabs = wanted[key], onlyTabs == tabs.contains(offset) {
                examples[key] = offset
            }
        }

        let routeType = Self.typeName(R.self)
        let coordinatorModule = Self.moduleName(coordinator)
        let make = options.coordinator ?? "\(Self.unqualified(coordinator))()"
        let effects = [
            make.contains(#/\bawait\b/#) ? "async" : nil, make.contains(#/\btry\b/#) ? "throws" : nil
        ].compactMap { $0 }
        let signature = effects.isEmpty ? "()" : "() " + effects.joined(separator: " ")
        var needs = SwiftSource.Needs()
        /// A route as Swift, or the route and why not.
        func write(_ route: R) throws(UnwritableRoute<R>) -> String {
            do throws(SwiftSource.Unwritable) {
                return try SwiftSource.expression(of: route, needs: &needs)
            } catch {
                throw UnwritableRoute(route: route, reason: error.reason)
            }
        }
        let kindNames = untested.map { key, onlyTabs in
            let (from, to, presentation) = FlowRecorder.parts(of: key)
            return (
                from: onlyTabs ? "Tab bar" : flow.kinds[from].name, to: flow.kinds[to].name, presentation: presentation
            )
        }
        let names = TestNames.make(for: kindNames)
        var tests: [String] = []
        for ((key, onlyTabs), (name, kinds)) in zip(untested, zip(names, kindNames)) {
            let transition = flow.transitions[key]!
            let presentation = kinds.presentation
            let links = transition.links == 1 ? "1 link" : "\(transition.links) links"
            let shown = transition.location.map { ", shown at \($0)" } ?? ""
            var lines = Self.comment("\(kinds.from) → \(kinds.to) (\(presentation), \(links))\(shown)")
            guard let offset = examples[key] else {
                lines += Self.comment("No test: the walk kept no link of it.")
                tests.append(lines.joined(separator: "\n"))
                continue
            }
            let edge = edges[offset]
            let stack = stack(of: edge.from) ?? [edge.from]
            do throws(UnwritableRoute<R>) {
                let source = try write(edge.from)
                let target = try write(edge.to)
                var below: [String] = []
                for route in onlyTabs ? [] : stack.dropLast() { below.append(try write(route)) }
                let action = "NavigationAction(\(SwiftSource.literal(edge.label)), to: target)"
                lines.append("    @Test func \(name)\(signature) {")
                lines.append("        let app = \(make)")
                if !onlyTabs { lines += Self.wrapped("let source: \(routeType) = ", source) }
                lines += Self.wrapped("let target: \(routeType) = ", target)
                lines += Self.wrapped(
                    "let navigator = RecordingNavigator<\(routeType)>(", "stack: [",
                    onlyTabs ? [source] : below + ["source"], "]")
                if onlyTabs {
                    lines += Self.wrapped("navigator.selectTab(", "", [action, "on: app"], ")")
                } else {
                    lines += Self.wrapped("navigator.follow(", "", [action, "from: source", "on: app"], ")")
                }
                lines.append("        #expect(navigator.shown == [.init(target, .\(presentation))])")
                lines.append("    }")
            } catch {
                let path = error.route.path
                let start = table.index(of: edge.from).map { table.path(of: $0) } ?? edge.from.path
                let action = onlyTabs ? "select the tab" : "follow"
                lines += Self.comment(
                    "No test: the route of \(path) (\(error.route.shownName)) can't be written as Swift, as "
                        + "\(error.reason). By hand: start on \(start), \(action) \(SwiftSource.literal(edge.label)) "
                        + "and expect \(edge.to.path) shown as .\(presentation).")
            }
            tests.append(lines.joined(separator: "\n"))
        }

        var imports = Set(["FlowSiteTesting", "Testing"])
        if needs.contains(.foundation) { imports.insert("Foundation") }
        let own = Set([Self.moduleName(R.self), coordinatorModule].compactMap { $0 }).subtracting(
            [options.module].compactMap { $0 })
        var text = """
            // Tests of the transitions no test takes, as flow lint writes them: each follows one link from the page the
            // walk first took it on and expects what the app showed. Give a suite .flowCoverage() to count them.

            """
        text += imports.sorted().map { "import \($0)\n" }.joined()
        if !own.isEmpty { text += "\n" + own.sorted().map { "@testable import \($0)\n" }.joined() }
        text += "\n@Suite struct \(options.suite) {\n"
        text += tests.isEmpty ? "    // Every transition is tested.\n" : tests.joined(separator: "\n\n") + "\n"
        return text + "}\n"
    }

    /// `text` as `//` comment lines of a suite's member, broken between words to fit in 120 columns.
    private static func comment(_ text: String) -> [String] {
        var lines: [String] = []
        var line = "    //"
        for word in SwiftSource.comment(text).split(separator: " ") {
            if line.unicodeScalars.count + 1 + word.unicodeScalars.count > 120, line != "    //" {
                lines.append(line)
                line = "    //"
            }
            line += " " + word
        }
        return lines + [line]
    }

    /// `head` and `value` on one line of a test's body if it fits in 120 columns, else `value` on the next.
    private static func wrapped(_ head: String, _ value: String) -> [String] {
        let line = "        " + head + value
        guard line.unicodeScalars.count > 120 else { return [line] }
        return ["        " + head.trimmingCharacters(in: .whitespaces), "            " + value]
    }

    /// A call, `open` then `items` inside `start` … `end`, on one line if it fits, else its arguments on the next,
    /// else one item a line.
    private static func wrapped(_ open: String, _ start: String, _ items: [String], _ end: String) -> [String] {
        let inside = start + items.joined(separator: ", ") + end + (start.isEmpty ? "" : ")")
        let line = "        " + open + inside
        if line.unicodeScalars.count <= 120 { return [line] }
        if ("            " + inside).unicodeScalars.count <= 120 { return ["        " + open, "            " + inside] }
        guard !start.isEmpty else {
            return ["        " + open]
                + items.enumerated().map { index, item in
                    "            " + item + (index == items.count - 1 ? end : ",")
                }
        }
        return ["        " + open, "            " + start]
            + items.enumerated().map { index, item in "                " + item + (index == items.count - 1 ? "" : ",")
            }
            + ["            " + end + ")"]
    }

    /// A type's name as the tests spell it: without its module, which they import.
    private static func typeName(_ type: Any.Type) -> String { unqualified(String(reflecting: type)) }

    private static func unqualified(_ name: String) -> String {
        guard let dot = name.firstIndex(of: "."), !name[..<dot].contains("<") else { return name }
        return String(name[name.index(after: dot)...])
    }

    private static func moduleName(_ type: Any.Type) -> String? { moduleName(String(reflecting: type)) }

    private static func moduleName(_ name: String) -> String? {
        guard let dot = name.firstIndex(of: "."), !name[..<dot].contains("<") else { return nil }
        return String(name[..<dot])
    }
}

/// A route of a test that can't be written as Swift, and why.
private struct UnwritableRoute<R: Route>: Error {
    let route: R
    let reason: String
}

/// The tests' names, from their kinds' names: `fromCharacterToFilm`, with the presentation where two transitions
/// join the same kinds (`fromPlanetListToPlanetListAsRoot`), and a number where two names still meet.
enum TestNames {
    static func make(for transitions: [(from: String, to: String, presentation: Presentation)]) -> [String] {
        let bases = transitions.map {
            "from" + SwiftSource.camelCase($0.from, upperFirst: true) + "To"
                + SwiftSource.camelCase($0.to, upperFirst: true)
        }
        var counts: [String: Int] = [:]
        for base in bases { counts[base, default: 0] += 1 }
        var taken: Set<String> = []
        return zip(bases, transitions).map { base, transition in
            var name = base
            if counts[base]! > 1 {
                name += "As" + SwiftSource.camelCase(transition.presentation.rawValue, upperFirst: true)
            }
            let stem = name
            var number = 2
            while !taken.insert(name).inserted {
                name = stem + "\(number)"
                number += 1
            }
            return name
        }
    }
}
