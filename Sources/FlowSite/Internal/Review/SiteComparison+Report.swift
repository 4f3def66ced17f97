import FlowSiteUtilities
import Foundation

extension SiteComparison {
    /// How much of the comparison a report shows, and where the two sites are published.
    package struct ReportOptions: Sendable {
        /// Pages named per change and per list before "and N more".
        package var limit = 5
        /// Where the old and new sites are published, so each page named links to its before and after.
        package var oldURL: String?
        package var newURL: String?
        /// The review page (``reviewPage(_:)``), absolute or relative to the Markdown report, which links to it.
        package var reviewURL: String?
        /// A pull-request comment holds 65,536.
        var maximumCharacters = 60_000

        /// How many pages of a change of `count` pages a report names: all up to twice the limit, else the limit,
        /// so a cut always hides more pages than it names, each with the same change as the named ones.
        func named(_ count: Int) -> Int { count <= 2 * limit ? count : limit }

        package init(limit: Int = 5, oldURL: String? = nil, newURL: String? = nil, reviewURL: String? = nil) {
            self.limit = max(1, limit)
            self.oldURL = oldURL
            self.newURL = newURL
            self.reviewURL = reviewURL
        }
    }

    /// "12 pages changed, 1 removed, 0 added" or "no change".
    package var summaryLine: String {
        if isEqual { return "No change: the two sites are the same" }
        var parts = journeySummary.map { [$0] } ?? []
        parts += [
            Wording.english("countPages", count: pagesChanged) + " changed", "\(pagesRemoved) removed",
            "\(pagesAdded) added"
        ]
        if let layout { parts.append("layout changed on " + Wording.english("countPages", count: layout.pages)) }
        if !linksAdded.isEmpty || !linksRemoved.isEmpty {
            parts.append("links \(linksAdded.count) added, \(linksRemoved.count) cut")
        }
        if !flow.renames.isEmpty {
            parts.append(Wording.english("countScreenKinds", count: flow.renames.count) + " renamed")
        }
        let transitions = flow.transitions.count
        if transitions > 0 {
            parts.append(Wording.english("countTransitions", count: transitions) + " between screen kinds changed")
        }
        let findings = (new: flow.newFindings.count, gone: flow.goneFindings.count, changed: flow.changedFindings.count)
        if findings != (0, 0, 0) {
            parts.append("lint findings \(findings.new) new, \(findings.gone) gone, \(findings.changed) changed")
        }
        let fileCount = files.added.count + files.removed.count + files.changed.count
        if fileCount > 0 { parts.append(Wording.english("countOtherFiles", count: fileCount) + " changed") }
        if files.flowMap > 0 { parts.append(Wording.english("countFlowMapPages", count: files.flowMap) + " changed") }
        return parts.joined(separator: "; ")
    }

    // MARK: Plain text

    /// The report for a terminal.
    package func text(_ options: ReportOptions = ReportOptions()) -> String {
        var lines = [summaryLine]
        let limit = options.limit
        func more(_ count: Int, _ shown: Int, indent: String) {
            if count > shown { lines.append("\(indent)… and \(count - shown) more") }
        }
        if !journeyChanges.isEmpty {
            lines += ["", "Journeys (\(journeyChanges.unchanged) unchanged):"]
            for change in journeyChanges.changes {
                let mark =
                    change.what == .breaks ? "!" : change.what == .added ? "+" : change.what == .removed ? "-" : "~"
                lines.append("\(mark) " + Self.line(change))
                for page in change.pages.prefix(limit) {
                    let rows = page.changes.prefix(2).map(Self.plain).joined(separator: "; ")
                    lines.append(
                        "    \(page.page.title) (\(Self.displayPath(page.page.path)))"
                            + (rows.isEmpty ? "" : ": " + rows))
                }
                more(change.pages.count, limit, indent: "    ")
            }
        }
        let groups = groups
        if !groups.isEmpty { lines.append("") }
        for group in groups {
            func example(_ example: ChangeGroup.Example, saying what: String = "") -> String {
                let change = example.change.map { ": " + what + Self.plain($0) } ?? ""
                return "\(example.page.title) (\(Self.displayPath(example.page.path)))" + change
            }
            let mark = group.what == .pageAdded ? "+" : group.what == .pageRemoved ? "-" : "~"
            if group.pages.count == 1 {
                let lead = group.what == .text || group.what == .trail ? "" : headline(group) + ": "
                let what = group.what == .trail ? Self.trailChanged + ": " : ""
                lines.append("\(mark) " + lead + example(group.pages[0], saying: what))
                continue
            }
            lines.append("\(mark) \(headline(group)):")
            let named = options.named(group.pages.count)
            for page in group.pages.prefix(named) { lines.append("    " + example(page)) }
            if group.pages.count > named {
                lines.append("    … and \(group.pages.count - named) more (`--format json` names every page)")
            }
        }
        if let layout {
            lines += [
                "",
                "Layout: " + Wording.english("diffLayoutOnly", count: layout.pages)
                    + ", e.g. \(layout.example.title) (\(Self.displayPath(layout.example.path)))"
            ]
            for change in layout.changes.prefix(limit * 2) { lines.append("      " + Self.plain(change)) }
        }
        if hasFlow && !flow.isEmpty {
            lines += ["", "Flow:"]
            lines += flow.lines().map { "  " + $0 }
        }
        if !linksAdded.isEmpty || !linksRemoved.isEmpty {
            lines += ["", "Links between pages: \(linksAdded.count) added, \(linksRemoved.count) cut"]
            for (mark, links) in [("+", linksAdded), ("-", linksRemoved)] {
                for link in links.prefix(limit) {
                    lines.append("  \(mark) \(link.from.title) → \(Self.targetName(link))")
                }
                more(links.count, limit, indent: "    ")
            }
        }
        if !files.isEmpty {
            lines += ["", "Other files:"]
            for (mark, names) in [("+", files.added), ("-", files.removed), ("~", files.changed)] {
                for name in names.prefix(limit) { lines.append("  \(mark) \(name)") }
                more(names.count, limit, indent: "    ")
            }
            if files.flowMap > 0 {
                lines.append(
                    "  ~ the flow map: " + Wording.english("countPages", count: files.flowMap) + " under flow/")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "[Tatooine → Tatooine Prime] on 21 pages of 6 kinds", "+ Episode VII on 3 pages", "2 Planet pages added".
    func headline(_ group: ChangeGroup) -> String {
        let count = group.pages.count
        guard group.what == .text || group.what == .trail else {
            return Wording.english(
                group.what == .pageAdded ? "diffKindPagesAdded" : "diffKindPagesRemoved", count: count,
                ["kind": flow.name(group.pages[0].kind)])
        }
        let change = Self.plain(TextChange(before: group.before, after: group.after)) + " on " + Self.pages(group)
        return group.what == .trail ? Self.trailChanged + ": " + change : change
    }

    static let trailChanged = "breadcrumb trail changed"

    /// "21 pages of 6 kinds".
    private static func pages(_ group: ChangeGroup) -> String {
        Wording.english("countPages", count: group.pages.count)
            + (group.kinds > 1 ? " of " + Wording.english("countKinds", count: group.kinds) : "")
    }

    /// Marked "(new)", "(removed)" or "(renamed from …)".
    static func name(of kind: KindPages) -> String {
        let state = kind.pagesBefore == 0 ? " (new)" : kind.pagesAfter == 0 ? " (removed)" : ""
        return kind.name + state + (kind.renamedFrom.map { " (renamed from \($0))" } ?? "")
    }

    static func plain(_ change: TextChange) -> String {
        let place = change.section.map { "[\($0)] " } ?? ""
        switch (change.before, change.after) {
        case (let before?, let after?): return place + inline(before, after)
        case (nil, let after?): return "\(place)+ \(after)"
        case (let before?, nil): return "\(place)- \(before)"
        default: return place
        }
    }

    /// A link's target by its title and path, "Coding Journal (/feeds/coding/)", or its path alone.
    static func targetName(_ link: Link) -> String {
        link.toTitle.map { "\($0) (\(displayPath(link.to)))" } ?? displayPath(link.to)
    }

    /// `characters/luke/index.html` → `/characters/luke/`.
    package static func displayPath(_ path: String) -> String {
        if path == "index.html" { return "/" }
        if path.hasSuffix("/index.html") { return "/" + path.dropLast("index.html".count) }
        return "/" + path
    }

    // MARK: Markdown

    /// GitHub-flavoured Markdown for a pull-request comment; every name escaped so no page text can leave its
    /// table cell or become HTML, a mention or a link.
    package func markdown(_ options: ReportOptions = ReportOptions()) -> String {
        var out = "### What this change does to the site\n\n"
        guard !isEqual else {
            let pages = kinds.reduce(0) { $0 + $1.pagesAfter }
            return out + "No change: the two sites are the same (" + Wording.english("countPages", count: pages)
                + ").\n"
        }
        out += Self.escaped(summaryLine) + ".\n\n"
        if let review = options.reviewURL {
            out += """
                **[The review page](\(Self.linkSafe(review)))**: the flow drawn before and after, and every \
                change.\n\n
                """
        }
        // A journey that breaks, moves or comes and goes leads the comment; those whose pages changed fold below.
        let (moved, passing) = (
            journeyChanges.changes.filter { $0.what != .changed }, journeyChanges.changes.filter { $0.what == .changed }
        )
        if !moved.isEmpty {
            out += "**Journeys** (\(passing.count) through changed pages, \(journeyChanges.unchanged) unchanged):\n\n"
            for change in moved {
                let line = Self.escaped(Self.line(change))
                out += "- " + (change.what == .breaks ? "**" + line + "**" : line) + "\n"
            }
            out += "\n"
        }
        let changedKinds = kinds.filter { !$0.isEmpty }
        var table =
            "| Screen kind | Pages before | Pages after | Added | Removed | Changed |\n|---|--:|--:|--:|--:|--:|\n"
        for kind in changedKinds {
            table += """
                | \(Self.escaped(Self.name(of: kind))) | \(kind.pagesBefore) | \(kind.pagesAfter) \
                | \(kind.added.count) | \(kind.removed.count) | \(kind.changed.count) |\n
                """
        }
        let same = kinds.count - changedKinds.count
        let before = kinds.reduce(0) { $0 + $1.pagesBefore }
        let after = kinds.reduce(0) { $0 + $1.pagesAfter }
        table +=
            "| **All** (" + Wording.english("countKinds", count: same)
            + " unchanged) | \(before) | \(after) | \(pagesAdded) | \(pagesRemoved) | \(pagesChanged) |\n"

        // Fewest pages first, then the layout's: what doesn't fit is the most repeated.
        var rows = groups.map { group in
            let shown = options.named(group.pages.count)
            let named = group.pages.prefix(shown).map {
                pageLine($0.page, options: options, before: group.what != .pageAdded, after: group.what != .pageRemoved)
            }
            let pages =
                (group.pages.count > 1 ? Self.pages(group) + ": " : "") + named.joined(separator: ", ")
                + (group.pages.count > shown ? ", …and \(group.pages.count - shown) more" : "")
            let kind = Self.escaped(flow.name(group.pages[0].kind)) + " page"
            let example = group.pages[0].change
            let row =
                switch group.what {
                case .text:
                    Self.row(
                        group.pages.allSatisfy { $0.change == example }
                            ? example! : TextChange(before: group.before, after: group.after))
                case .trail: Self.row(TextChange(section: Self.trailChanged, before: group.before, after: group.after))
                case .pageAdded: "| \(kind) | | *added* |\n"
                case .pageRemoved: "| \(kind) | *removed* | |\n"
                }
            return "| " + pages + " " + row
        }
        if let layout {
            let pages =
                "| " + Wording.english("countPages", count: layout.pages) + " whose layout alone changed, e.g. "
                + pageLine(layout.example, options: options, before: true, after: true) + " "
            rows +=
                layout.changes.isEmpty
                ? [pages + "| | only markup, classes or styles | |\n"]
                : layout.changes.prefix(options.limit * 2).map { pages + Self.row($0) }
        }
        out += rows.isEmpty ? "" : "| Pages | Row | Before | After |\n|---|---|---|---|\n"
        for (index, row) in rows.enumerated() {
            if out.utf8.count + row.utf8.count + table.utf8.count + 400 > options.maximumCharacters {
                out +=
                    "| …and " + Wording.english("countMoreChanges", count: rows.count - index)
                    + ", left out to fit a comment | | | |\n"
                break
            }
            out += row
        }
        out += "\n" + table

        var sections: [String] = []
        if hasFlow && !flow.isEmpty {
            let lines = flow.lines()
            var body = "\n" + lines.prefix(options.limit * 8).map { "- " + Self.escaped($0) + "\n" }.joined()
            if lines.count > options.limit * 8 { body += "- …and \(lines.count - options.limit * 8) more\n" }
            let kinds = flow.kinds.count + flow.renames.count
            sections.append(
                Self.details(
                    "Flow: " + Wording.english("countTransitions", count: flow.transitions.count) + ", "
                        + Wording.english("countKinds", count: kinds)
                            + """
                            , lint \(flow.newFindings.count) new / \(flow.goneFindings.count) gone / \
                            \(flow.changedFindings.count) changed
                            """,
                    body))
        }
        if !passing.isEmpty {
            var body = "\n"
            for change in passing.prefix(options.limit * 4) {
                body += "- " + Self.escaped(Self.line(change)) + "\n"
                for page in change.pages.prefix(options.limit) {
                    let rows = page.changes.prefix(2).map(Self.plain).joined(separator: "; ")
                    body +=
                        "  - " + pageLine(page.page, options: options, before: true, after: true)
                        + (rows.isEmpty ? "" : ": " + Self.escaped(rows)) + "\n"
                }
                if change.pages.count > options.limit {
                    body += "  - …and \(change.pages.count - options.limit) more\n"
                }
            }
            if passing.count > options.limit * 4 { body += "- …and \(passing.count - options.limit * 4) more\n" }
            sections.append(
                Self.details(Wording.english("countJourneys", count: passing.count) + " through changed pages", body))
        }
        if !linksAdded.isEmpty || !linksRemoved.isEmpty {
            var body = "\n"
            for (mark, links) in [("Added", linksAdded), ("Cut", linksRemoved)] where !links.isEmpty {
                body += "\(mark):\n\n"
                for link in links.prefix(options.limit) {
                    body += """
                        - \(Self.escaped(link.from.title)) `\(Self.code(Self.displayPath(link.from.path)))` → \
                        \(link.toTitle.map { Self.escaped($0) + " " } ?? "")`\(Self.code(Self.displayPath(link.to)))`\n
                        """
                }
                if links.count > options.limit { body += "- …and \(links.count - options.limit) more\n" }
                body += "\n"
            }
            sections.append(
                Self.details("Links between pages: \(linksAdded.count) added, \(linksRemoved.count) cut", body))
        }
        if !files.isEmpty {
            var body = "\n"
            for (mark, names) in [("Added", files.added), ("Removed", files.removed), ("Changed", files.changed)]
            where !names.isEmpty {
                body +=
                    "\(mark): " + names.prefix(options.limit * 2).map { "`\(Self.code($0))`" }.joined(separator: ", ")
                if names.count > options.limit * 2 { body += " and \(names.count - options.limit * 2) more" }
                body += "\n\n"
            }
            if files.flowMap > 0 {
                body += "The flow map: " + Wording.english("countPages", count: files.flowMap) + " under `flow/`.\n\n"
            }
            var counts = [
                ("changed", files.changed.count), ("removed", files.removed.count), ("added", files.added.count)
            ]
            .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            if files.flowMap > 0 { counts.append("the flow map") }
            sections.append(Self.details("Other files: " + counts.joined(separator: ", "), body))
        }
        for (index, section) in sections.enumerated() {
            if out.count + section.count + 200 > options.maximumCharacters {
                out +=
                    "\n…and " + Wording.english("countMoreSections", count: sections.count - index)
                    + ", left out to fit a comment: run the site executable's `diff` for the whole report.\n"
                break
            }
            out += "\n" + section
        }
        return out
    }

    private func pageLine(_ page: PageName, options: ReportOptions, before: Bool, after: Bool) -> String {
        var line = "**\(Self.escaped(page.title))** `\(Self.code(Self.displayPath(page.path)))`"
        var links: [String] = []
        if before, let base = options.oldURL { links.append("[before](\(Self.url(base, page.path)))") }
        if after, let base = options.newURL { links.append("[after](\(Self.url(base, page.path)))") }
        if !links.isEmpty { line += " (" + links.joined(separator: ", ") + ")" }
        return line
    }

    private static func row(_ change: TextChange) -> String {
        guard let before = change.before, let after = change.after else {
            // A line added or cut: its row is its label ("Height"), else its section, else what happened to it.
            let item = PageText.Item(section: change.section, text: change.before ?? change.after ?? "")
            let row =
                item.label.map { escaped($0) } ?? change.section.map { escaped($0) }
                ?? (change.before == nil ? "*added*" : "*cut*")
            let value = escaped(item.label == nil ? item.text : item.value)
            return change.before == nil ? "| \(row) | | \(value) |\n" : "| \(row) | \(value) | |\n"
        }
        var was = PageText.Item(section: change.section, text: before)
        var now = PageText.Item(section: change.section, text: after)
        var row = change.section ?? ""
        if let label = was.label, label == now.label {
            row = label
            was.text = was.value
            now.text = now.value
        }
        let parts = parts(was.text, now.text)
        func marked(_ middle: String) -> String {
            [escaped(parts.head), middle.isEmpty ? "" : "**" + escaped(middle) + "**", escaped(parts.tail)].filter {
                !$0.isEmpty
            }.joined(separator: " ")
        }
        return "| \(escaped(row)) | \(marked(parts.was)) | \(marked(parts.now)) |\n"
    }

    private static func details(_ summary: String, _ body: String) -> String {
        "<details><summary>\(summary)</summary>\n\(body)\n</details>\n"
    }

    /// `text` safe anywhere in a Markdown comment, table cells and `<summary>` included: `@` and `#` as entities
    /// so no one is mentioned and no issue linked; line breaks and text-reordering controls made plain.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "@": out += "&#64;"
            case "#": out += "&#35;"
            case "|": out += "\\|"
            case "\\", "`", "*", "_", "[", "]", "(", ")", "!", "~", "{", "}", "+", "-", ":", "=", ".":
                out += "\\" + String(scalar)
            case "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": out += " "
            case _ where scalar.reordersText: out += "\u{FFFD}"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Text for inside a code span: no backticks, no line breaks, no table pipes.
    static func code(_ text: String) -> String {
        String(
            text.unicodeScalars.map { scalar -> Character in
                switch scalar {
                case "`": return "'"
                case "|": return "¦"
                default: return scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : Character(scalar)
                }
            })
    }

    static func url(_ base: String, _ path: String) -> String {
        linkSafe((base.hasSuffix("/") ? base : base + "/") + displayPath(path).dropFirst())
    }

    /// `address` with anything that could end a Markdown link percent-encoded.
    static func linkSafe(_ address: String) -> String {
        var allowed = CharacterSet.urlPathAllowed.union(.urlHostAllowed)
        allowed.insert(charactersIn: ":/?=&%")
        allowed.remove(charactersIn: "()<>[]\"' `|\\")
        return address.addingPercentEncoding(withAllowedCharacters: allowed) ?? address
    }

    // MARK: JSON

    /// The whole comparison as JSON for tools (nothing capped).
    package func json() -> String {
        struct Document: Encodable {
            let equal: Bool
            let summary: String
            let pagesAdded, pagesRemoved, pagesChanged: Int
            let kinds: [KindPages]
            let groups: [ChangeGroup]
            let layout: LayoutChange?
            let linksAdded: [Link]
            let linksRemoved: [Link]
            let flow: FlowDiff?
            let files: Files
            let journeys: JourneyChanges?
        }
        return FlowJSON.encode(
            Document(
                equal: isEqual, summary: summaryLine, pagesAdded: pagesAdded, pagesRemoved: pagesRemoved,
                pagesChanged: pagesChanged,
                kinds: kinds, groups: groups, layout: layout, linksAdded: linksAdded, linksRemoved: linksRemoved,
                flow: hasFlow ? flow : nil, files: files,
                journeys: journeyChanges.isEmpty && journeyChanges.unchanged == 0 ? nil : journeyChanges
            ))
    }
}
