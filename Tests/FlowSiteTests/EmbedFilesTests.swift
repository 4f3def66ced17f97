import Foundation
import TestSupport
import Testing

/// The EmbedFiles plugin's rules and script (`Plugins/EmbedFiles/EmbeddedText.swift`, compiled here
/// through a link): what a raw string literal could not keep byte for byte is refused with the file
/// and the reason, and everything else comes out of the generated Swift file as it went in.
@Suite struct EmbedFilesTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("embed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(arguments: [
        ("windows.json", Data("{\r\n}\r\n".utf8), "carriage return"),
        ("nul.txt", Data([0x61, 0x00, 0x62]), "NUL"),
        ("latin-1.txt", Data([0x63, 0x61, 0x66, 0xE9]), "not UTF-8"),
        ("end.txt", Data("a \"\"\"#### b".utf8), "end or escape"),
        ("escape.txt", Data("a \\####(b) c".utf8), "end or escape"),
        ("say \"hi\".txt", Data("hi".utf8), "quote"),
        ("two\nlines.txt", Data("hi".utf8), "line break")
    ])
    func whatALiteralCouldNotKeepIsRefusedByName(name: String, bytes: Data, reason: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try bytes.write(to: file)
        let refusal = #expect(throws: EmbeddedText.Refusal.self) { try EmbeddedText.check(file, path: name) }
        #expect(refusal?.description.contains(file.path) == true, "\(String(describing: refusal))")
        #expect(refusal?.description.contains(reason) == true, "\(String(describing: refusal))")
    }

    @Test func theGeneratedFileHoldsEveryFileByteForByte() async throws {
        let swiftc = try #require(Executables.onPath("swiftc"), "swiftc is not on PATH")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let resources = folder.appendingPathComponent("Resources")
        let texts = [
            "a.json": "{\"name\": \"Luke\", \"escaped\": \"\\r\\n \\u00e9 \\\"quoted\\\"\"}\n",
            "deep/nested/b.css": "  leading spaces\n\ttabs\n\n\nblank lines above\n",
            "no-newline.txt": "the last line has no newline",
            "empty.txt": "",
            "literal.txt": "\"\"\" and \"\"\"# and \\(interpolation) and \\#(raw) and \\###(almost)\n",
            "unicode.txt": "e\u{301} \u{202E}right-to-left\u{202C} \u{1F916} \u{FEFF}\n"
        ]
        for (path, text) in texts {
            let file = resources.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        try Data("hidden".utf8).write(to: resources.appendingPathComponent(".hidden"))

        let paths = try EmbeddedText.files(below: resources)
        #expect(paths == texts.keys.sorted(), "every regular file but the hidden one, sorted")
        for path in paths { try EmbeddedText.check(resources.appendingPathComponent(path), path: path) }
        let generated = folder.appendingPathComponent("EmbeddedFiles.swift")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments =
            ["-c", EmbeddedText.script, "embed-files", generated.path]
            + paths.flatMap { [$0, resources.appendingPathComponent($0).path] }
        try shell.run()
        shell.waitUntilExit()
        try #require(shell.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: generated.path + ".partial"))

        // Compiled with a program that prints each file's bytes, as the plugin's output is compiled.
        let main = folder.appendingPathComponent("main.swift")
        try Data(
            """
            import Foundation
            for (path, text) in EmbeddedFiles.files.sorted(by: { $0.key < $1.key }) {
                print(path, Data(text.utf8).base64EncodedString())
            }
            """.utf8
        ).write(to: main)
        let program = folder.appendingPathComponent("program")
        let compile = Process()
        compile.executableURL = swiftc
        compile.arguments = [generated.path, main.path, "-o", program.path]
        try compile.run()
        compile.waitUntilExit()
        try #require(compile.terminationStatus == 0, "the generated file does not compile")
        let run = Process()
        run.executableURL = program
        let output = Pipe()
        run.standardOutput = output
        try run.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        run.waitUntilExit()
        let expected = texts.sorted { $0.key < $1.key }.map { "\($0.key) \(Data($0.value.utf8).base64EncodedString())" }
        #expect(printed.split(separator: "\n").map(String.init) == expected)
    }
}
