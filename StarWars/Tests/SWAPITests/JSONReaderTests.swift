import Foundation
import PropertyBased
import StarWarsTestSupport
import Testing

@testable import SWAPI

/// The byte reader is a shortcut past Foundation's decoder: whatever it accepts, Foundation
/// must accept and decode to the same values; whatever is unusual it must leave to Foundation.
@Suite struct JSONReaderTests {
    /// What the slow path makes of `data`: the syntax check, then Foundation.
    private static func foundation<R: SwapiResource>(_ type: R.Type, _ data: Data) -> [R]? {
        guard JSONSyntax.firstProblem(in: data) == nil else { return nil }
        return try? JSONDecoder().decode([R].self, from: data)
    }

    @Test func theEmbeddedFilesReadAsFoundationReadsThem() throws {
        let archive = try EmbeddedSnapshot.load()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("json-reader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try SnapshotDirectory.write(archive, to: folder)
        func check<R: SwapiRecord>(_ type: R.Type) throws {
            let data = try Data(contentsOf: folder.appendingPathComponent(R.kind.fileName))
            let fast = try #require(
                SwapiJSONReader.resources(R.self, in: data), "the reader left \(R.kind.fileName) to Foundation")
            #expect(fast == Self.foundation(R.self, data))
            #expect(!fast.isEmpty)
        }
        try check(Person.self)
        try check(Film.self)
        try check(Planet.self)
        try check(Species.self)
        try check(Starship.self)
        try check(Vehicle.self)
    }

    @Test func escapesNumbersAndNullsReadAsFoundationReadsThem() throws {
        let json = #"""
            [ {"name":"Lu\u006Be \"Red 5\" \ud83d\ude80 Skywalker\/\\\n","height":172,"mass":-0,"hair_color":null,
               "eye_color":"blue","birth_year":"19BBY","gender":"male","homeworld":"",
               "films":["https://swapi.dev/api/films/1/","/api/films/2"],"species":null,
               "vehicles":[],"created":"2014","edited":"2014","url":"https://swapi.dev/api/people/1/",
               "extra":{"deep":[[1,2,{"x":[true,false,null]}],-1.5e-3]}},
              {"url":"http://localhost:8080/api/people/2","name":"Ｃ-3PO"} ]
            """#
        let data = Data(json.utf8)
        let fast = try #require(SwapiJSONReader.resources(Person.self, in: data))
        #expect(fast == Self.foundation(Person.self, data))
        #expect(fast[0].name == "Luke \"Red 5\" 🚀 Skywalker/\\\n")
        #expect(fast[0].height == "172")
        #expect(fast[0].mass == "0")
        #expect(fast[0].hairColor == "unknown")
        #expect(fast[0].homeworld == nil)
        #expect(fast[0].films.map(\.id) == [1, 2])
        #expect(fast[1].height == "unknown")
    }

    /// Strings are scanned eight bytes at a time until one needs a look: a quote, an escape, a
    /// control character or a multi-byte character is seen wherever in the word it falls.
    @Test func aSpecialByteIsSeenAtEveryPlaceInAWord() throws {
        let specials = [#"\""#, #"\\"#, #"\u00e9"#, "é", "🚀", "\u{01}", "\u{1F}", "\t", "\u{7F}"]
        for special in specials {
            for offset in 0..<20 {
                let name = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 19 - offset)
                let data = Data(#"[{"name":"\#(name)","url":"https://swapi.dev/api/people/1/"}]"#.utf8)
                let fast = SwapiJSONReader.resources(Person.self, in: data)
                let slow = Self.foundation(Person.self, data)
                if let fast { #expect(fast == slow, "\(special) at \(offset)") }
                let control = special.unicodeScalars.contains { $0.value < 0x20 }
                #expect((fast == nil) == control, "\(special) at \(offset): \(String(describing: fast?.first?.name))")
            }
        }
    }

    @Test(arguments: [
        "\u{FEFF}[]", // a byte order mark
        #"[{"name":"A","name":"B","url":"/api/people/1/"}]"#, // a field twice
        #"[{"n\u0061me":"A","url":"/api/people/1/"}]"#, // an escaped field name
        #"[{"name":"A","height":1.0,"url":"/api/people/1/"}]"#, // a number that is not an integer as text
        #"[{"name":"A","height":12345678901234567890,"url":"/api/people/1/"}]"#, // too long for Int
        #"[{"name":"A \ud800","url":"/api/people/1/"}]"#, // a lone surrogate
        #"[{"name":"","url":"/api/people/1/"}]"#, // an empty required field
        #"[{"url":"/api/people/1/"}]"#, // a missing required field
        #"[{"name":"A","url":"/api/people/x/"}]"#, // an own URL without an id
        #"[{"name":"A","films":["/api/films/x/"],"url":"/api/people/1/"}]"#, // a bad relation
        #"[{"name":"A","films":"/api/films/1/","url":"/api/people/1/"}]"#, // a list that is not one
        #"[{"name":"A","url":"/api/people/1/"},]"#, // a trailing comma
        #"[{"name":"A","url":"/api/people/1/"}] x"#, // something after the array
        // a raw control character
        #"[{"name":"A\u0001","url":"/api/people/1/"}]"#.replacingOccurrences(of: "\\u0001", with: "\u{01}"),
        #"[1]"#, // not an object
        #"{}"#, // not an array
        ""
    ])
    func theUnusualIsLeftToFoundation(_ json: String) {
        #expect(SwapiJSONReader.resources(Person.self, in: Data(json.utf8)) == nil)
    }

    @Test func invalidUTF8IsLeftToFoundation() {
        var bytes = Array(#"[{"name":"A","url":"/api/people/1/"}]"#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            var broken = bytes
            broken.insert(contentsOf: bad, at: 11)
            #expect(SwapiJSONReader.resources(Person.self, in: Data(broken)) == nil)
        }
        bytes.insert(contentsOf: [0xE2, 0x82, 0xAC], at: 11) // €, which is fine
        #expect(SwapiJSONReader.resources(Person.self, in: Data(bytes))?.first?.name == "A€")
    }

    /// Random resources written in random ways, some of them then damaged a byte at a time.
    @Test func whateverTheReaderAcceptsFoundationDecodesTheSame() async {
        let accepted = Counter()
        await propertyCheck(count: 4000, input: Gen.uint64()) { seed in
            var random = SplitMix(seed: seed)
            var writer = JSONWriter(random: random)
            var bytes = writer.document()
            random = writer.random
            let damaged = random.next() % 3 == 0
            if damaged { Self.damage(&bytes, &random) }
            let data = Data(bytes)
            guard let fast = SwapiJSONReader.resources(Person.self, in: data) else { return }
            if !damaged { accepted.add() }
            let slow = Self.foundation(Person.self, data)
            #expect(slow == fast, "\(String(decoding: bytes, as: UTF8.self))")
        }
        // Hundreds of the undamaged documents are ordinary (about 660 of 4,000 with these odds): a
        // reader that gave up on everything would fail.
        #expect(accepted.value > 300)
    }

    private static func damage(_ bytes: inout [UInt8], _ random: inout SplitMix) {
        let noise: [UInt8] = Array("\"\\,:{}[] 0-.eu".utf8) + [0xFF, 0xC3, 0x80, 0x00, 0x1F]
        let position = Int(random.next() % UInt64(max(bytes.count, 1)))
        switch random.next() % 3 {
        case 0 where !bytes.isEmpty: bytes.remove(at: position)
        case 1: bytes.insert(noise[Int(random.next() % UInt64(noise.count))], at: min(position, bytes.count))
        default: if !bytes.isEmpty { bytes[position] = noise[Int(random.next() % UInt64(noise.count))] }
        }
    }
}

/// Writes an array of people with random values, spacing and escapes.
private struct JSONWriter {
    var random: SplitMix
    private var out: [UInt8] = []

    init(random: SplitMix) { self.random = random }

    private static let scalars: [Unicode.Scalar] = Array(
        "aZ09 -_/\\\"'.,:{}[]é€東👍\u{0}\u{1F}\u{7F}\u{85}\u{A0}\u{200B}\u{FEFF}\u{10FFFF}".unicodeScalars)
    private static let texts = ["text", "Fields", "name", "height", "url", "films", "hair_color"]
    private static let urls = [
        "https://swapi.dev/api/films/1/", "/api/films/12", "http://Example.org:8080/api/films/3/?x=1",
        "https://swapi.dev/api/films/", "films/x", "", "https://swapi.dev/api/films/007/"
    ]

    mutating func document() -> [UInt8] {
        space()
        out.append(UInt8(ascii: "["))
        for index in 0..<random.below(4) {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            space()
            person(id: index + 1)
            space()
        }
        out.append(UInt8(ascii: "]"))
        space()
        return out
    }

    private mutating func person(id: Int) {
        var fields: [(String, (inout JSONWriter) -> Void)] = [
            ("name", { $0.textValue() }),
            (
                "url",
                {
                    $0.string(
                        ["https://swapi.dev/api/people/\(id)/", "/api/people/\(id)", "https://swapi.dev/api/people/x/"][
                            $0.random.below(10) == 0 ? 2 : $0.random.below(2)])
                }
            )
        ]
        for key in [
            "height", "mass", "hair_color", "skin_color", "eye_color", "birth_year", "gender", "created", "edited"
        ] where random.below(5) > 0 {
            fields.append((key, { $0.textValue() }))
        }
        for key in ["films", "species", "vehicles", "starships"] where random.below(4) > 0 {
            fields.append((key, { $0.linkList() }))
        }
        if random.below(3) > 0 { fields.append(("homeworld", { $0.linkValue() })) }
        if random.below(4) == 0 { fields.append(("extra", { $0.anyValue(depth: 0) })) }
        if random.below(20) == 0 { fields.append(("name", { $0.textValue() })) }
        for index in fields.indices.reversed() { fields.swapAt(index, random.below(index + 1)) }
        out.append(UInt8(ascii: "{"))
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            space()
            string(field.0)
            space()
            out.append(UInt8(ascii: ":"))
            space()
            field.1(&self)
            space()
        }
        out.append(UInt8(ascii: "}"))
    }

    private mutating func textValue() {
        switch random.below(12) {
        case 0: out.append(contentsOf: "null".utf8)
        case 1:
            out.append(
                contentsOf: ["0", "-0", "42", "-7", "123456789012345678", "1234567890123456789", "1.5", "2e3", "-0.0"][
                    random.below(9)
                ].utf8)
        case 2: out.append(contentsOf: ["true", "[]", "{}", "[\"a\"]"][random.below(4)].utf8)
        case 3: string("")
        default: randomString()
        }
    }

    private mutating func linkValue() {
        switch random.below(6) {
        case 0: out.append(contentsOf: "null".utf8)
        case 1: out.append(contentsOf: "7".utf8)
        default: string(Self.urls[random.below(Self.urls.count)])
        }
    }

    private mutating func linkList() {
        if random.below(8) == 0 { return linkValue() }
        out.append(UInt8(ascii: "["))
        for index in 0..<random.below(4) {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            space()
            if random.below(12) == 0 {
                out.append(contentsOf: "null".utf8)
            } else {
                string(Self.urls[random.below(Self.urls.count - 3)])
            }
            space()
        }
        out.append(UInt8(ascii: "]"))
    }

    private mutating func anyValue(depth: Int) {
        switch random.below(depth > 3 ? 3 : 5) {
        case 0: randomString()
        case 1: out.append(contentsOf: ["1", "-1.25e+2", "0.0", "true", "false", "null"][random.below(6)].utf8)
        case 2: textValue()
        case 3:
            out.append(UInt8(ascii: "["))
            for index in 0..<random.below(3) {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                anyValue(depth: depth + 1)
            }
            out.append(UInt8(ascii: "]"))
        default:
            out.append(UInt8(ascii: "{"))
            for index in 0..<random.below(3) {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                string(Self.texts[random.below(Self.texts.count)])
                out.append(UInt8(ascii: ":"))
                anyValue(depth: depth + 1)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private mutating func randomString() {
        if random.below(2) == 0 { return string(Self.texts[random.below(Self.texts.count)]) }
        var text = ""
        for _ in 0..<random.below(8) { text.unicodeScalars.append(Self.scalars[random.below(Self.scalars.count)]) }
        string(text)
    }

    /// `text` in quotes, each scalar written as it is or escaped, at random.
    private mutating func string(_ text: String) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if mustEscape || random.below(6) == 0 {
                switch (scalar, random.below(2)) {
                case ("\"", 0): out.append(contentsOf: #"\""#.utf8)
                case ("\\", 0): out.append(contentsOf: #"\\"#.utf8)
                case ("\n", 0): out.append(contentsOf: #"\n"#.utf8)
                case ("/", 0): out.append(contentsOf: #"\/"#.utf8)
                default:
                    for unit in String(scalar).utf16 {
                        out.append(
                            contentsOf: "\\u\(String(unit, radix: 16, uppercase: random.below(2) == 0).leftPadded)".utf8
                        )
                    }
                }
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private mutating func space() {
        for _ in 0..<random.below(3) {
            out.append([UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r")][random.below(4)])
        }
    }
}

extension String {
    fileprivate var leftPadded: String { String(repeating: "0", count: max(0, 4 - count)) + self }
}
