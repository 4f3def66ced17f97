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
            case .emphasis(let inner), .strong(let inner), .siteFile(let inner, _):
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
            case .emphasis(let inner), .strong(let inner), .link(let inner, _), .siteFile(let inner, _):
                plainText(inner)
            case .lineBreak: " "
            }
        }.joined()
    }
}
