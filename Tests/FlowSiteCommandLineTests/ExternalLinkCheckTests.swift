import FlowSite
import Foundation
import Testing

@testable import FlowSiteCommandLine

/// `build --check-external-links` against a server of its own on 127.0.0.1: what answers is kept quiet, what does
/// not is named with why and its pages, and the build fails while the site it wrote stays.
@Suite struct ExternalLinkCheckTests {
    /// A page, a page that refuses HEAD, a redirect to the page, a redirect to itself, and 404 for the rest.
    static func server() throws -> HTTPServer {
        let server = try HTTPServer(host: "127.0.0.1", port: 0) { request in
            switch request.path {
            case "/ok": .text(200, "fine")
            case "/no-head": request.method == "HEAD" ? .text(405, "") : .text(200, "fine")
            case "/moved": HTTPServer.Response(status: 301, headers: [("Location", "/ok")])
            case "/loop": HTTPServer.Response(status: 302, headers: [("Location", "/loop")])
            default: .text(404, "no such page")
            }
        }
        server.start()
        return server
    }

    @Test func brokenLinksAreNamedWithWhyAndTheirPagesAndFailTheBuild() async throws {
        let server = try Self.server()
        let base = "http://127.0.0.1:\(server.port)"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("links-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        // Port 1 on this machine has no listener: the connection is refused.
        let urls = ["/ok", "/no-head", "/moved", "/loop", "/gone"].map { base + $0 } + ["http://127.0.0.1:1/closed"]
        let app = ShipCoordinator(linksOut: urls + ["mailto:crew@example.com", base + "/ok"])

        #expect(await SiteBuilder.runCommandLine(["build", "-o", site.path, "-q"], coordinator: app) == 0)
        let links = try ExternalLinks(site: site)
        #expect(links.web.map(\.url) == urls)
        #expect(links.web.allSatisfy { $0.pages == ["brig/index.html"] })
        #expect(links.mail == 1)

        let check = try ExternalLinkCheck()
        let broken = await check.broken(links.web)
        #expect(broken.map(\.url) == [base + "/loop", base + "/gone", "http://127.0.0.1:1/closed"])
        #expect(broken.map(\.why).first?.contains("redirect") == true, "\(broken)")
        #expect(broken.dropFirst().first?.why == "404 Not Found")
        #expect(broken.last?.why.contains("127.0.0.1") == true, "\(broken)")
        let lines = ExternalLinkCheck.report(checked: links.web.count, broken: broken, mail: links.mail)
        #expect(lines.first == "Links out of the site: 6 checked, 3 broken; 1 email address not checked")
        #expect(lines.contains("  \(base)/gone: 404 Not Found (on /brig/)"), "\(lines)")

        // The build with the check fails and keeps the site it wrote; without the broken links it passes.
        let arguments = ["build", "-o", site.path, "-q", "--check-external-links"]
        #expect(await SiteBuilder.runCommandLine(arguments, coordinator: app) == 1)
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("brig/index.html").path))
        // (Another folder: in one process the same program and options find the first site up to date.)
        let mended = ShipCoordinator(linksOut: urls.prefix(3).map { $0 })
        let other = ["build", "-o", folder.appendingPathComponent("mended").path, "-q", "--check-external-links"]
        #expect(await SiteBuilder.runCommandLine(other, coordinator: mended) == 0)
        await server.stop()
    }

    /// Without curl on the path, the option fails before the build writes anything, saying what to install.
    @Test func withoutCurlTheOptionSaysWhatToInstall() throws {
        #expect {
            try ExternalLinkCheck(environment: ["PATH": "/nonexistent"])
        } throws: { error in
            "\(error)".contains("apt-get install curl") && "\(error)".contains("--check-external-links")
        }
    }
}
