extension Unicode.Scalar {
    /// Whether the scalar is a bidirectional embedding, override, isolate or mark: text that can make what follows
    /// read in another order than it is written (a link, a name in a report).
    package var reordersText: Bool {
        switch self {
        case "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}", "\u{200E}", "\u{200F}", "\u{061C}": true
        default: false
        }
    }
}
