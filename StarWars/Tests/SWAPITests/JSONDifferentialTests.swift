import Foundation
import StarWarsTestSupport
import Testing

@testable import SWAPI

/// `JSONSyntax.firstProblem` against Foundation's `JSONSerialization` on thousands of generated
/// and damaged documents, with a fixed seed: both accept, or both reject. Where they differ on
/// purpose, the difference is one of ``KnownDifference``, each asserted on its own below, so the
/// test fails when either side changes. The typed reader rides along: whatever it reads must be
/// valid JSON and decode to the same values through Foundation's `JSONDecoder`.
///
/// A failing case is shrunk (chunks removed, values replaced by `0` or by one of their items)
/// and the smallest document that still fails the same way is in the failure message.
@Suite struct JSONDifferentialTests {
    @Test func generatedDocumentsAgreeWithFoundation() {
        var generator = DocumentGenerator(random: SplitMix(seed: 0x4A53_4F4E_5379_6E74))
        var run = PropertyRun()
        for _ in 0..<6000 { run.check(generator.next()) }
        run.finish()
        // The documents cover every outcome, and each documented difference shows up.
        #expect(run.tally.bothAccept > 1500, "\(run.tally)")
        #expect(run.tally.bothReject > 1500, "\(run.tally)")
        #expect(run.tally.typedReaderAccepted > 300, "\(run.tally)")
        #expect(run.tally.deeperThanFoundationsLimit > 20, "\(run.tally)")
        for difference in KnownDifference.allCases {
            #expect(run.tally.differences[difference, default: 0] > 10, "\(difference) is not exercised: \(run.tally)")
        }
    }

    @Test func mutatedSnapshotFilesAgreeWithFoundation() {
        var random = SplitMix(seed: 0x534E_4150_5348_4F54)
        var run = PropertyRun()
        let files = SnapshotFile.all
        // Each file as it is: the reader reads it, and so does Foundation.
        for file in files { run.check(file.bytes) }
        #expect(run.tally.typedReaderAccepted == files.count, "\(run.tally)")
        // 300 whole files damaged a few times each, then 5,000 runs of one to three resources cut
        // from them as written and damaged the same way (small enough to check quickly).
        for index in 0..<5300 {
            let file = files[index % files.count]
            var bytes: [UInt8]
            if index < 300 {
                bytes = file.bytes
            } else {
                let first = random.below(file.resources.count)
                let last = min(file.resources.count, first + 1 + random.below(3)) - 1
                bytes =
                    [UInt8(ascii: "[")] + file.bytes[file.resources[first].lowerBound..<file.resources[last].upperBound]
                    + [UInt8(ascii: "]")]
            }
            // A quarter are left whole, so the reader's values are compared too.
            if index < 300 || random.below(4) > 0 {
                for _ in 0...random.below(3) { Mutation.apply(to: &bytes, &random) }
            }
            run.check(bytes)
        }
        run.finish()
        #expect(run.tally.typedReaderAccepted > 1000, "\(run.tally)")
        #expect(run.tally.bothReject > 2000, "\(run.tally)")
    }

    // MARK: The documented differences, each asserted

    /// Foundation on Linux accepts a comma before `]` or `}` (its parser says "the foundation json
    /// implementation does support trailing commas"); RFC 8259 has none, and JSONSyntax stays
    /// strict so that a data file that loads here loads with any JSON reader.
    @Test(arguments: ["[1,]", #"{"a":1,}"#, "[[1,],]", "[1 , \n]", #"[{"a":[true,]},]"#])
    func aTrailingCommaIsRejectedThoughFoundationAcceptsIt(_ text: String) throws {
        let problem = try #require(JSONSyntax.firstProblem(in: Data(text.utf8)))
        #expect(!problem.isTruncation)
        #expect(Oracle.foundationAccepts(Array(text.utf8)))
        let offset = problem.position.byte - 1
        #expect(Array(text.utf8)[offset] == UInt8(ascii: "]") || Array(text.utf8)[offset] == UInt8(ascii: "}"))
    }

    /// RFC 8259's grammar allows any `\uXXXX`, so a lone or reversed surrogate is valid JSON
    /// (§8.2 only warns it may not make a string); Foundation rejects it. JSONSyntax follows the
    /// grammar: the decoder after it says which field is wrong, and one it ignores does no harm.
    @Test(arguments: [
        #""\ud800""#, #""\uDBFF""#, #""\udc00""#, #""\udc00\ud800""#, #""\ud800\ud800""#, #""\ud800x""#,
        #"{"\ud800":1}"#, #"["\ud83d", "\ude80"]"#
    ])
    func aLoneSurrogateEscapeIsValidThoughFoundationRejectsIt(_ text: String) {
        #expect(JSONSyntax.firstProblem(in: Data(text.utf8)) == nil)
        #expect(!Oracle.foundationAccepts(Array(text.utf8)))
        #expect(
            Oracle.repairingValuesFoundationRejects(Array(text.utf8)).map { Oracle.foundationAccepts($0.bytes) } == true
        )
    }

    /// The grammar has no limit on numbers; Foundation rejects one it cannot hold in a Double (or,
    /// with more than 17 digits, a Decimal). JSONSyntax accepts it; a field that needs it fails
    /// in the decoder, and one that doesn't is ignored as Foundation's decoder ignores it.
    @Test(arguments: [
        "1e400", "-1E400", "1.8e308", "1e+0400", String(repeating: "9", count: 400),
        "1" + String(repeating: "0", count: 400) + ".0", "123456789012345678901234567890E300"
    ])
    func aNumberOutOfRangeIsValidThoughFoundationRejectsIt(_ text: String) {
        #expect(JSONSyntax.firstProblem(in: Data(text.utf8)) == nil)
        #expect(!Oracle.foundationAccepts(Array(text.utf8)))
    }

    /// Numbers at the edges that both accept: Foundation makes -0.0 of an underflow, and a
    /// Decimal of a long integer.
    @Test(arguments: [
        "-0", "0e0", "1E+308", "-1e-400", "1e-400", "9007199254740993", "18446744073709551616",
        "-123456789012345678901234567890", "1e05", "0e99999"
    ])
    func numbersAtTheEdgesAreValidForBoth(_ text: String) {
        #expect(JSONSyntax.firstProblem(in: Data(text.utf8)) == nil)
        #expect(Oracle.foundationAccepts(Array(text.utf8)))
    }

    /// Foundation reads UTF-16 and UTF-32 too, by their byte order marks or by zero bytes among
    /// the first four; the data files are UTF-8, and JSONSyntax says where one is not.
    @Test func otherEncodingsAreRejectedThoughFoundationReadsThem() throws {
        let utf16LE = Array("[1]".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BE = Array("[1]".utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [
            utf16LE, utf16BE, [0xFF, 0xFE] + utf16LE, [0xFE, 0xFF] + utf16BE, [0x31, 0x00], [0x31, 0x00, 0x00, 0x00]
        ] {
            let problem = try #require(JSONSyntax.firstProblem(in: Data(bytes)))
            #expect(Oracle.foundationAccepts(bytes))
            #expect(KnownDifference.foundationReadsAnotherEncoding(bytes))
            #expect(problem.position.byte <= 2)
        }
    }

    // MARK: Nesting

    /// Foundation's limit is 512 arrays and objects inside one another; JSONSyntax has the same
    /// one (RFC 8259 §9 lets a parser set a limit), so a file nested deeper fails with a position
    /// rather than Foundation's "The given data was not valid JSON".
    @Test(arguments: [511, 512, 513, 514])
    func nestingIsLimitedWhereFoundationLimitsIt(depth: Int) {
        let shapes: [(String, String, String)] = [
            ("[", "1", "]"), ("{\"a\":", "1", "}"), ("[", "[]", "]"), ("{\"a\":", "{}", "}"), (" [ ", "", " ] ")
        ]
        for (open, inner, close) in shapes {
            // `inner` is one more level when it is an empty container.
            let levels = inner.hasPrefix("[") || inner.hasPrefix("{") ? depth - 1 : depth
            let text = String(repeating: open, count: levels) + inner + String(repeating: close, count: levels)
            let bytes = Array(text.utf8)
            let problem = JSONSyntax.firstProblem(in: Data(bytes))
            #expect(
                (problem == nil) == (depth <= 512), "\(open)\(inner)\(close) × \(depth): \(String(describing: problem))"
            )
            #expect(Oracle.foundationAccepts(bytes) == (depth <= 512))
            #expect(Oracle.judge(bytes).failure == nil)
            if let problem {
                // At the bracket that goes one level too deep.
                #expect(
                    Array(bytes[(problem.position.byte - 1)...]).count(where: {
                        $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{")
                    }) == depth - 512)
                #expect(!problem.isTruncation)
            }
        }
    }

    /// A hundred thousand levels: an error at the 513th, no stack overflow anywhere, and a clear
    /// message through the snapshot decoder.
    @Test func veryDeepNestingIsAClearErrorNotACrash() throws {
        for open in ["[", "{\"a\":"] {
            let bytes = Array(String(repeating: open, count: 100_000).utf8)
            let problem = try #require(JSONSyntax.firstProblem(in: Data(bytes)))
            #expect(problem.position.byte == 512 * open.utf8.count + 1)
            #expect(Oracle.judge(bytes).failure == nil)
            for type in SnapshotFile.types { #expect(type.read(Data(bytes)) == nil) }
            do {
                _ = try SnapshotDecoder.decode(Person.self, from: Data(bytes), source: "people.json")
                Issue.record("a file nested 100,000 deep was read")
            } catch let error as SwapiError {
                guard case .invalidJSON(_, let position, let expected, _) = error.reason else {
                    Issue.record("expected invalid JSON, not \(error.reason)")
                    continue
                }
                #expect(position.byte == 512 * open.utf8.count + 1)
                #expect(expected.contains("512"), "\(error)")
            }
        }
    }

    // MARK: Findings

    /// Cases the generator, the shrinker or the fuzzer (make fuzz) found, kept as they were found.
    @Test(arguments: FoundCase.all)
    func foundCasesStayFixed(_ found: FoundCase) {
        let failure = Oracle.judge(found.bytes).failure
        #expect(failure == nil, "\(found.note): \(failure.map(\.description) ?? "")")
    }

    /// The reader compared every field name with every other: one object of 100,000 fields (1.2 MB)
    /// took 16 s in a release build, where Foundation takes 60 ms (found while writing the fuzz
    /// target: a 70 KB input of 7,000 fields took 12 s there). Past 32 fields, names are sorted.
    // Quadratic, this took minutes in a debug build; linear, about a second. The limit only
    // stops a run that hangs.
    @Test(.timeLimit(.minutes(1))) func anObjectWithManyFieldsIsReadInLinearTime() throws {
        func object(_ count: Int, duplicate: (Int, Int)? = nil) -> Data {
            var names = (0..<count).map { String(format: "k%06d", $0) }
            if let (first, second) = duplicate { names[second] = names[first] }
            let fields = names.map { "\"\($0)\":\"v\"" }.joined(separator: ",")
            return Data(#"[{"name":"Luke","url":"/api/people/1/",\#(fields)}]"#.utf8)
        }
        let many = object(100_000)
        let people = try #require(SwapiJSONReader.resources(Person.self, in: many))
        #expect(people == (try JSONDecoder().decode([Person].self, from: many)))
        // A name twice is unusual wherever the two are.
        for duplicate in [(0, 40), (33, 34), (5_000, 99_999), (99_998, 99_999)] {
            #expect(
                SwapiJSONReader.resources(Person.self, in: object(100_000, duplicate: duplicate)) == nil, "\(duplicate)"
            )
        }
        #expect(
            SwapiJSONReader.resources(
                Person.self,
                in: Data(
                    #"""
                    [{"name":"A","url":"/api/people/1/",\#((0..<40).map { "\"f\($0)\":0" }.joined(separator: ",")),\#
                    "name":"B"}]
                    """#
                    .utf8)) == nil)
    }

    // MARK: The shrinker

    /// The shrinker finds the smallest document that still fails, here for a made-up property
    /// ("valid JSON never holds 1e400"), from a generated document that breaks it.
    @Test func theShrinkerFindsTheSmallestFailingDocument() {
        let document = Array(#" [ {"a": [true, "x\n", {"b": [1e400, null]}], "c": 2.5} , [] ] "#.utf8)
        let fails: ([UInt8]) -> Bool = { bytes in
            JSONSyntax.firstProblem(in: Data(bytes)) == nil && String(decoding: bytes, as: UTF8.self).contains("1e400")
        }
        #expect(fails(document))
        #expect(Shrinker.shrink(document, stillFails: fails) == Array("1e400".utf8))
    }
}

// MARK: - The oracle

/// Where JSONSyntax and Foundation's `JSONSerialization` differ on purpose.
enum KnownDifference: String, CaseIterable, Sendable {
    /// Foundation accepts `[1,]` and `{"a":1,}`; JSONSyntax rejects them, as RFC 8259 does.
    case trailingComma
    /// JSONSyntax accepts a lone or reversed surrogate in a `\u` escape, as RFC 8259's grammar
    /// does; Foundation rejects it.
    case loneSurrogate
    /// JSONSyntax accepts a number of any size, as RFC 8259's grammar does; Foundation rejects
    /// one it cannot hold.
    case numberOutOfRange
    /// Foundation reads UTF-16 and UTF-32 (found by a byte order mark or zero bytes among the
    /// first four); JSONSyntax reads UTF-8 only, as RFC 8259 §8.1 asks.
    case otherEncoding

    /// Whether Foundation reads `bytes` as UTF-16 or UTF-32 (JSONSerialization's `parseBOM` and
    /// `detectEncoding`, a little wider): UTF-8 JSON never holds a zero byte, `FE` or `FF`, so
    /// JSONSyntax rightly rejects all such data.
    static func foundationReadsAnotherEncoding(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return false }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        return bytes.prefix(4).contains(0)
    }
}

/// Why a case broke the property; `kind` is what the shrinker keeps fixed.
struct Failure: CustomStringConvertible, Equatable {
    let kind: String
    let detail: String
    var description: String { "\(kind): \(detail)" }
}

/// What the oracle made of one document.
struct Verdict {
    var failure: Failure?
    var syntaxAccepts = false
    var foundationAccepts = false
    var differences: Set<KnownDifference> = []
    var typedReaderAccepted = false
    var deeperThanFoundationsLimit = false
}

enum Oracle {
    static func foundationAccepts(_ bytes: [UInt8]) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    /// Checks every property on `bytes`.
    static func judge(_ bytes: [UInt8]) -> Verdict {
        var verdict = Verdict()
        let data = Data(bytes)
        let problem = JSONSyntax.firstProblem(in: data)
        verdict.syntaxAccepts = problem == nil
        if let problem, let failure = checkPosition(of: problem, in: bytes) {
            verdict.failure = failure
            return verdict
        }
        for type in SnapshotFile.types {
            guard let failure = type.check(data, syntaxAccepts: problem == nil, &verdict) else { continue }
            verdict.failure = failure
            return verdict
        }
        verdict.failure = checkAgreement(bytes, syntaxAccepts: problem == nil, &verdict)
        return verdict
    }

    /// A problem is at a real place in the document, and nothing before it is wrong.
    static func checkPosition(of problem: JSONSyntax.Problem, in bytes: [UInt8]) -> Failure? {
        let position = problem.position
        guard position.line >= 1, position.column >= 1, (1...(bytes.count + 1)).contains(position.byte) else {
            return Failure(kind: "a position outside the document", detail: "\(position) in \(bytes.count) bytes")
        }
        let offset = position.byte - 1
        let before = bytes[..<offset]
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let line = 1 + before.count(where: { $0 == UInt8(ascii: "\n") })
        let column = 1 + bytes[lineStart..<offset].count(where: { $0 & 0xC0 != 0x80 })
        guard position.line == line, position.column == column else {
            return Failure(
                kind: "a line and column that are not the byte's",
                detail: "\(position), but byte \(position.byte) is at line \(line), column \(column)")
        }
        if let earlier = JSONSyntax.firstProblem(in: Data(before)), !earlier.isTruncation {
            return Failure(
                kind: "a problem before the first problem",
                detail:
                    """
                    \(problem.detail) at \(position), \
                    but the bytes before it have \(earlier.detail) at \(earlier.position)
                    """
            )
        }
        if problem.isTruncation, bytes.count - offset > 3 {
            return Failure(
                kind: "a truncation before the end", detail: "\(problem.detail) at \(position) of \(bytes.count) bytes")
        }
        return nil
    }

    /// Both accept or both reject, but for the documented differences: each is explained and
    /// repaired (a trailing comma removed, a value Foundation can't hold replaced) until the two
    /// agree.
    static func checkAgreement(_ bytes: [UInt8], syntaxAccepts: Bool, _ verdict: inout Verdict) -> Failure? {
        var document = bytes
        var syntaxAccepts = syntaxAccepts
        verdict.foundationAccepts = foundationAccepts(bytes)
        var foundation = verdict.foundationAccepts
        for _ in 0..<1000 {
            if syntaxAccepts && foundation {
                // Foundation is lenient about trailing commas, so the check is ours.
                if let comma = trailingComma(in: document) {
                    return Failure(
                        kind: "a trailing comma accepted", detail: "firstProblem accepts the ',' at byte \(comma + 1)")
                }
                return nil
            }
            if !syntaxAccepts && !foundation {
                if maximumDepth(document) > 512 { verdict.deeperThanFoundationsLimit = true }
                return nil
            }
            if foundation {
                // JSONSyntax rejects what Foundation accepts.
                if KnownDifference.foundationReadsAnotherEncoding(document) {
                    verdict.differences.insert(.otherEncoding)
                    return nil
                }
                let problem = JSONSyntax.firstProblem(in: Data(document))!
                guard let comma = trailingComma(at: problem, in: document) else {
                    return Failure(
                        kind: "firstProblem rejects what Foundation accepts",
                        detail: "\(problem.detail) at \(problem.position)")
                }
                verdict.differences.insert(.trailingComma)
                document.remove(at: comma)
            } else {
                // Foundation rejects what JSONSyntax accepts.
                guard let repaired = repairingValuesFoundationRejects(document) else {
                    return Failure(
                        kind: "Foundation rejects what firstProblem accepts",
                        detail: "no value that Foundation rejects on its own explains it")
                }
                verdict.differences.formUnion(repaired.differences)
                document = repaired.bytes
            }
            syntaxAccepts = JSONSyntax.firstProblem(in: Data(document)) == nil
            foundation = foundationAccepts(document)
        }
        return Failure(kind: "no agreement after a thousand repairs", detail: "")
    }

    /// The comma before the `]` or `}` that `problem` is at.
    static func trailingComma(at problem: JSONSyntax.Problem, in bytes: [UInt8]) -> Int? {
        let offset = problem.position.byte - 1
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "]") || bytes[offset] == UInt8(ascii: "}") else {
            return nil
        }
        var index = offset - 1
        while index >= 0, JSONBytes.isWhitespace(bytes[index]) { index -= 1 }
        return index >= 0 && bytes[index] == UInt8(ascii: ",") ? index : nil
    }

    /// The first comma outside text that only whitespace separates from a `]` or `}`.
    static func trailingComma(in bytes: [UInt8]) -> Int? {
        var lastComma: Int?
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = JSONBytes.endOfString(bytes, at: index)
                lastComma = nil
                continue
            case UInt8(ascii: ","): lastComma = index
            case UInt8(ascii: "]"), UInt8(ascii: "}"): if let lastComma { return lastComma }
            case let byte where JSONBytes.isWhitespace(byte): break
            default: lastComma = nil
            }
            index += 1
        }
        return nil
    }

    static func maximumDepth(_ bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = JSONBytes.endOfString(bytes, at: index)
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
            index += 1
        }
        return deepest
    }

    /// `bytes` (valid JSON) with each value that Foundation rejects on its own replaced: a
    /// number by `0`, a string by `""` (only if a lone surrogate explains it). `nil` when
    /// nothing is replaced, or a string is rejected for another reason.
    static func repairingValuesFoundationRejects(
        _ bytes: [UInt8]
    ) -> (bytes: [UInt8], differences: Set<KnownDifference>)? {
        var out: [UInt8] = []
        var differences: Set<KnownDifference> = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let end = JSONBytes.endOfString(bytes, at: index)
                let token = Array(bytes[index..<end])
                if token.contains(UInt8(ascii: "\\")), !foundationAccepts(token) {
                    guard JSONBytes.hasLoneSurrogate(token) else { return nil }
                    out += Array(#""""#.utf8)
                    differences.insert(.loneSurrogate)
                } else {
                    out += token
                }
                index = end
            } else if byte == UInt8(ascii: "-") || JSONBytes.isDigit(byte) {
                var end = index + 1
                while end < bytes.count, JSONBytes.isNumberByte(bytes[end]) { end += 1 }
                let token = Array(bytes[index..<end])
                if foundationAccepts(token) {
                    out += token
                } else {
                    out.append(UInt8(ascii: "0"))
                    differences.insert(.numberOutOfRange)
                }
                index = end
            } else {
                out.append(byte)
                index += 1
            }
        }
        return differences.isEmpty ? nil : (out, differences)
    }
}

/// Small scanners over JSON bytes for the oracle, the shrinker and the mutations.
enum JSONBytes {
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    /// The index after the string whose opening quote is at `start` (or the end of the data).
    static func endOfString(_ bytes: [UInt8], at start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return bytes.count
    }

    /// Whether a (valid) string token's `\u` escapes leave a surrogate without its partner.
    static func hasLoneSurrogate(_ token: [UInt8]) -> Bool {
        func hex(_ at: Int) -> UInt32? {
            guard at + 4 <= token.count else { return nil }
            return UInt32(String(decoding: token[at..<(at + 4)], as: UTF8.self), radix: 16)
        }
        var pendingHigh = false
        var index = 1
        while index < token.count - 1 {
            if token[index] == UInt8(ascii: "\\"), token[index + 1] == UInt8(ascii: "u"), let unit = hex(index + 2) {
                let high = (0xD800...0xDBFF).contains(unit)
                let low = (0xDC00...0xDFFF).contains(unit)
                if pendingHigh {
                    guard low else { return true }
                    pendingHigh = false
                } else if low {
                    return true
                } else {
                    pendingHigh = high
                }
                index += 6
                continue
            }
            if pendingHigh { return true }
            index += token[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return pendingHigh
    }

    /// Where each value is: strings, numbers and words, and containers from bracket to bracket.
    static func valueSpans(_ bytes: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var open: [Int] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = endOfString(bytes, at: index)
                spans.append(index..<end)
                index = end
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open.append(index)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let start = open.popLast() { spans.append(start..<(index + 1)) }
            case _ where isNumberByte(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte):
                var end = index + 1
                while end < bytes.count,
                    isNumberByte(bytes[end]) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end])
                { end += 1 }
                spans.append(index..<end)
                index = end
                continue
            default: break
            }
            index += 1
        }
        return spans
    }

    /// `bytes` as text to read in a message: printable ASCII as it is, the rest escaped.
    static func show(_ bytes: [UInt8], limit: Int = 600) -> String {
        var text = ""
        for byte in bytes.prefix(limit) {
            switch byte {
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\r"): text += "\\r"
            case UInt8(ascii: "\t"): text += "\\t"
            case 0x20..<0x7F: text.append(Character(Unicode.Scalar(byte)))
            default: text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return "\"" + text + "\"" + (bytes.count > limit ? "… (\(bytes.count) bytes)" : "")
    }
}

// MARK: - The typed reader

/// The six resource types, and each embedded data file with where its resources are.
struct SnapshotFile: Sendable {
    /// One resource type: reads data with the typed reader and checks it against Foundation.
    struct ResourceType: Sendable {
        let name: String
        let read: @Sendable (Data) -> [any SwapiResource]?
        private let checker: @Sendable (Data, Bool, inout Verdict) -> Failure?

        init<R: SwapiRecord>(_ type: R.Type) {
            name = "\(R.self)"
            read = { SwapiJSONReader.resources(R.self, in: $0).map { $0 as [any SwapiResource] } }
            checker = { data, syntaxAccepts, verdict in
                guard let fast = SwapiJSONReader.resources(R.self, in: data) else { return nil }
                verdict.typedReaderAccepted = true
                guard syntaxAccepts else {
                    return Failure(
                        kind: "the typed reader reads what firstProblem rejects",
                        detail: "\(R.self): \(JSONSyntax.firstProblem(in: data)!.detail)")
                }
                let slow = try? JSONDecoder().decode([R].self, from: data)
                guard slow == fast else {
                    return Failure(
                        kind: "the typed reader's values are not Foundation's",
                        detail:
                            """
                            \(R.self): the reader made \(String(describing: fast).prefix(800)); \
                            Foundation made \(String(describing: slow).prefix(800))
                            """
                    )
                }
                return nil
            }
        }

        func check(_ data: Data, syntaxAccepts: Bool, _ verdict: inout Verdict) -> Failure? {
            checker(data, syntaxAccepts, &verdict)
        }
    }

    static let types = [
        ResourceType(Person.self), ResourceType(Film.self), ResourceType(Planet.self), ResourceType(Species.self),
        ResourceType(Starship.self), ResourceType(Vehicle.self)
    ]

    let bytes: [UInt8]
    /// Each resource's object, `{` to `}`.
    let resources: [Range<Int>]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var resources: [Range<Int>] = []
        var depth = 0
        var start = 0
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = JSONBytes.endOfString(bytes, at: index)
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == 1 { start = index }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 1 { resources.append(start..<(index + 1)) }
            default: break
            }
            index += 1
        }
        self.resources = resources
    }

    static let all = ["people", "films", "planets", "species", "starships", "vehicles"].map {
        SnapshotFile(Array(EmbeddedFiles.text("snapshot/\($0).json").utf8))
    }
}

// MARK: - Running and shrinking

/// Counts of what the cases did.
struct Tally: CustomStringConvertible {
    var cases = 0
    var bothAccept = 0
    var bothReject = 0
    var typedReaderAccepted = 0
    var deeperThanFoundationsLimit = 0
    var differences: [KnownDifference: Int] = [:]

    mutating func add(_ verdict: Verdict) {
        cases += 1
        if verdict.differences.isEmpty, verdict.syntaxAccepts == verdict.foundationAccepts {
            if verdict.syntaxAccepts { bothAccept += 1 } else { bothReject += 1 }
        }
        if verdict.typedReaderAccepted { typedReaderAccepted += 1 }
        if verdict.deeperThanFoundationsLimit { deeperThanFoundationsLimit += 1 }
        for difference in verdict.differences { differences[difference, default: 0] += 1 }
    }

    var description: String {
        let known = KnownDifference.allCases.map { "\($0): \(differences[$0, default: 0])" }.joined(separator: ", ")
        return
            """
            \(cases) cases: both accept \(bothAccept), both reject \(bothReject) \
            (\(deeperThanFoundationsLimit) too deep), typed reader read \(typedReaderAccepted); \(known)
            """
    }
}

/// Checks cases, and reports the first failure, shrunk, with how many failed.
struct PropertyRun {
    var tally = Tally()
    private var failures = 0
    private var report: String?
    private let sourceLocation: SourceLocation

    init(sourceLocation: SourceLocation = #_sourceLocation) { self.sourceLocation = sourceLocation }

    mutating func check(_ bytes: [UInt8]) {
        let verdict = Oracle.judge(bytes)
        tally.add(verdict)
        guard let failure = verdict.failure else { return }
        failures += 1
        guard report == nil else { return }
        let shrunk = Shrinker.shrink(bytes) { Oracle.judge($0).failure?.kind == failure.kind }
        let smallest = Oracle.judge(shrunk).failure ?? failure
        report = """
            \(smallest.kind)
            smallest failing document (\(shrunk.count) bytes): \(JSONBytes.show(shrunk))
            \(smallest.detail)
            first found in (\(bytes.count) bytes): \(JSONBytes.show(bytes, limit: 300))
            """
    }

    func finish() {
        guard let report else { return }
        Issue.record("\(failures) of \(tally.cases) cases failed; the first: \(report)", sourceLocation: sourceLocation)
    }
}

/// Makes a failing document smaller while it still fails: removes chunks (halves, quarters, …
/// single bytes), removes an item of an array or object with its comma, replaces values by `0`,
/// and replaces containers by one of their values.
enum Shrinker {
    static func shrink(_ bytes: [UInt8], maximumAttempts: Int = 20_000, stillFails: ([UInt8]) -> Bool) -> [UInt8] {
        var best = bytes
        var attempts = 0
        let deadline = ContinuousClock.now + .seconds(20)
        func attempt(_ candidate: [UInt8]) -> Bool {
            guard attempts < maximumAttempts, ContinuousClock.now < deadline, candidate.count < best.count else {
                return false
            }
            attempts += 1
            guard stillFails(candidate) else { return false }
            best = candidate
            return true
        }
        var progress = true
        while progress, attempts < maximumAttempts {
            progress = false
            var size = max(best.count / 2, 1)
            while size >= 1 {
                var start = 0
                while start < best.count {
                    var candidate = best
                    candidate.removeSubrange(start..<min(start + size, best.count))
                    // Chunks at every offset once the document is small.
                    if attempt(candidate) { progress = true } else { start += best.count <= 2000 ? 1 : size }
                }
                size /= 2
            }
            var removed = true
            while removed {
                removed = false
                for items in itemRanges(best) where attempt(best.removing(items)) {
                    removed = true
                    progress = true
                    break
                }
            }
            var replaced = true
            while replaced {
                replaced = false
                let spans = JSONBytes.valueSpans(best).sorted { $0.count > $1.count }
                search: for span in spans {
                    var zero = best
                    zero.replaceSubrange(span, with: [UInt8(ascii: "0")])
                    if attempt(zero) {
                        replaced = true
                        break search
                    }
                    for inner in spans
                    where inner.count < span.count && span.contains(inner.lowerBound)
                        && inner.upperBound <= span.upperBound
                    {
                        var hoisted = best
                        hoisted.replaceSubrange(span, with: best[inner])
                        if attempt(hoisted) {
                            replaced = true
                            break search
                        }
                    }
                }
                if replaced { progress = true }
            }
        }
        return best
    }

    /// Each value with its comma (and its key and colon in an object): what removes it as an item.
    static func itemRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        let spans = JSONBytes.valueSpans(bytes)
        var ranges: [Range<Int>] = []
        func skipSpaceBack(_ index: Int) -> Int {
            var index = index
            while index >= 0, JSONBytes.isWhitespace(bytes[index]) { index -= 1 }
            return index
        }
        for span in spans.sorted(by: { $0.count > $1.count }) {
            var start = span.lowerBound
            var before = skipSpaceBack(start - 1)
            if before >= 0, bytes[before] == UInt8(ascii: ":") {
                let keyEnd = skipSpaceBack(before - 1)
                if let key = spans.first(where: {
                    $0.upperBound == keyEnd + 1 && bytes[$0.lowerBound] == UInt8(ascii: "\"")
                }) {
                    start = key.lowerBound
                    before = skipSpaceBack(start - 1)
                }
            }
            if before >= 0, bytes[before] == UInt8(ascii: ",") { ranges.append(before..<span.upperBound) }
            var after = span.upperBound
            while after < bytes.count, JSONBytes.isWhitespace(bytes[after]) { after += 1 }
            if after < bytes.count, bytes[after] == UInt8(ascii: ",") { ranges.append(start..<(after + 1)) }
        }
        return ranges
    }
}

extension Array {
    fileprivate func removing(_ range: Range<Int>) -> Array {
        var copy = self
        copy.removeSubrange(range)
        return copy
    }
}

// MARK: - Generating documents

/// Random JSON documents: valid ones of every shape (nested values, SWAPI arrays, deep nesting),
/// ones with a documented difference, and ones damaged the ways a data file goes wrong.
struct DocumentGenerator {
    var random: SplitMix
    private var out: [UInt8] = []
    /// How likely (per thousand) each token is written wrong.
    private var damage = 0
    private var nodes = 0

    init(random: SplitMix) { self.random = random }

    mutating func next() -> [UInt8] {
        out = []
        nodes = 0
        damage = 0
        switch random.below(100) {
        case 0..<32:
            plainDocument()
        case 32..<47:
            swapiDocument()
        case 47..<55:
            deepDocument()
        case 55..<72:
            damage = 20 + random.below(60)
            if random.below(3) == 0 { swapiDocument() } else { plainDocument() }
        default:
            if random.below(3) == 0 { swapiDocument() } else { plainDocument() }
            damageBytes()
        }
        return out
    }

    private var wrong: Bool {
        mutating get { damage > 0 && random.below(1000) < damage }
    }

    private mutating func pick<T>(_ options: [T]) -> T { options[random.below(options.count)] }

    private mutating func write(_ text: String) { out.append(contentsOf: text.utf8) }

    private mutating func plainDocument() {
        if random.below(10) == 0 { out += [0xEF, 0xBB, 0xBF] }
        space()
        value(depth: 0)
        space()
    }

    private mutating func space() {
        for _ in 0..<random.below(3) {
            if wrong {
                out += pick(
                    [[0x0C], [0x0B], [0xC2, 0xA0], [0xE2, 0x80, 0xA8], [0x00], [0xEF, 0xBB, 0xBF], Array("/**/".utf8)]
                        as [[UInt8]])
            } else {
                write(pick([" ", "\t", "\n", "\r", "\r\n", "  "]))
            }
        }
    }

    private mutating func value(depth: Int) {
        nodes += 1
        let containers = depth < 6 && nodes < 60
        switch random.below(containers ? 10 : 6) {
        case 0: write(wrong ? pick(Self.invalidWords) : pick(["true", "false", "null"]))
        case 1, 2: number()
        case 3, 4, 5: string()
        case 6, 7: array(depth: depth)
        default: object(depth: depth)
        }
    }

    private mutating func array(depth: Int) {
        write("[")
        space()
        let count = random.below(5)
        for index in 0..<count {
            if index > 0 {
                write(wrong ? pick(["", ",,", ";", ":"]) : ",")
                space()
            }
            value(depth: depth + 1)
            space()
        }
        if count > 0, wrong { write(",") }
        if !wrong { write("]") } else { write(pick(["", "}", ")"])) }
    }

    private mutating func object(depth: Int) {
        write("{")
        space()
        let count = random.below(5)
        for index in 0..<count {
            if index > 0 {
                write(wrong ? pick(["", ",,", ";"]) : ",")
                space()
            }
            if wrong {
                write(pick(["name", "'name'", "1", "null", "[]", #""a" "b""#]))
            } else {
                string(key: true)
            }
            space()
            write(wrong ? pick(["", "=", "::", ","]) : ":")
            space()
            value(depth: depth + 1)
            space()
        }
        if count > 0, wrong { write(",") }
        if !wrong { write("}") } else { write(pick(["", "]", ")"])) }
    }

    private mutating func number() {
        if wrong { return write(pick(Self.invalidNumbers)) }
        if random.below(2) == 0 { return write(pick(Self.edgeNumbers)) }
        var text = random.below(5) == 0 ? "-" : ""
        if random.below(5) == 0 {
            text += "0"
        } else {
            text += String(1 + random.below(9))
            for _ in 0..<random.below(random.below(4) == 0 ? 25 : 6) { text += String(random.below(10)) }
        }
        if random.below(3) == 0 {
            text += "."
            for _ in 0...random.below(20) { text += String(random.below(10)) }
        }
        if random.below(4) == 0 {
            text += pick(["e", "E"]) + pick(["", "+", "-"])
            for _ in 0...random.below(3) { text += String(random.below(10)) }
        }
        write(text)
    }

    /// A string of random pieces: text, raw scalars, every escape, surrogate pairs (sometimes
    /// lone or reversed); written wrong, a raw control character, a bad escape or invalid UTF-8.
    private mutating func string(key: Bool = false) {
        write("\"")
        for _ in 0..<random.below(key ? 3 : 6) {
            if wrong {
                switch random.below(4) {
                case 0: out.append(UInt8(random.below(0x20)))
                case 1:
                    write(
                        pick([
                            #"\x41"#, #"\U0041"#, #"\a"#, #"\'"#, #"\0"#, #"\u12"#, #"\u12G4"#, #"\uD83D\u"#, "\\ ",
                            "\\\u{e9}"
                        ]))
                default: out += pick(Self.invalidUTF8)
                }
                continue
            }
            switch random.below(15) {
            case 0..<4: write(pick(["a", "name", "Padmé", " ", "x y", "{}", "[1]", ":", ","]))
            case 4, 5: write(String(pick(Self.scalars)))
            case 6, 7: write(pick([#"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#]))
            case 8:
                var unit = UInt32(random.below(0x1_0000))
                if (0xD800...0xDFFF).contains(unit) { unit -= 0x800 }
                escape(unit)
            case 9: write(pick([#"\u0000"#, #"\u001F"#, #"\u007f"#, #"\u00E9"#, #"\uFEFF"#, #"\uffff"#]))
            case 10:
                let scalar = 0x1_0000 + UInt32(random.below(0x10_0000))
                escape(0xD800 + ((scalar - 0x1_0000) >> 10))
                escape(0xDC00 + ((scalar - 0x1_0000) & 0x3FF))
            case 11 where random.below(4) == 0:
                let high = 0xD800 + UInt32(random.below(0x400))
                let low = 0xDC00 + UInt32(random.below(0x400))
                switch random.below(5) {
                case 0: escape(high)
                case 1: escape(low)
                case 2:
                    escape(low)
                    escape(high)
                case 3:
                    escape(high)
                    escape(high)
                default:
                    escape(high)
                    write("x")
                }
            case 12:
                out += pick([
                    [0x7F], [0xC2, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xEF, 0xBF, 0xBE], [0xED, 0x9F, 0xBF],
                    [0xEE, 0x80, 0x80]
                ])
            default: write("text")
            }
        }
        if !wrong { write("\"") }
    }

    private mutating func escape(_ unit: UInt32) {
        let digits = String(unit, radix: 16, uppercase: random.below(2) == 0)
        write("\\u" + String(repeating: "0", count: 4 - digits.count) + digits)
    }

    /// Arrays and objects inside one another, around Foundation's limit of 512 and far past it;
    /// sometimes left open or closed with the wrong bracket.
    private mutating func deepDocument() {
        let depth = pick([2, 30, 63, 64, 65, 66, 200, 510, 511, 512, 513, 514, 600, 1000, 5000])
        var closes: [String] = []
        let mixed = random.below(2) == 0
        let objects = random.below(3) == 0
        for _ in 0..<depth {
            if mixed ? random.below(2) == 0 : objects {
                write(#"{"a":"#)
                closes.append("}")
            } else {
                write("[")
                closes.append("]")
            }
            if random.below(50) == 0 { space() }
        }
        if random.below(3) > 0 { value(depth: 6) } else if closes.last == "}" { write("0") }
        switch random.below(10) {
        case 0: closes.removeLast(random.below(closes.count))
        case 1: closes[random.below(closes.count)] = pick(["]", "}", ",", ""])
        default: break
        }
        for close in closes.reversed() { write(close) }
    }

    // MARK: SWAPI arrays

    private static let textKeys = [
        "height", "mass", "hair_color", "skin_color", "eye_color", "birth_year", "gender", "created", "edited",
        "director",
        "producer", "release_date", "opening_crawl", "rotation_period", "climate", "population", "classification",
        "average_lifespan", "language", "model", "cost_in_credits", "crew", "hyperdrive_rating", "MGLT",
        "starship_class", "vehicle_class"
    ]
    private static let linkListKeys = [
        "films", "species", "vehicles", "starships", "characters", "planets", "residents", "people", "pilots"
    ]

    private mutating func swapiDocument() {
        space()
        write("[")
        for index in 0..<random.below(4) {
            if index > 0 { write(",") }
            space()
            resource(id: 1 + random.below(index == 0 ? 5 : 100))
            space()
        }
        write("]")
        space()
    }

    private mutating func resource(id: Int) {
        let kind = pick(ResourceKind.allCases)
        var fields: [(String, (inout DocumentGenerator) -> Void)] = [
            (kind == .films ? "title" : "name", { $0.textValue() }),
            (
                "url",
                { generator in
                    generator.quoted(
                        generator.pick([
                            "https://swapi.dev/api/\(kind)/\(id)/", "/api/\(kind)/\(id)",
                            "http://localhost:8080/api/\(kind)/\(id)/", "https://swapi.dev/api/\(kind)/x/", ""
                        ]))
                }
            )
        ]
        if random.below(10) == 0 { fields.removeFirst(random.below(2) + 1) }
        for key in Self.textKeys where random.below(6) == 0 { fields.append((key, { $0.textValue() })) }
        for key in Self.linkListKeys where random.below(4) == 0 { fields.append((key, { $0.linkList() })) }
        if random.below(3) == 0 { fields.append(("homeworld", { $0.link() })) }
        if random.below(3) == 0 {
            fields.append(
                (
                    "episode_id",
                    { generator in
                        generator.write(
                            generator.pick([
                                "4", "-1", "0", "\"5\"", "\"x\"", "1.5", "null", "12345678901234567890", "1e2"
                            ]))
                    }
                ))
        }
        if random.below(4) == 0 { fields.append(("extra", { $0.value(depth: 3) })) }
        // Now and then more fields than the reader compares pairwise.
        if random.below(12) == 0 {
            for index in 0..<(30 + random.below(40)) { fields.append(("f\(index % 10)\(index)", { $0.textValue() })) }
        }
        if random.below(25) == 0 { fields.append(("name", { $0.textValue() })) }
        if random.below(25) == 0 { fields.append(("n\\u0061me", { $0.textValue() })) }
        for index in fields.indices.reversed() { fields.swapAt(index, random.below(index + 1)) }
        write("{")
        for (index, field) in fields.enumerated() {
            if index > 0 { write(",") }
            space()
            write("\"" + field.0 + "\"")
            space()
            write(":")
            space()
            field.1(&self)
            space()
        }
        write("}")
    }

    private mutating func textValue() {
        switch random.below(20) {
        case 0: write("null")
        case 1:
            write(
                pick(["0", "-0", "42", "-7", "123456789012345678", "1234567890123456789", "1.5", "2e3", "-0.0", "1e400"]
                ))
        case 2: write(pick(["true", "[]", "{}", #"["a"]"#]))
        case 3: quoted("")
        case 4, 5: string()
        default:
            quoted(
                pick([
                    "Luke Skywalker", "172", "unknown", "n/a", "Padmé", "C-3PO", "東京", "19BBY", "a \"quote\"",
                    "back\\slash", "line\nbreak", "👍"
                ]))
        }
    }

    private mutating func link() {
        switch random.below(8) {
        case 0: write("null")
        case 1: write("7")
        case 2: quoted("")
        default: quoted(pick(Self.urls))
        }
    }

    private mutating func linkList() {
        if random.below(10) == 0 { return link() }
        write("[")
        for index in 0..<random.below(4) {
            if index > 0 { write(",") }
            space()
            if random.below(15) == 0 { write("null") } else { quoted(pick(Self.urls)) }
            space()
        }
        write("]")
    }

    private static let urls = [
        "https://swapi.dev/api/films/1/", "/api/films/12", "http://Example.org:8080/api/films/3/?x=1",
        "https://swapi.dev/api/planets/007/",
        "https://swapi.dev/api/people/", "films/x", "https://swapi.dev/api/films/99999999999999999999/"
    ]

    /// `text` in quotes, each scalar written as it is or escaped, at random.
    private mutating func quoted(_ text: String) {
        write("\"")
        for scalar in text.unicodeScalars {
            let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
            if mustEscape || random.below(8) == 0 {
                switch scalar {
                case "\"" where random.below(2) == 0: write(#"\""#)
                case "\\" where random.below(2) == 0: write(#"\\"#)
                case "\n" where random.below(2) == 0: write(#"\n"#)
                case "/" where random.below(2) == 0: write(#"\/"#)
                default: for unit in String(scalar).utf16 { escape(UInt32(unit)) }
                }
            } else {
                write(String(scalar))
            }
        }
        write("\"")
    }

    // MARK: Damage

    /// One of the ways a whole file goes wrong.
    private mutating func damageBytes() {
        switch random.below(12) {
        case 0:
            // A trailing comma before a closing bracket.
            let closes = out.indices.filter { out[$0] == UInt8(ascii: "]") || out[$0] == UInt8(ascii: "}") }
            if let close = closes.isEmpty ? nil : pick(closes) {
                out.insert(contentsOf: Array(pick([",", ", ", ",\n"]).utf8), at: close)
            }
        case 1:
            out.removeLast(random.below(out.count + 1))
        case 2:
            out += Array(pick(["x", "]", "}", ",", "1", "[]", "\"", "/", "\u{0}", " 2", "\u{FEFF}", "null", "{}"]).utf8)
        case 3:
            out.insert(contentsOf: pick(Self.invalidUTF8), at: random.below(out.count + 1))
        case 4 where !out.isEmpty:
            let index = random.below(out.count)
            out[index] = random.below(2) == 0 ? out[index] ^ (1 << UInt8(random.below(8))) : UInt8(random.below(256))
        case 5 where !out.isEmpty:
            let start = random.below(out.count)
            out.removeSubrange(start..<min(out.count, start + 1 + random.below(4)))
        case 6:
            out.insert(
                contentsOf: Array(pick(["\"", "\\", ",", ":", "[", "]", "{", "}", "-", ".", "e", "0", "u", " "]).utf8),
                at: random.below(out.count + 1))
        case 7:
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            switch random.below(4) {
            case 0: out = bom + bom + out
            case 1: out = Array(" ".utf8) + bom + out
            case 2: out = [0xEF, 0xBB] + out
            default: out = bom
            }
        case 8 where !out.contains(where: { $0 >= 0x80 }):
            // The same document in UTF-16 or UTF-32.
            let text = String(decoding: out, as: UTF8.self)
            switch random.below(4) {
            case 0: out = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            case 1: out = [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case 2: out = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            default:
                out = text.unicodeScalars.flatMap {
                    [UInt8($0.value & 0xFF), UInt8(($0.value >> 8) & 0xFF), UInt8($0.value >> 16), 0]
                }
            }
        case 9:
            let separators = out.indices.filter { out[$0] == UInt8(ascii: ",") || out[$0] == UInt8(ascii: ":") }
            if let separator = separators.isEmpty ? nil : pick(separators) { out.remove(at: separator) }
        case 10 where !out.isEmpty:
            let start = random.below(out.count)
            out.insert(
                contentsOf: out[start..<min(out.count, start + 1 + random.below(8))], at: random.below(out.count + 1))
        default:
            out.insert(
                contentsOf: pick([[0x0C], [0x0B], [0xC2, 0xA0], [0xE2, 0x80, 0xA8], [0x00]]),
                at: random.below(out.count + 1))
        }
    }

    // MARK: Pools

    static let scalars: [Unicode.Scalar] = Array(
        "é€東👍𝄞\u{7F}\u{80}\u{85}\u{A0}\u{200B}\u{2028}\u{FEFF}\u{FFFD}\u{FFFF}\u{10FFFF}".unicodeScalars)

    static let edgeNumbers = [
        "0", "-0", "0e0", "0E0", "-0.0", "0.0e-0", "1", "-1", "42", "0.5", "-0.5e-3", "1e10", "1E+308", "1e308",
        "-1e308",
        "1.7976931348623157e308", "1.8e308", "1e400", "-1e400", "1E400", "1e-400", "-1e-400", "4.9e-324", "2e-324",
        "2.2250738585072014e-308", "9007199254740993", "9007199254740992", "-9007199254740993", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901234567890", "-123456789012345678901234567890", "12345678901234567890e100", "1e-0", "1E-0",
        "1e+0400", "0e99999", "0." + String(repeating: "0", count: 400) + "1", String(repeating: "9", count: 400),
        "1" + String(repeating: "0", count: 400) + ".0", "123456789012345678e128", "1e05"
    ]

    static let invalidNumbers = [
        "01", "-01", "00", "1.", ".5", "-.5", "+1", "1e", "1e+", "1E-", "-", "--1", "0x10", "1.e5", "1e5.5", "NaN",
        "Infinity", "-Infinity", "1_000", "0.", "1..2", "\u{661}", "1e+-1", "- 1", "1.5e", "0-1", "2.", "-0.e1"
    ]

    static let invalidWords = ["True", "nul", "tru", "fals", "nulll", "truex", "undefined", "t", "NULL", "None"]

    /// Overlong forms, surrogates in UTF-8, beyond U+10FFFF, stray continuation bytes, cut
    /// sequences, bytes UTF-8 never uses.
    static let invalidUTF8: [[UInt8]] = [
        [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0x80], [0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        [0xC3, 0x28]
    ]
}

/// Damage to a real file: bytes flipped, inserted, deleted, duplicated, the end cut off.
enum Mutation {
    static func apply(to bytes: inout [UInt8], _ random: inout SplitMix) {
        let noise: [[UInt8]] = [
            Array("\"".utf8), Array("\\".utf8), Array(",".utf8), Array(":".utf8), Array("[".utf8), Array("]".utf8),
            Array("{".utf8),
            Array("}".utf8), Array("0".utf8), Array("-".utf8), Array(".".utf8), Array("e".utf8), Array("\\u".utf8),
            Array("\\ud800".utf8),
            Array("1e400".utf8), Array(" ".utf8), Array("\n".utf8), [0x00], [0x1F], [0x7F], [0xFF], [0xC3],
            [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF]
        ]
        let position = random.below(bytes.count + 1)
        switch random.below(7) {
        case 0 where position < bytes.count:
            bytes[position] ^= 1 << UInt8(random.below(8))
        case 1 where position < bytes.count:
            bytes[position] = UInt8(random.below(256))
        case 2:
            bytes.insert(contentsOf: noise[random.below(noise.count)], at: position)
        case 3 where position < bytes.count:
            bytes.removeSubrange(
                position..<min(bytes.count, position + 1 + random.below(random.below(4) == 0 ? 200 : 3)))
        case 4:
            bytes.removeLast(random.below(min(bytes.count, 64) + 1))
        case 5 where position < bytes.count:
            let end = min(bytes.count, position + 1 + random.below(40))
            bytes.insert(contentsOf: bytes[position..<end], at: random.below(bytes.count + 1))
        default:
            // A comma before a closing bracket: Foundation's leniency.
            if let close = bytes[position...].firstIndex(where: { $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "}") })
            {
                bytes.insert(UInt8(ascii: ","), at: close)
            }
        }
    }
}

// MARK: - Found cases

/// A document that once broke a property, with what it showed.
struct FoundCase: Sendable, CustomStringConvertible {
    let note: String
    let bytes: [UInt8]
    var description: String { note }

    init(_ note: String, _ bytes: [UInt8]) {
        self.note = note
        self.bytes = bytes
    }

    init(_ note: String, _ text: String) { self.init(note, Array(text.utf8)) }

    static let all: [FoundCase] = [
        FoundCase(
            "deeper than Foundation's limit: firstProblem accepted what Foundation rejects",
            String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
    ]
}
