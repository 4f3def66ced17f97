import FlowSite
import Foundation

/// `build --check-external-links`: asks each web address a built site links to whether it answers, through the
/// system's `curl` (so the program links no TLS library and a build that checks nothing starts no process).
/// A HEAD request first, redirects followed up to 5 times; a server that refuses HEAD (403, 405, 501) is asked
/// with GET.
struct ExternalLinkCheck: Sendable {
    /// One address that did not answer with a page.
    struct Broken: Sendable, Equatable {
        var url: String
        /// "404 Not Found", "Could not resolve host: example.invalid".
        var why: String
        /// From the site's root (`settings/index.html`).
        var pages: [String]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var curl: URL
    /// Seconds for each request, connection included.
    var timeout = 10
    /// Requests in flight at once.
    var lanes = 8

    /// The check with `curl` from the `PATH`.
    /// - Throws: ``Failure`` saying to install curl when there is none.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard
            let found = folders.map({ URL(fileURLWithPath: String($0)).appendingPathComponent("curl") }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0.path)
            })
        else {
            throw Failure(
                description: """
                    --check-external-links asks each address with curl, which is not on the PATH: install it \
                    (apt-get install curl) or build without the option
                    """)
        }
        curl = found
    }

    /// The links that did not answer, in the order given.
    func broken(_ links: [ExternalLinks.Link]) async -> [Broken] {
        await withTaskGroup(of: (Int, String?).self) { group in
            var results = [String?](repeating: nil, count: links.count)
            var next = 0
            func add() {
                guard next < links.count else { return }
                let (index, url) = (next, links[next].url)
                group.addTask { (index, await problem(with: url)) }
                next += 1
            }
            for _ in 0..<lanes { add() }
            while let (index, why) = await group.next() {
                results[index] = why
                add()
            }
            return links.indices.compactMap { index in
                results[index].map { Broken(url: links[index].url, why: $0, pages: links[index].pages) }
            }
        }
    }

    /// Why `url` is broken, or `nil` when it answers with a success.
    func problem(with url: String) async -> String? {
        var answer = await ask(url, head: true)
        if case .status(let code) = answer, [403, 405, 501].contains(code) { answer = await ask(url, head: false) }
        switch answer {
        case .status(let code) where (200..<300).contains(code): return nil
        case .status(let code): return "\(code) \(HTTPServer.reason(code))"
        case .failed(let why): return why
        }
    }

    enum Answer: Equatable {
        case status(Int)
        case failed(String)
    }

    private func ask(_ url: String, head: Bool) async -> Answer {
        let process = Process()
        process.executableURL = curl
        process.arguments =
            [
                "--silent", "--show-error", "--location", "--max-redirs", "5", "--max-time", "\(timeout)",
                "--proto", "=http,https", "--proto-redir", "=http,https", "--output", "/dev/null",
                "--write-out", "%{http_code}", "--user-agent", "FlowSite link check"
            ] + (head ? ["--head"] : []) + ["--url", url]
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let ended: Void? = await withCheckedContinuation { continuation in
            process.terminationHandler = { _ in continuation.resume(returning: ()) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: nil)
            }
        }
        guard ended != nil else { return .failed("curl could not be started at \(curl.path)") }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if process.terminationStatus == 0, let code = Int(said.trimmingCharacters(in: .whitespaces)) {
            return .status(code)
        }
        // "curl: (6) Could not resolve host: example.invalid" → what follows the code.
        var why = complaint.split(separator: "\n").first.map(String.init) ?? "curl failed"
        if let code = why.range(of: ") ") { why = String(why[code.upperBound...]) }
        return .failed(why)
    }

    /// What the build prints: a summary line, then each broken link with its pages.
    static func report(checked: Int, broken: [Broken], mail: Int) -> [String] {
        var summary =
            "Links out of the site: \(checked) checked, \(broken.count) broken"
        if mail > 0 { summary += "; \(mail) email \(mail == 1 ? "address" : "addresses") not checked" }
        var lines = [summary]
        for link in broken {
            let pages = link.pages.prefix(3).map(SiteComparison.displayPath).joined(separator: ", ")
            let more = link.pages.count > 3 ? " and \(link.pages.count - 3) more" : ""
            lines.append("  \(link.url): \(link.why) (on \(pages)\(more))")
        }
        return lines
    }
}
