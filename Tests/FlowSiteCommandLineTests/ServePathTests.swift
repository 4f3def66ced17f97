@_spi(Engine) @testable import FlowSiteCommandLine
import Testing

/// Which request paths `serve` refuses before it looks for a file.
@Suite struct ServePathTests {
    typealias Preview = SiteServer

    @Test(arguments: [
        "/index.html%00.txt", "/%00", "/a%0Ab", "/a%0d%0a", "/x%7f", "/x%C2%85", "/x%c2%9f", "/about/%1B%5B2J",
        "/raw\u{1}", "/raw\u{7F}",
        // Malformed escapes: a lone %, a non-hex digit, an overlong UTF-8 dot, a surrogate.
        "/%", "/%zz", "/%4", "/%C0%AE%C0%AE/", "/%ED%A0%80",
    ])
    func controlBytesAndMalformedEscapesAreRefused(path: String) {
        #expect(Preview.isUnservable(path))
    }

    @Test(arguments: ["/", "/characters/luke-skywalker/", "/characters/luke-skywalker/index.html", "/search/?q=r2%20d2",
                      "/characters/ana%C3%AFs/", "/%25zz", "/characters/%E2%80%AEevil/", "/assets/style.css"])
    func ordinaryPathsAreServed(path: String) {
        #expect(!Preview.isUnservable(path))
    }
}
