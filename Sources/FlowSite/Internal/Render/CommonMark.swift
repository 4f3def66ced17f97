import CCmark
import Foundation

/// Converts CommonMark to HTML with cmark, always in safe mode: raw HTML becomes a comment and `javascript:`-style
/// destinations are dropped, so Markdown can never put a tag or a script on a page.
///
/// ```swift
/// try CommonMark.html(from: "Hello *world*")  // "<p>Hello <em>world</em></p>\n"
/// ```
enum CommonMark {
    /// cmark's rendering options, without the unsafe one.
    struct Options: OptionSet, Sendable {
        let rawValue: Int32
        init(rawValue: Int32) { self.rawValue = rawValue }

        /// Curly quotes, en and em dashes, ellipses.
        static let smart = Options(rawValue: CMARK_OPT_SMART)
        /// Replaces invalid UTF-8 with U+FFFD.
        static let validateUTF8 = Options(rawValue: CMARK_OPT_VALIDATE_UTF8)
    }

    /// - Throws: ``FlowSiteError`` when cmark returns nothing (out of memory).
    static func html(from markdown: String, options: Options = [.validateUTF8]) throws -> String {
        // CMARK_OPT_UNSAFE is masked off whatever the caller built, so safe mode can't be lost.
        let flags = options.rawValue & ~CMARK_OPT_UNSAFE
        let length = markdown.utf8.count
        let result: UnsafeMutablePointer<CChar>? = markdown.withCString { pointer in
            cmark_markdown_to_html(pointer, length, flags)
        }
        guard let result else { throw FlowSiteError(.commonMarkFailed) }
        defer { free(result) }
        return String(cString: result)
    }

    /// - Throws: ``FlowSiteError`` when cmark returns nothing (out of memory).
    static func appendHTML(of markdown: String, to out: inout [UInt8], options: Options = [.validateUTF8]) throws {
        let flags = options.rawValue & ~CMARK_OPT_UNSAFE
        var markdown = markdown
        let result: UnsafeMutablePointer<CChar>? = markdown.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_markdown_to_html($0.baseAddress, $0.count, flags) }
        }
        guard let result else { throw FlowSiteError(.commonMarkFailed) }
        defer { free(result) }
        out.append(contentsOf: UnsafeRawBufferPointer(start: result, count: strlen(result)))
    }

    /// - Throws: ``FlowSiteError`` when cmark returns nothing (out of memory).
    static func appendHTML(
        of markdown: ArraySlice<UInt8>, to out: inout [UInt8], options: Options = [.validateUTF8]
    ) throws {
        if markdown.isEmpty { return } // cmark makes nothing of nothing
        let flags = options.rawValue & ~CMARK_OPT_UNSAFE
        let result: UnsafeMutablePointer<CChar>? = markdown.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { cmark_markdown_to_html($0.baseAddress, $0.count, flags) }
        }
        guard let result else { throw FlowSiteError(.commonMarkFailed) }
        defer { free(result) }
        out.append(contentsOf: UnsafeRawBufferPointer(start: result, count: strlen(result)))
    }

    /// Such as `0.30.2`.
    static var version: String { String(cString: cmark_version_string()) }
}
