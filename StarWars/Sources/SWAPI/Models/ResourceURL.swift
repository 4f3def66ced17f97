/// A resource URL taken apart as `<root><kind>/<id>/`: `https://swapi.dev/api/` + `films` +
/// `1`. Only http(s) URLs qualify, and paths from a server's root (`/api/films/1/`); a query or
/// fragment is ignored, and the scheme and host are compared in lowercase.
package struct ResourceURL: Hashable {
    /// Everything before the kind, ending in "/": `https://swapi.dev/api/`.
    let root: String
    /// `host` or `host:port` in lowercase; `nil` for a path.
    let host: String?
    let kind: ResourceKind
    let id: Int

    init?(_ url: String) {
        var rest = Substring(url)
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        var origin = ""
        var host: String?
        if let separator = rest.range(of: "://") {
            guard let authority = Self.authority(of: url) else { return nil }
            let afterScheme = rest[separator.upperBound...]
            host = authority
            origin = "\(rest[..<separator.lowerBound].lowercased())://\(authority)"
            rest = afterScheme[afterScheme.prefix { $0 != "/" }.endIndex...]
        }
        guard rest.hasPrefix("/"), !rest.hasPrefix("//") else { return nil }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let idSlash = rest.lastIndex(of: "/") else { return nil }
        let idText = rest[rest.index(after: idSlash)...]
        guard !idText.isEmpty, idText.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(idText) else {
            return nil
        }
        let beforeID = rest[..<idSlash]
        guard let kindSlash = beforeID.lastIndex(of: "/"),
            let kind = ResourceKind(rawValue: String(beforeID[beforeID.index(after: kindSlash)...]))
        else { return nil }
        self.root = origin + beforeID[...kindSlash]
        self.host = host
        self.kind = kind
        self.id = id
    }

    /// Whether `url` is exactly `<root><kind>/<id>` or `<root><kind>/<id>/`: the usual form,
    /// checked on bytes because an archive checks every relation this way.
    static func isPlain(_ url: String, root: String, kind: ResourceKind) -> Bool {
        var url = url
        var root = root
        var kind = kind.rawValue
        return url.withUTF8 { url in
            root.withUTF8 { root in
                kind.withUTF8 { kind in
                    let slash = UInt8(ascii: "/")
                    var index = root.count + kind.count + 1
                    guard url.count > index, url[root.count + kind.count] == slash,
                        url.starts(with: root), url[root.count...].starts(with: kind)
                    else { return false }
                    let end = url[url.count - 1] == slash ? url.count - 1 : url.count
                    guard index < end else { return false }
                    while index < end {
                        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(url[index]) else { return false }
                        index += 1
                    }
                    return true
                }
            }
        }
    }

    /// The lowercased `host` or `host:port` of an http(s) URL; `nil` for any other URL, or one
    /// with user info (`https://swapi.dev@elsewhere/`), spaces or backslashes before its path.
    package static func authority(of url: String) -> String? {
        guard let separator = url.range(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains(where: { $0 == "@" || $0 == "\\" || $0.isWhitespace }) else {
            return nil
        }
        return authority.lowercased()
    }
}
