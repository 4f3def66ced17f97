import FlowSiteUtilities
import Foundation

extension MarkdownDocument {
    /// Every route link in the document as a navigation action, labelled with its link text.
    var linkedActions: [NavigationAction<R>] {
        zip(linkLabels, routes).map { NavigationAction($0, to: $1) }
    }

    /// The text of each route link, in the order of ``routes``.
    var linkLabels: [String] {
        var labels: [String] = []
        labels.reserveCapacity(routes.count)
        MarkdownBlock.collectLinkLabels(blocks, into: &labels)
        return labels
    }
}

extension MarkdownBlock {
    static func collectLinkLabels(_ blocks: [MarkdownBlock], into labels: inout [String]) {
        for block in blocks {
            switch block {
            case .heading(_, let inlines), .paragraph(let inlines):
                MarkdownInline.collectLinkLabels(inlines, into: &labels)
            case .list(let items), .orderedList(let items):
                for item in items { MarkdownInline.collectLinkLabels(item, into: &labels) }
            case .linkList(let items, _): labels += items
            case .attributes(let pairs):
                for pair in pairs { MarkdownInline.collectLinkLabels(pair.value, into: &labels) }
            case .section(_, let inner): collectLinkLabels(inner, into: &labels)
            case .thematicBreak, .codeBlock, .userContent: break
            }
        }
    }
}

extension MarkdownInline {
    static func collectLinkLabels(_ inlines: [MarkdownInline], into labels: inout [String]) {
        for inline in inlines {
            switch inline {
            case .link(let label, _):
                labels.append(plainText(label))
            case .emphasis(let inner), .strong(let inner), .siteFile(let inner, _), .external(let inner, _):
                collectLinkLabels(inner, into: &labels)
            case .text, .code, .lineBreak: break
            }
        }
    }

    /// The text of inlines without markup.
    static func plainText(_ inlines: [MarkdownInline]) -> String {
        // Most link texts are one run of text.
        if inlines.count == 1, case .text(let text) = inlines[0] { return text }
        return inlines.map { inline -> String in
            switch inline {
            case .text(let text), .code(let text): text
            case .emphasis(let inner), .strong(let inner), .link(let inner, _), .siteFile(let inner, _),
                .external(let inner, _):
                plainText(inner)
            case .lineBreak: " "
            }
        }.joined()
    }
}

extension SiteWalker {
    /// Fails for an external link that is not an absolute `https`, `http` or `mailto` URL, or that holds a control
    /// character, a space or a bidirectional control (which could make a link read as another).
    /// - Throws: ``FlowSiteError/Reason/unsafeExternalLink(page:url:why:)`` naming the page.
    static func checkExternalLinks(of page: Page<R>, at path: RoutePath) throws {
        for url in page.document.externalURLs {
            if let why = Self.problem(withExternalURL: url) {
                throw FlowSiteError(.unsafeExternalLink(page: path.description, url: Self.shown(url), why: why))
            }
        }
    }

    /// Why `url` can't be an external link, or `nil`.
    static func problem(withExternalURL url: String) -> String? {
        for scalar in url.unicodeScalars {
            if scalar == " " { return "holds a space (write it as %20)" }
            if isControl(scalar) { return "holds a control character" }
            if scalar.reordersText { return "holds a bidirectional control character" }
        }
        let lower = url.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            let host = lower.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return host.isEmpty ? "has no host" : nil
        }
        if lower.hasPrefix("mailto:") { return lower.count > "mailto:".count ? nil : "names no address" }
        return "is not an absolute https, http or mailto URL"
    }

    /// `url` with anything unprintable written as `\u{…}`, so the message shows what is there.
    static func shown(_ url: String) -> String {
        var text = ""
        for scalar in url.unicodeScalars {
            let hidden = isControl(scalar) || scalar.reordersText
            text += hidden ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }
        return text
    }

    /// C0 and C1 controls and DEL.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
