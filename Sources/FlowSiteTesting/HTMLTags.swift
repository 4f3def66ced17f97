import Foundation

/// An HTML tokenizer that splits a page into tags as a browser does, by Unicode scalars (a combining mark can't hide
/// a `<` or a quote). Tests compare the tags of pages from hostile and harmless data of one shape to prove the data
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
        let s = Array(html.unicodeScalars)
        var tags: [Tag] = []
        var i = 0
        func isAlpha(_ u: Unicode.Scalar) -> Bool { ("a"..."z").contains(u) || ("A"..."Z").contains(u) }
        func isSpace(_ u: Unicode.Scalar) -> Bool { u == " " || u == "\t" || u == "\n" || u == "\u{C}" || u == "\r" }
        while i < s.count {
            guard s[i] == "<", i + 1 < s.count else {
                i += 1
                continue
            }
            if s[i + 1] == "!" {
                // Comment or doctype: to the next ">".
                while i < s.count, s[i] != ">" { i += 1 }
                tags.append(Tag(name: "!", attributes: [], urls: []))
                continue
            }
            let closing = s[i + 1] == "/"
            let start = closing ? i + 2 : i + 1
            guard start < s.count, isAlpha(s[start]) else {
                i += 1
                continue
            }
            var j = start
            var name = ""
            while j < s.count, !isSpace(s[j]), s[j] != "/", s[j] != ">" {
                name.unicodeScalars.append(s[j])
                j += 1
            }
            var tag = Tag(name: (closing ? "/" : "") + name.lowercased(), attributes: [], urls: [])
            while j < s.count, s[j] != ">" {
                if isSpace(s[j]) || s[j] == "/" {
                    j += 1
                    continue
                }
                var attribute = ""
                while j < s.count, !isSpace(s[j]), s[j] != "/", s[j] != ">", !(s[j] == "=" && !attribute.isEmpty) {
                    attribute.unicodeScalars.append(s[j])
                    j += 1
                }
                while j < s.count, isSpace(s[j]) { j += 1 }
                var value = ""
                if j < s.count, s[j] == "=" {
                    j += 1
                    while j < s.count, isSpace(s[j]) { j += 1 }
                    if j < s.count, s[j] == "\"" || s[j] == "'" {
                        let quote = s[j]
                        j += 1
                        while j < s.count, s[j] != quote {
                            value.unicodeScalars.append(s[j])
                            j += 1
                        }
                        j += 1
                    } else {
                        while j < s.count, !isSpace(s[j]), s[j] != ">" {
                            value.unicodeScalars.append(s[j])
                            j += 1
                        }
                    }
                }
                tag.attributes.append(attribute.lowercased())
                if urlAttributes.contains(attribute.lowercased()) { tag.urls.append(value) }
            }
            tags.append(tag)
            i = j + 1
            // The text of <script> and <style> is raw: nothing in it is a tag until its end tag.
            if tag.name == "script" || tag.name == "style" {
                let end = Array("</\(tag.name)".unicodeScalars)
                while i < s.count,
                    !(s[i] == "<" && s[i...].count >= end.count
                        && zip(s[i..<(i + end.count)], end).allSatisfy({ String($0.0).lowercased() == String($0.1) }))
                {
                    i += 1
                }
            }
        }
        return tags
    }

    /// The decoded text inside the first `<name>` element, for elements without child tags.
    public static func text(of name: String, in html: String) -> String? {
        let s = Array(html.unicodeScalars)
        let open = Array("<\(name)".unicodeScalars)
        guard
            let start = (0..<s.count).first(where: {
                s[$0...].starts(with: open) && (s[$0 + open.count] == ">" || s[$0 + open.count] == " ")
            }),
            let contentStart = s[start...].firstIndex(of: ">").map({ $0 + 1 }),
            let end = s[contentStart...].firstIndex(of: "<")
        else { return nil }
        let raw = String(String.UnicodeScalarView(s[contentStart..<end]))
        return raw.replacingOccurrences(of: "&lt;", with: "<", options: .literal)
            .replacingOccurrences(of: "&gt;", with: ">", options: .literal)
            .replacingOccurrences(of: "&quot;", with: "\"", options: .literal)
            .replacingOccurrences(of: "&#39;", with: "'", options: .literal)
            .replacingOccurrences(of: "&amp;", with: "&", options: .literal)
    }
}
