import Foundation

/// A destination in an app: one screen the app can show, and so one page of the site.
///
/// Findings and errors name a route by its path and, beside it, its `description` when the type is
/// `CustomStringConvertible`, else as Swift prints it when short (`leaf(1)`), else its case name alone: give a
/// route with a struct payload a short description (`extension AppRoute: CustomStringConvertible`) to name it.
///
/// ```swift
/// enum AppRoute: Route {
///     case home, detail(id: Int)
///     var path: RoutePath {
///         switch self {
///         case .home: .root
///         case .detail(let id): ["detail", Slug("\(id)")]
///         }
///     }
/// }
/// ```
public protocol Route: Hashable, Sendable {
    /// Where this route's page lives in the site, as a list of slugs; ``RoutePath/root`` is the
    /// site's front page. Two different routes must never share a path.
    var path: RoutePath { get }

    /// The kind of screen this route shows (see ``ScreenKind``). The default reads the enum case by reflection;
    /// implement it for readable names and flows, and to keep reflection off a large build's path.
    var screenKind: ScreenKind { get }

    /// One route of every kind of screen the app has, so flow lint can report a kind the walk never reaches.
    /// The default is empty, and `unreachable-screen` then says it has nothing to compare with.
    static var screenKindExamples: [Self] { get }
}

extension Route {
    public var screenKind: ScreenKind { ScreenKind(derivedFrom: self) }

    /// How findings and errors name the route beside its path: its `description` when the type is
    /// `CustomStringConvertible`; else as Swift prints it when that is short and flat (`leaf(1)`), else its case
    /// or type name alone (`detail`), never a nested payload.
    package var shownName: String {
        if let described = self as? any CustomStringConvertible { return described.description }
        let full = String(describing: self)
        if full.utf8.count <= 40, full.utf8.count(where: { $0 == UInt8(ascii: "(") }) <= 1 { return full }
        return String(full.prefix { $0 != "(" })
    }

    /// The route's path and name, as errors give it: `/feed/ (feed)`.
    package var shownPathAndName: String { "\(path) (\(shownName))" }

    public static var screenKindExamples: [Self] { [] }
}

/// A URL-safe path segment: lowercase ASCII letters, digits and single hyphens, never empty,
/// at most ``maximumLength`` bytes.
///
/// Any text becomes a slug (accents folded, other scripts transliterated to Latin, the rest hyphens), so a page can
/// never be written outside the site. Text with nothing to spell out becomes `untitled` or `untitled-<hash>`; a slug
/// too long is cut and given the text's hash, so different texts keep different slugs.
///
/// ```swift
/// Slug("Padmé Amidala").rawValue  // "padme-amidala"
/// Slug("R2-D2").rawValue          // "r2-d2"
/// Slug("Владимир").rawValue       // "vladimir"
/// ```
public struct Slug: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The slug text.
    public let rawValue: String

    /// The longest slug in bytes: well below the 255 a file name may have, so a slug plus `-N` always fits.
    public static let maximumLength = 80

    /// Makes a slug from any text.
    public init(_ text: String) {
        if Self.isSlug(text) {
            // Routes rebuild their paths often, from text that already is a slug.
            rawValue = text.utf8.count <= Self.maximumLength ? text : Self.capped(text, hashing: text)
            return
        }
        var folded = Self.fold(text)
        if folded.isEmpty, text.unicodeScalars.contains(where: { $0.value > 0x7F }),
            let latin = text.applyingTransform(.toLatin, reverse: false)
        {
            // Only text with nothing left after folding pays for transliteration, so "Padmé" keeps its folded slug.
            folded = Self.fold(latin)
        }
        if folded.isEmpty {
            let blank = text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
            rawValue = blank ? "untitled" : "untitled-" + Self.stableHash(text)
        } else {
            rawValue = folded.utf8.count <= Self.maximumLength ? folded : Self.capped(folded, hashing: text)
        }
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// Lowercase ASCII letters and digits of `text` (after folding accents), joined by single
    /// hyphens where anything else stood.
    private static func fold(_ text: String) -> String {
        foldASCII(text) ?? foldScalars(text)
    }

    /// ``fold(_:)`` for any text, scalar by scalar.
    static func foldScalars(_ text: String) -> String {
        var result = ""
        var pendingHyphen = false
        // NFKD splits "é" into "e" plus a combining accent, which is then dropped.
        let decomposed = text.decomposedStringWithCompatibilityMapping
        for scalar in decomposed.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            let lower = scalar.properties.lowercaseMapping
            for scalar in lower.unicodeScalars {
                if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                    if pendingHyphen && !result.isEmpty { result.append("-") }
                    pendingHyphen = false
                    result.unicodeScalars.append(scalar)
                } else if scalar == "'" || scalar == "’" || scalar == "ʿ" || scalar == "ʻ" {
                    continue // "Jabba's" reads better as "jabbas" than "jabba-s"
                } else {
                    pendingHyphen = true
                }
            }
        }
        return result
    }

    /// ``fold(_:)`` of ASCII text, on its bytes, as ASCII has no marks to drop; `nil` for any other text.
    static func foldASCII(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingHyphen = false
        for byte in text.utf8 {
            var letter = byte
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                letter = byte + 32
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            case UInt8(ascii: "'"):
                continue
            case 0x80...:
                return nil
            default:
                pendingHyphen = true
                continue
            }
            if pendingHyphen && !bytes.isEmpty { bytes.append(UInt8(ascii: "-")) }
            pendingHyphen = false
            bytes.append(letter)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `slug` cut to leave room for a hyphen and the hash of `original`.
    private static func capped(_ slug: String, hashing original: String) -> String {
        let suffix = "-" + stableHash(original)
        return trimmed(slug, toBytes: maximumLength - suffix.utf8.count) + suffix
    }

    /// The first `count` bytes of an ASCII slug, without a trailing hyphen.
    private static func trimmed(_ slug: String, toBytes count: Int) -> String {
        var prefix = slug.utf8.prefix(count)
        while prefix.last == UInt8(ascii: "-") { prefix.removeLast() }
        return String(decoding: prefix, as: UTF8.self)
    }

    /// Eight hex digits of the text's ``StableHash``: the same on every machine and run, unlike `Hasher`.
    static func stableHash(_ text: String) -> String {
        var hash = StableHash()
        hash.combine(text)
        let hex = String(hash.low >> 32 ^ hash.low & 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// Whether `text` is already a slug: `a-z`, `0-9` and single inner hyphens.
    static func isSlug(_ text: String) -> Bool {
        var previousHyphen = true // no leading hyphen
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): previousHyphen = false
            case UInt8(ascii: "-") where !previousHyphen: previousHyphen = true
            default: return false
            }
        }
        return !text.isEmpty && !previousHyphen
    }

    /// This slug with `-2`, `-3`, … appended, cut first at the maximum length so the suffix is never lost.
    public func suffixed(_ number: Int) -> Slug {
        let suffix = "-\(number)"
        return Slug(Self.trimmed(rawValue, toBytes: Self.maximumLength - suffix.utf8.count) + suffix)
    }

    public var description: String { rawValue }

    public static func < (lhs: Slug, rhs: Slug) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The location of a route's page: a list of slugs below the site root. A page is written to
/// `<slugs>/index.html`, and links point at that file so the site also works opened from disk.
public struct RoutePath: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The folders below the site root, outermost first.
    public let slugs: [Slug]

    /// The site's front page.
    public static let root = RoutePath([])

    /// The path of `slugs`, outermost first; an array literal of slugs makes one too.
    public init(_ slugs: [Slug]) { self.slugs = slugs }

    public init(arrayLiteral elements: Slug...) { self.init(elements) }

    /// This path with more slugs below it.
    public func appending(_ more: Slug...) -> RoutePath { RoutePath(slugs + more) }

    /// The page's folder relative to the site root, with a trailing slash (`""` for the root).
    public var directory: String { slugs.map { $0.rawValue + "/" }.joined() }

    /// The page's file relative to the site root, such as `characters/luke-skywalker/index.html`.
    public var file: String { directory + "index.html" }

    /// The relative URL of `target`'s page as seen from this page: from `a/b` to `a/c` it is `../c/index.html`.
    public func relativeURL(to target: RoutePath) -> String {
        var bytes: [UInt8] = []
        appendRelativeURL(to: target, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The relative path of a file at `name` in the site root as seen from this page.
    public func relativeURL(toSiteFile name: String) -> String {
        String(repeating: "../", count: slugs.count) + name
    }

    /// `../` repeated to reach the site root from this page; `./` at the root itself.
    public var rootPrefix: String {
        slugs.isEmpty ? "./" : String(repeating: "../", count: slugs.count)
    }

    /// Appends ``relativeURL(to:)`` to `out` as UTF-8, without making a String.
    func appendRelativeURL(to target: RoutePath, into out: inout [UInt8]) {
        var common = 0
        while common < slugs.count, common < target.slugs.count, slugs[common] == target.slugs[common] {
            common += 1
        }
        for _ in common..<slugs.count { out.append(contentsOf: "../".utf8) }
        for slug in target.slugs[common...] {
            out.append(contentsOf: slug.rawValue.utf8)
            out.append(UInt8(ascii: "/"))
        }
        out.append(contentsOf: "index.html".utf8)
    }

    /// Appends ``relativeURL(toSiteFile:)`` to `out` as UTF-8.
    func appendRelativeURL(toSiteFile name: String, into out: inout [UInt8]) {
        for _ in 0..<slugs.count { out.append(contentsOf: "../".utf8) }
        out.append(contentsOf: name.utf8)
    }

    public var description: String { "/" + directory }

    /// The path whose ``description`` is `description` (`/characters/luke-skywalker/`), as records keep it.
    package init(parsing description: String) {
        self.init(description.split(separator: "/").map { Slug(String($0)) })
    }

    public static func < (lhs: RoutePath, rhs: RoutePath) -> Bool {
        lhs.slugs.lexicographicallyPrecedes(rhs.slugs)
    }
}

extension Route {
    /// Where the route's page is written: its path, or for a tab's root shown as a dialog
    /// (`dialogCopy`), `dialog/` below the tab's own page, so the tab keeps the route's path.
    package func pagePath(dialogCopy: Bool) -> RoutePath {
        dialogCopy ? path.appending("dialog") : path
    }
}
