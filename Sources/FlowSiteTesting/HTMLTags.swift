import FlowSite
import FlowSiteUtilities
import Foundation

/// A page's tags as a browser's tokenizer splits them (FlowSite's own HTML scanner: no combining mark can hide a
/// `<` or a quote). Tests compare the tags of pages from hostile and harmless data of one shape to prove the data
/// added no tag, attribute or URL.
public enum HTMLTags {
    /// A start or end tag (end tags are named `/name`; comments and doctypes `!`).
    public struct Tag: Hashable, Sendable, CustomStringConvertible {
        /// The lowercased tag name.
        public var name: String
        /// The lowercased attribute names, in order.
        public var attributes: [String]
        /// The values of attributes that hold URLs.
        public var urls: [String]
        public var description: String { "<\(name) \(attributes) \(urls)>" }
    }

    /// Attributes whose values are URLs.
    public static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "srcset", "data-index", "data-root", "poster"
    ]

    /// The tags of `html`, in order.
    public static func scan(_ html: String) -> [Tag] {
        var tags: [Tag] = []
        var scanner = HTMLScanner(html)
        while let token = scanner.next() {
            switch token {
            case .start(let name, let attributes):
                tags.append(
                    Tag(
                        name: name, attributes: attributes.map(\.name),
                        urls: attributes.filter { urlAttributes.contains($0.name) }.map(\.value)))
            case .end(let name): tags.append(Tag(name: "/" + name, attributes: [], urls: []))
            case .other: tags.append(Tag(name: "!", attributes: [], urls: []))
            case .text: continue
            }
        }
        return tags
    }

    /// The decoded text inside the first `<name>` element, for elements without child tags.
    public static func text(of name: String, in html: String) -> String? {
        var scanner = HTMLScanner(html)
        while let token = scanner.next() {
            guard case .start(name, _) = token else { continue }
            guard case .text(let bytes) = scanner.next() else { return "" }
            return HTMLScanner.decodeEntities(String(decoding: bytes, as: UTF8.self))
        }
        return nil
    }
}
