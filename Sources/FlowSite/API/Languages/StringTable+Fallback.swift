import FlowSiteUtilities

extension StringTable {
    /// Records that the page being made shows `text` in another language than its own, as its table lacks it.
    /// The page then notes those texts and is no page's `hreflang` alternate. Pages only listen when
    /// ``SiteInfo/fallbackLanguage`` is set.
    public static func shownInFallbackLanguage(_ text: String) {
        FallbackRecorder.current?.add(text)
    }
}

/// The fallback texts one page showed, in the order first shown, without repeats.
final class FallbackRecorder: Sendable {
    @TaskLocal static var current: FallbackRecorder?
    private let texts = Locked<[String]>([])

    func add(_ text: String) {
        texts.withLock { if !$0.contains(text) { $0.append(text) } }
    }

    var shown: [String] { texts.withLock { $0 } }
}
