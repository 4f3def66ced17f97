import FlowSiteUtilities
import Foundation

extension SiteComparison {
    /// The review page (`diff --format html`): one static HTML file with inline style and no script, the drawn flow
    /// diff, every change, the screen kinds, and folded links and files. Site text is escaped with text-reordering
    /// controls made visible; the same comparison always gives the same bytes.
    package func reviewPage(_ options: ReportOptions = ReportOptions()) throws -> String {
        let anchors = Dictionary(
            kinds.enumerated().map { ($1.id, "kind-\($0 + 1)") }, uniquingKeysWith: { first, _ in first })
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>What this change does to the site</title>
            <style>\n\(Self.reviewStyle)</style>
            </head>
            <body>
            <main>
            <h1>What this change does to the site</h1>\n
            """
        html += "<p class=\"summary\">" + Self.text(summaryLine) + ".</p>\n"
        let sides = [("Before", options.oldURL), ("After", options.newURL)].compactMap { name, url in
            url.map { "\(name): <a href=\"\(Self.text($0))\">\(Self.text($0))</a>" }
        }
        if !sides.isEmpty { html += "<p class=\"sides\">" + sides.joined(separator: " · ") + "</p>\n" }
        html += journeysSection(options)
        html += try flowSection { id in anchors[id].map { "#" + $0 } ?? "#kinds" }
        html += changesSection(options)
        html += kindsSection(anchors)
        html += linksSection(options)
        html += filesSection(options)
        return html + "</main>\n</body>\n</html>\n"
    }

    /// `Resources/review.css`, inline so the page is one file. Written in CSS a 2020 HTML checker knows (no logical
    /// properties, no `:has()`, no `color-scheme`: the page's `<meta name="color-scheme">` says it instead).
    static let reviewStyle = EmbeddedFiles.text("review.css")

    // MARK: Sections

    /// The journeys first: a broken one is what a reviewer must act on.
    private func journeysSection(_ options: ReportOptions) -> String {
        guard !journeyChanges.isEmpty else { return "" }
        var html = """
            <section class="journeys" aria-labelledby="journeys">
            <h2 id="journeys">Journeys</h2>
            <p>\(journeyChanges.unchanged) unchanged.</p>
            <ul>\n
            """
        for change in journeyChanges.changes {
            let line = Self.text(Self.line(change))
            html +=
                "<li class=\"\(change.what.rawValue)\">" + (change.what == .breaks ? "<strong>\(line)</strong>" : line)
            if !change.pages.isEmpty {
                html += "\n<ul>\n"
                for page in change.pages {
                    let rows = page.changes.map(Self.plain).joined(separator: "; ")
                    html +=
                        "<li>" + Self.text(page.page.title) + " <code>" + Self.text(Self.displayPath(page.page.path))
                        + "</code>" + (rows.isEmpty ? "" : ": " + Self.text(rows)) + "</li>\n"
                }
                html += "</ul>\n"
            }
            html += "</li>\n"
        }
        return html + "</ul>\n</section>\n"
    }

    private func flowSection(link: (String) -> String) throws -> String {
        var html = "<section class=\"flow-diff\" aria-labelledby=\"flow\">\n<h2 id=\"flow\">The flow</h2>\n"
        guard let records = flows else {
            return html
                + """
                <p>One of the sites was built without its flow record, so the flow can't be compared: build both \
                with this version.</p>\n</section>\n
                """
        }
        if let drawing = try FlowDiffDrawing(
            old: records.old, new: records.new, diff: flow, link: link)
        {
            html += """
                <p>The part of the flow the change touches. Kinds that stay are where the old site's flow map drew \
                them; new kinds are placed beside them. Each mark is a shape or line style and words, so it reads \
                without colour.</p>\n
                """
            html += Self.legend
            html += """
                <figure class="flow-map">\n<div class="flow-map-scroll" tabindex="0" role="region" \
                aria-labelledby="flow-diff-caption">\n
                """
            html += drawing.svg + "\n</div>\n<figcaption id=\"flow-diff-caption\">The flow before and after: "
            html +=
                Self.text(Self.count(drawing.nodes.count, "countScreenKinds")) + " and "
                + Self.text(Self.count(drawing.edges.count, "countTransitions"))
                + " drawn; each box leads to its row below.</figcaption>\n</figure>\n"
        } else {
            html += "<p>No screen kind or transition changed.</p>\n"
        }
        let lines = flow.lines()
        if !lines.isEmpty {
            html +=
                "<ul class=\"flow-changes\">\n" + lines.map { "<li>" + Self.text($0) + "</li>\n" }.joined() + "</ul>\n"
        }
        return html + "</section>\n"
    }

    /// With the first `limit` pages of each change.
    private func changesSection(_ options: ReportOptions) -> String {
        let groups = groups
        var html = "<section aria-labelledby=\"changes\">\n<h2 id=\"changes\">Changes</h2>\n"
        guard !groups.isEmpty || layout != nil else { return html + "<p>No page's content changed.</p>\n</section>\n" }
        html += "<ol class=\"changes\">\n"
        for group in groups {
            let change =
                Self.rich(TextChange(before: group.before, after: group.after)) + " on "
                + Self.text(Self.count(group.pages.count, "countPages"))
                + (group.kinds > 1 ? " of " + Self.text(Self.count(group.kinds, "countKinds")) : "")
            let title =
                switch group.what {
                case .text: change
                case .trail: "Breadcrumb trail changed (the pages’ text is the same): " + change
                case .pageAdded, .pageRemoved: Self.text(headline(group))
                }
            let mark = group.what == .pageAdded ? "added" : group.what == .pageRemoved ? "removed" : "changed"
            html += "<li class=\"\(mark)\"><p>" + title + "</p>\n<ul>\n"
            func item(_ example: ChangeGroup.Example) -> String {
                "<li>"
                    + pageName(
                        example.page, options, before: group.what != .pageAdded, after: group.what != .pageRemoved)
                    + (example.change.map { ": " + Self.rich($0) } ?? "") + "</li>\n"
            }
            // Every page is named; those past the report's limit behind a summary a reader opens.
            let shown = options.named(group.pages.count)
            html += group.pages.prefix(shown).map(item).joined()
            if group.pages.count > shown {
                html += "<li><details><summary>…and \(group.pages.count - shown) more</summary>\n<ul>\n"
                html += group.pages.dropFirst(shown).map(item).joined() + "</ul></details></li>\n"
            }
            html += "</ul></li>\n"
        }
        if let layout {
            html += "<li class=\"changed\"><p>" + Self.text(Self.count(layout.pages, "diffLayoutOnly")) + ", e.g. "
            html += pageName(layout.example, options, before: true, after: true) + "</p>\n<ul>\n"
            html += layout.changes.prefix(options.limit * 2).map { "<li>" + Self.rich($0) + "</li>\n" }.joined()
            html += "</ul></li>\n"
        }
        return html + "</ol>\n</section>\n"
    }

    /// Every screen kind, each row the anchor its box on the drawing leads to.
    private func kindsSection(_ anchors: [String: String]) -> String {
        var html = "<section aria-labelledby=\"kinds\">\n<h2 id=\"kinds\">Screen kinds</h2>\n"
        html += """
            <div class="table-scroll" tabindex="0" role="region" aria-labelledby="kinds">\n<table>\n<thead><tr>
            """
        html += ["Screen kind", "Pages before", "Pages after", "Added", "Removed", "Changed"].map {
            "<th scope=\"col\">\($0)</th>"
        }.joined()
        html += "</tr></thead>\n<tbody>\n"
        for kind in kinds {
            html +=
                "<tr id=\"\(anchors[kind.id]!)\"\(kind.isEmpty ? " class=\"unchanged\"" : "")><th scope=\"row\">"
                + Self.name(Self.name(of: kind)) + "</th>"
            html +=
                [kind.pagesBefore, kind.pagesAfter, kind.added.count, kind.removed.count, kind.changed.count].map {
                    "<td>\($0)</td>"
                }.joined() + "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</div>\n</section>\n"
    }

    private func linksSection(_ options: ReportOptions) -> String {
        guard !linksAdded.isEmpty || !linksRemoved.isEmpty else { return "" }
        var html =
            "<details>\n<summary>Links between pages: \(linksAdded.count) added, \(linksRemoved.count) cut</summary>\n"
        for (title, links, isAdded) in [("Added", linksAdded, true), ("Cut", linksRemoved, false)] where !links.isEmpty
        {
            html += "<h3>\(title)</h3>\n<ul>\n"
            for link in links.prefix(options.limit * 4) {
                html +=
                    "<li>" + pageName(link.from, options, before: !isAdded, after: isAdded) + " → "
                    + (link.toTitle.map { Self.text($0) + " " } ?? "") + "<code>"
                    + Self.text(Self.displayPath(link.to)) + "</code></li>\n"
            }
            if links.count > options.limit * 4 { html += "<li>…and \(links.count - options.limit * 4) more</li>\n" }
            html += "</ul>\n"
        }
        return html + "</details>\n"
    }

    private func filesSection(_ options: ReportOptions) -> String {
        guard !files.isEmpty else { return "" }
        var html = "<details>\n<summary>Other files</summary>\n<ul>\n"
        for (mark, names) in [("Added", files.added), ("Removed", files.removed), ("Changed", files.changed)] {
            for name in names.prefix(options.limit * 4) {
                html += "<li>\(mark): <code>" + Self.text(name) + "</code></li>\n"
            }
            if names.count > options.limit * 4 {
                html += "<li>\(mark): …and \(names.count - options.limit * 4) more</li>\n"
            }
        }
        if files.flowMap > 0 {
            html +=
                "<li>The flow map: " + Self.text(Self.count(files.flowMap, "countPages"))
                + " under <code>flow/</code></li>\n"
        }
        return html + "</ul>\n</details>\n"
    }

    // MARK: Parts

    /// With links to it on the published sides.
    private func pageName(_ page: PageName, _ options: ReportOptions, before: Bool, after: Bool) -> String {
        var html = Self.name(page.title) + " <code>" + Self.text(Self.displayPath(page.path)) + "</code>"
        var links: [String] = []
        if before, let base = options.oldURL {
            links.append("<a href=\"\(Self.text(Self.url(base, page.path)))\">before</a>")
        }
        if after, let base = options.newURL {
            links.append("<a href=\"\(Self.text(Self.url(base, page.path)))\">after</a>")
        }
        if !links.isEmpty { html += " (" + links.joined(separator: ", ") + ")" }
        return html
    }

    /// Removed words in `<del>`, added ones in `<ins>`, its section first.
    private static func rich(_ change: TextChange) -> String {
        let place = change.section.map { "<span class=\"section\">" + text($0) + "</span> " } ?? ""
        switch (change.before, change.after) {
        case (let before?, let after?):
            let parts = parts(before, after)
            let middle = "<del>" + text(parts.was) + "</del> → <ins>" + text(parts.now) + "</ins>"
            return place + [text(parts.head), middle, text(parts.tail)].filter { !$0.isEmpty }.joined(separator: " ")
        case (nil, let after?): return place + "<ins>+ " + text(after) + "</ins>"
        case (let before?, nil): return place + "<del>− " + text(before) + "</del>"
        default: return place
        }
    }

    /// Escaped, text-reordering controls made visible.
    static func text(_ value: String) -> String { HTMLEscaping.escape(FlowDiffDrawing.plain(value)) }

    /// Isolated from the text around it (a right-to-left name stays whole).
    private static func name(_ value: String) -> String { "<bdi>" + text(value) + "</bdi>" }

    /// "1,200 pages": grouped as the flow map's numbers are.
    private static func count(_ value: Int, _ key: String) -> String {
        Wording.english(key, count: value, ["count": FlowMapSVG.count(value)])
    }

    /// The drawing's marks, each drawn as it is there and named.
    private static let legend: String = {
        func box(_ change: String, _ words: String) -> String {
            """
            <li><svg width="40" height="22" aria-hidden="true">\
            <g class="kind member\(change.isEmpty ? "" : " " + change)">\
            <rect x="3" y="3" width="34" height="16" rx="4"/></g></svg> \(words)</li>\n
            """
        }
        func arrow(_ change: String, _ words: String) -> String {
            """
            <li><svg width="40" height="22" aria-hidden="true"><g class="transition push \(change)">\
            <path d="M3 11H37"/></g></svg> \(words)</li>\n
            """
        }
        return "<ul class=\"diff-legend\">\n" + box("added", "kind added (thick border, “+ added”)")
            + box("removed", "kind removed (dashed, no fill, name struck, “− removed”)")
            + box("renamed", "kind renamed (dash-dot, “old → new”)")
            + box("changed", "page count changed (dotted, “~ before → after”)")
            + box("", "kind unchanged") + arrow("added", "transition added (thick, “+”)")
            + arrow("removed", "transition cut (dashed, “−”)")
            + arrow("changed", "presented another way or other links (dotted, “before → after”)")
            + arrow("faded", "transition unchanged (faint)") + "</ul>\n"
    }()
}
