extension Strings {
    /// Every language the app speaks, with its string table as compiled into the binary: each
    /// `Resources/Strings/<code>.json`, embedded by FlowSite's EmbedFiles plugin.
    ///
    /// To add a language: copy `Resources/Strings/en.json` to `<code>.json` and translate every
    /// value (keep the keys and the `{placeholders}`). No other file changes.
    static let tables: [(language: String, json: [UInt8])] = EmbeddedFiles.files.compactMap { path, text in
        guard path.hasPrefix("Strings/"), path.hasSuffix(".json") else { return nil }
        return (String(path.dropFirst("Strings/".count).dropLast(".json".count)), Array(text.utf8))
    }.sorted { $0.language < $1.language }
}
