import Foundation
import Testing

@testable import SWAPI

/// The check that finds where JSON goes wrong, and tells a body cut short from one that is not
/// JSON at all.
@Suite struct JSONSyntaxTests {
    func problem(_ bytes: [UInt8]) -> JSONSyntax.Problem? { JSONSyntax.firstProblem(in: Data(bytes)) }
    func problem(_ text: String) -> JSONSyntax.Problem? { problem(Array(text.utf8)) }

    @Test(arguments: [
        "[]", " {} ", "\u{FEFF}[1]", #"{"a": [1, -2.5e3, 0, 0.5E-7, true, false, null, "x\u00e9\n\"\\\/"], "b": {}}"#,
        "\"Padmé\"", "[\r\n\t1\r\n]"
    ])
    func validJSONPasses(_ text: String) {
        #expect(problem(text) == nil)
        // Foundation agrees.
        #expect(throws: Never.self) {
            try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        }
    }

    @Test(arguments: [#"[{"a": 1"#, #"{"a": "tex"#, "[tru", "", "[1, ", #"{"a""#, "[-"])
    func dataThatStopsTooSoonIsATruncation(_ text: String) throws {
        let found = try #require(problem(text))
        #expect(found.isTruncation, "\(found)")
    }

    @Test func aCharacterCutInHalfIsATruncationToo() throws {
        let found = try #require(problem(Array("[\"Padm".utf8) + [0xC3]))
        #expect(found.isTruncation)
    }

    @Test(arguments: [
        ("[1,]", 1, 4, "a value", "']'"),
        (#"{"a" 1}"#, 1, 6, "':'", "'1'"),
        ("[01]", 1, 3, "',' or ']'", "'1'"),
        ("[1] x", 1, 5, "the end of the data", "'x'"),
        ("<!DOCTYPE html>", 1, 1, "a value", "'<'"),
        (
            "[\n  \"a\tb\"]", 2, 5, "text without control characters (write a line break as \\n)",
            "a control character (byte 0x9)"
        ),
        ("{\n  'a': 1}", 2, 3, "a field name in double quotes", "'''"),
        ("[\"é\", é]", 1, 7, "a value", "'é'")
    ])
    func invalidJSONSaysWhereAndWhat(text: String, line: Int, column: Int, expected: String, found: String) throws {
        let first = try #require(problem(text))
        #expect(!first.isTruncation)
        #expect(first.position.line == line && first.position.column == column, "\(first.position)")
        #expect(first.reason == .unexpected(expected: expected, found: found))
    }

    @Test(
        arguments: [
            [0xC0, 0x80], // an overlong form
            [0xED, 0xA0, 0x80], // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80], // above U+10FFFF
            [0x80], // a lone continuation byte
            [0xE2, 0x28, 0xA1] // a sequence broken off
        ] as [[UInt8]])
    func invalidUTF8IsFoundInAndOutsideText(_ bad: [UInt8]) throws {
        for bytes in [Array("[\"ab".utf8) + bad + Array("\"]".utf8), Array("[1, ".utf8) + bad + Array("]".utf8)] {
            let first = try #require(problem(bytes))
            #expect(first.reason == .invalidUTF8)
            #expect(first.position.byte == bytes.firstIndex(of: bad[0])! + 1)
        }
    }
}
