/// The default templates and assets by their path in a templates folder. SwiftPM embeds the
/// bytes of `Resources/templates` (listed in Package.swift) and names each by its file name
/// alone, so this table puts the folders back.
enum DefaultTemplates {
    static let files: [(path: String, bytes: [UInt8])] = [
        ("layout.mustache", PackageResources.layout_mustache),
        ("404.mustache", PackageResources._04_mustache),
        ("partials/header.mustache", PackageResources.header_mustache),
        ("partials/breadcrumbs.mustache", PackageResources.breadcrumbs_mustache),
        ("partials/footer.mustache", PackageResources.footer_mustache),
        ("partials/pagination.mustache", PackageResources.pagination_mustache),
        ("assets/style.css", PackageResources.style_css),
        ("assets/favicon.svg", PackageResources.favicon_svg),
        ("assets/search.js", PackageResources.search_js)
    ]
}
