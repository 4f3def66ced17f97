import Foundation
import TestSupport
import Testing

@testable import FlowSiteCommandLine

/// Which request paths `serve` refuses before it looks for a file.
@Suite struct ServePathTests {
    typealias Preview = SiteServer

    @Test(arguments: [
        "/index.html%00.txt", "/%00", "/a%0Ab", "/a%0d%0a", "/x%7f", "/x%C2%85", "/x%c2%9f", "/about/%1B%5B2J",
        "/raw\u{1}", "/raw\u{7F}",
        // Malformed escapes: a lone %, a non-hex digit, an overlong UTF-8 dot, a surrogate.
        "/%", "/%zz", "/%4", "/%C0%AE%C0%AE/", "/%ED%A0%80"
    ])
    func controlBytesAndMalformedEscapesAreRefused(path: String) {
        #expect(Preview.isUnservable(path))
    }

    @Test(arguments: [
        "/", "/characters/luke-skywalker/", "/characters/luke-skywalker/index.html", "/search/?q=r2%20d2",
        "/characters/ana%C3%AFs/", "/%25zz", "/characters/%E2%80%AEevil/", "/assets/style.css"
    ])
    func ordinaryPathsAreServed(path: String) {
        #expect(!Preview.isUnservable(path))
    }
}

/// A preview left by a server killed with SIGKILL is removed by the next `serve`; a running
/// server's is kept.
@Suite struct AbandonedPreviewTests {
    @Test func previewsOfEndedServersAreRemovedAndRunningOnesKept() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("previews-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let dead = try #require(Processes.deadIdentifier(), "no ended process id to use")
        let names = [
            "flowsite-preview-\(dead)-0000", "flowsite-preview-\(getpid())-1111", "flowsite-preview-x-2222",
            "unrelated-\(dead)"
        ]
        for name in names {
            try FileManager.default.createDirectory(
                at: parent.appendingPathComponent(name + "/site"), withIntermediateDirectories: true)
        }
        ServeAction.removeAbandonedPreviews(in: parent)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: parent.path))
        #expect(left == Set(names.dropFirst()), "\(left)")
    }
}
