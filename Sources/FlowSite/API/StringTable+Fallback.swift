extension StringTable {
    /// Records that the page being made shows `text` in another language than its own, because
    /// its language's table lacks it (a build that falls back rather than fails). The page then
    /// carries a note naming those texts, and in a multilingual site it is no page's `hreflang`
    /// alternate, since it is not really translated. Pages only listen when
    /// ``SiteInfo/fallbackLanguage`` is set; otherwise a report costs one task-local lookup.
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
