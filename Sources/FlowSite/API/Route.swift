import Foundation

/// A destination in an app: one screen the app can show, and so one page of the site.
///
/// Apps describe their routes as enums, so navigation stays data:
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
}

/// A URL-safe path segment: lowercase ASCII letters, digits and single hyphens, never empty.
///
/// Any text becomes a slug: accents are folded, everything else turns into hyphens, so a slug
/// can never be `.`, `..` or contain a `/`, and a page can never be written outside the site.
///
/// ```swift
/// Slug("Padmé Amidala").rawValue  // "padme-amidala"
/// Slug("R2-D2").rawValue          // "r2-d2"
/// ```
public struct Slug: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The slug text.
    public let rawValue: String

    /// Makes a slug from any text; text with no letters or digits becomes `untitled`.
    public init(_ text: String) {
        if Self.isSlug(text) {
            // Routes rebuild their paths often, from text that already is a slug.
            rawValue = text
            return
        }
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
                } else if scalar == "'" || scalar == "’" {
                    continue  // "Jabba's" reads better as "jabbas" than "jabba-s"
                } else {
                    pendingHyphen = true
                }
            }
        }
        rawValue = result.isEmpty ? "untitled" : result
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// Whether `text` is already a slug: `a-z`, `0-9` and single inner hyphens.
    static func isSlug(_ text: String) -> Bool {
        var previousHyphen = true  // no leading hyphen
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): previousHyphen = false
            case UInt8(ascii: "-") where !previousHyphen: previousHyphen = true
            default: return false
            }
        }
        return !text.isEmpty && !previousHyphen
    }

    /// This slug with `-2`, `-3`, … appended: how an app keeps duplicate names apart.
    public func suffixed(_ number: Int) -> Slug { Slug("\(rawValue)-\(number)") }

    public var description: String { rawValue }

    public static func < (lhs: Slug, rhs: Slug) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The location of a route's page: a list of slugs below the site root.
///
/// A page is written to `<slugs>/index.html`, and links point at that file so that the site
/// also works when opened straight from disk.
public struct RoutePath: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The folders below the site root, outermost first.
    public let slugs: [Slug]

    /// The site's front page.
    public static let root = RoutePath([])

    public init(_ slugs: [Slug]) { self.slugs = slugs }

    public init(arrayLiteral elements: Slug...) { self.init(elements) }

    /// This path with more slugs below it.
    public func appending(_ more: Slug...) -> RoutePath { RoutePath(slugs + more) }

    /// The page's folder relative to the site root, with a trailing slash (`""` for the root).
    public var directory: String { slugs.map { $0.rawValue + "/" }.joined() }

    /// The page's file relative to the site root, such as `characters/luke-skywalker/index.html`.
    public var file: String { directory + "index.html" }

    /// The relative URL of `target`'s page as seen from this page.
    ///
    /// From `a/b/c` to the root this is `../../../index.html`; from `a/b` to `a/c` it is
    /// `../c/index.html`.
    public func relativeURL(to target: RoutePath) -> String {
        relativePrefix(to: target) + "index.html"
    }

    /// The relative path of a file at `name` in the site root as seen from this page.
    public func relativeURL(toSiteFile name: String) -> String {
        String(repeating: "../", count: slugs.count) + name
    }

    /// `../` repeated to reach the site root from this page; `./` at the root itself.
    public var rootPrefix: String {
        slugs.isEmpty ? "./" : String(repeating: "../", count: slugs.count)
    }

    private func relativePrefix(to target: RoutePath) -> String {
        var common = 0
        while common < slugs.count, common < target.slugs.count, slugs[common] == target.slugs[common] {
            common += 1
        }
        let ups = String(repeating: "../", count: slugs.count - common)
        let downs = target.slugs[common...].map { $0.rawValue + "/" }.joined()
        return ups + downs
    }

    public var description: String { "/" + directory }

    public static func < (lhs: RoutePath, rhs: RoutePath) -> Bool {
        lhs.slugs.lexicographicallyPrecedes(rhs.slugs)
    }
}
