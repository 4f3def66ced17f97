@testable import FlowSite
import Foundation
import Testing

@Suite struct TemplateSetTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theEmbeddedTemplatesMatchTheTemplatesFolder() throws {
        let folder = try TemplateSet.load(from: Self.repository.appendingPathComponent("templates"), over: TemplateSet())
        let embedded = TemplateSet.embedded
        #expect(
            folder.templates == embedded.templates && folder.assets == embedded.assets,
            "templates/ and the copy built into the binary differ: run `make embed` and commit."
        )
        #expect(Set(embedded.templates.keys).isSuperset(of: ["layout", "404", "header", "breadcrumbs", "footer"]))
        #expect(embedded.assets["style.css"] != nil)
    }

    @Test func aTemplatesFolderOverridesFileByFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("partials"), withIntermediateDirectories: true)
        try Data("<footer>mine</footer>".utf8).write(to: folder.appendingPathComponent("partials/footer.mustache"))
        let set = try TemplateSet.load(from: folder)
        #expect(set.templates["footer"] == "<footer>mine</footer>")
        #expect(set.templates["layout"] == TemplateSet.embedded.templates["layout"])
    }

    @Test func aMissingFolderIsNamed() {
        #expect {
            try TemplateSet.load(from: URL(fileURLWithPath: "/no/such/templates"))
        } throws: { error in
            (error as? FlowSiteError)?.description.contains("/no/such/templates") == true
        }
    }

    @Test func aBrokenTemplateIsNamed() {
        var set = TemplateSet.embedded
        set.templates["layout"] = "<p>\n{{#open}} never closed {{/shut}}"
        #expect {
            try PageRenderer<Node>(templates: set, site: SiteInfo(name: "x"))
        } throws: { error in
            let message = (error as? FlowSiteError)?.description ?? ""
            return message.contains("layout.mustache") && message.contains("line 2,") && !message.contains("MustacheParserContext")
        }
    }
}
