import Foundation
import Testing

@testable import FlowSite

@Suite struct TemplateSetTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyFileOfTheTemplatesFolderIsEmbeddedAsBytes() throws {
        let root = Self.repository.appendingPathComponent("Sources/FlowSite/Resources/templates")
        let onDisk = try FileManager.default.subpathsOfDirectory(atPath: root.path)
            .filter { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
            .filter { path in
                (try? root.appendingPathComponent(path).resourceValues(forKeys: [.isRegularFileKey]).isRegularFile)
                    == true
            }
        #expect(
            Set(onDisk) == Set(DefaultTemplates.files.map(\.path)),
            "every file of Resources/templates is embedded")
        for file in DefaultTemplates.files {
            #expect(
                try Data(contentsOf: root.appendingPathComponent(file.path)) == Data(file.text.utf8),
                "\(file.path) differs from its embedded bytes")
        }
        let embedded = TemplateSet.embedded
        #expect(Set(embedded.templates.keys).isSuperset(of: ["layout", "404", "header", "breadcrumbs", "footer"]))
        #expect(embedded.assets["style.css"] != nil)
        // The top-level templates/ is the same folder.
        let linked = try TemplateSet.load(
            from: Self.repository.appendingPathComponent("templates"), over: TemplateSet())
        #expect(linked.templates == embedded.templates && linked.assets == embedded.assets)
    }

    @Test func theEmbeddedSetWritesOutAsAFolderThatLoadsBackTheSame() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try TemplateSet.embedded.write(to: folder.appendingPathComponent("mine"))
        #expect(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("mine/partials/header.mustache").path))
        let loaded = try TemplateSet.load(from: folder.appendingPathComponent("mine"), over: TemplateSet())
        #expect(loaded.templates == TemplateSet.embedded.templates && loaded.assets == TemplateSet.embedded.assets)
        #expect(throws: FlowSiteError.self) {
            try TemplateSet.embedded.write(to: folder.appendingPathComponent("mine"))
        }
    }

    @Test func aTemplatesFolderOverridesFileByFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("partials"), withIntermediateDirectories: true)
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
            return message.contains("layout.mustache") && message.contains("line 2,")
                && !message.contains("MustacheParserContext")
        }
    }
}

/// The layout is rendered by the compiled templates, not swift-mustache's fallback.
@Suite struct CompiledTemplateTests {
    @Test func everyDefaultTemplateCompiles() {
        for (name, source) in TemplateSet.embedded.templates {
            #expect(CompiledTemplate.compile(source) != nil, "\(name).mustache falls back to swift-mustache")
        }
    }

    @Test func standaloneTagsDisappearAndPartialsAreIndented() {
        let layout = CompiledTemplate.compile(
            """
            <ul>\n  {{#items}}\n  <li>{{name}}</li>\n  {{/items}}\n</ul>\n  {{> note}}\n{{! a comment }}\n\
            {{{raw}}}|{{labels.ok}}\n
            """
        )!
        let note = CompiledTemplate.compile("<p>{{missing}}note</p>\n<p>two</p>\n")!
        var stack: [TemplateFrame] = [
            [
                "items": .list([["name": .text("a<b")], ["name": .text("c\u{301}\"")]]),
                "raw": .text("<i>"), "labels": .object(["ok": .text("OK")])
            ]
        ]
        var out: [UInt8] = []
        layout.render(&stack, into: &out, partials: ["note": note])
        #expect(
            String(decoding: out, as: UTF8.self)
                == "<ul>\n  <li>a&lt;b</li>\n  <li>c\u{301}&quot;</li>\n</ul>\n  <p>note</p>\n  <p>two</p>\n<i>|OK\n")
    }

    /// Sections inside sections, a section right after another, and a partial inside a
    /// repeated section: each section's operations end where its own tag closes.
    @Test func nestedSectionsEndWhereTheirTagsClose() {
        let page = CompiledTemplate.compile(
            """
            {{#rows}}[{{#on}}on{{/on}}{{^on}}off{{/on}}{{#tags}}<{{name}}>{{/tags}}]\n  {{> cell}}\n\
            {{/rows}}{{#none}}never{{/none}}end {{title}}\n
            """
        )!
        let cell = CompiledTemplate.compile("<td>{{name}}</td>\n")!
        var stack: [TemplateFrame] = [
            [
                "title": .text("T"),
                "rows": .list([
                    [
                        "on": .flag(true), "name": .text("a"),
                        "tags": .list([["name": .text("x")], ["name": .text("y")]])
                    ],
                    ["on": .flag(false), "name": .text("b&c")]
                ])
            ]
        ]
        var out: [UInt8] = []
        page.render(&stack, into: &out, partials: ["cell": cell])
        #expect(String(decoding: out, as: UTF8.self) == "[on<x><y>]\n  <td>a</td>\n[off]\n  <td>b&amp;c</td>\nend T\n")
        #expect(stack.count == 1, "every frame a section pushed is popped")
    }

    @Test func unsupportedMustacheDoesNotCompile() {
        for source in ["{{=<% %>=}}", "{{$block}}x{{/block}}", "{{.}}", "{{#a}}unclosed"] {
            #expect(CompiledTemplate.compile(source) == nil, "\(source)")
        }
    }

    /// A template the renderer can't render is refused with the template, the line and what to
    /// do, before anything is built (no second engine renders it differently).
    @Test func aTemplateOutsideTheSupportedMustacheIsRefusedByNameAndLine() throws {
        var templates = TemplateSet.embedded
        templates.templates["footer"] = "<footer>\n{{=<% %>=}}\n<%site%></footer>\n"
        do {
            _ = try PageRenderer<Node>(templates: templates, site: SiteInfo(name: "S"))
            Issue.record("the footer was accepted")
        } catch let error as FlowSiteError {
            #expect(
                error.description.contains("footer.mustache") && error.description.contains("line 2: set delimiters"),
                "\(error)")
        }
        templates.templates["footer"] = "<ul>{{#items}}<li>{{.}}</li>{{/items}}</ul>"
        #expect(throws: FlowSiteError.self) { try PageRenderer<Node>(templates: templates, site: SiteInfo(name: "S")) }
        // A syntax error still names its line and column.
        templates.templates["footer"] = "<p>\n{{#a}}</p>"
        do {
            _ = try PageRenderer<Node>(templates: templates, site: SiteInfo(name: "S"))
            Issue.record("the footer was accepted")
        } catch let error as FlowSiteError {
            #expect(error.description.contains("footer.mustache") && error.description.contains("line 2"), "\(error)")
        }
    }
}
