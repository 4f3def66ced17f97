/// The default templates and assets by their path in a templates folder: every file below
/// `Resources/templates`, embedded by the EmbedFiles plugin.
enum DefaultTemplates {
    static let files: [(path: String, text: String)] = EmbeddedFiles.files.compactMap { path, text in
        path.hasPrefix("templates/") ? (String(path.dropFirst("templates/".count)), text) : nil
    }.sorted { $0.path < $1.path }
}
