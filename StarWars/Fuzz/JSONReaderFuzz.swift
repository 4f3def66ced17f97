// A libFuzzer target for SWAPI's JSON readers: `JSONSyntax.firstProblem` and
// `SwapiJSONReader.resources` for each resource type, on whatever bytes the fuzzer makes; and
// for the decoded-data cache's reader, on the same bytes sealed as a cache file.
//
// `make fuzz` (scripts/fuzz.sh) builds it with -DFUZZING and -sanitize=fuzzer,address: libFuzzer
// then drives `checkReaders`. Built any other way, the program runs the checks once over each
// file it is given (a corpus, or an input the fuzzer found). An input that breaks an invariant
// stops the run with the reason; it belongs in JSONDifferentialTests' FoundCase.all, fixed.

import Foundation

@testable import SWAPI

@main enum JSONReaderFuzz {
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, checkReaders))
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            let files =
                (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? [url]
            for file in files.sorted(by: { $0.path < $1.path }) {
                guard let data = try? Data(contentsOf: file) else {
                    FileHandle.standardError.write(Data("json-reader-fuzz: cannot read \(file.path)\n".utf8))
                    exit(2)
                }
                _ = data.withUnsafeBytes { checkReaders($0.bindMemory(to: UInt8.self).baseAddress, data.count) }
                count += 1
            }
        }
        print("json-reader-fuzz: \(count) inputs checked")
        #endif
    }
}

#if FUZZING
/// libFuzzer's entry point for a program with its own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

/// Checks every reader on `count` bytes at `start`.
func checkReaders(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = count == 0 ? Data() : Data(bytes: start!, count: count)
    let problem = JSONSyntax.firstProblem(in: data)
    if let problem {
        // A problem is somewhere in the data (just past its end when the data stops too soon).
        let position = problem.position
        guard position.line >= 1, position.column >= 1, (1...(count + 1)).contains(position.byte) else {
            fatalError("firstProblem's position \(position) is outside \(count) bytes")
        }
        guard !problem.isTruncation || count - (position.byte - 1) <= 3 else {
            fatalError("firstProblem calls \(problem.detail) at \(position) a truncation, \(count) bytes")
        }
    }
    check(Person.self, data, problem)
    check(Film.self, data, problem)
    check(Planet.self, data, problem)
    check(Species.self, data, problem)
    check(Starship.self, data, problem)
    check(Vehicle.self, data, problem)
    checkCache(data)
    return 0
}

/// The bytes read as a cache file of each kind, sealed first (a checksum and the end marks), so
/// the reader gets past its checksum: it must throw or give resources, never crash or hang.
private func checkCache(_ data: Data) {
    var bytes = [UInt8](data)
    bytes.append(contentsOf: [UInt8](repeating: 0, count: 16))
    bytes.append(contentsOf: DecodedCache.magic)
    bytes.replaceSubrange(0..<min(8, bytes.count - 24), with: DecodedCache.magic)
    let sealed = bytes.count - 24
    let length = UInt64(max(0, sealed - 64))
    withUnsafeBytes(of: length.littleEndian) { bytes.replaceSubrange(sealed..<(sealed + 8), with: $0) }
    let checksum = bytes.withUnsafeBytes {
        DecodedCache.Checksum.of(UnsafeRawBufferPointer(rebasing: $0[..<(sealed + 8)]))
    }
    withUnsafeBytes(of: checksum.littleEndian) { bytes.replaceSubrange((sealed + 8)..<(sealed + 16), with: $0) }
    func read<R: SwapiRecord>(_ type: R.Type) {
        _ = bytes.withUnsafeBytes {
            try? DecodedCache.Reader.contents(R.self, in: $0, program: "fuzz", fileIdentity: nil)
        }
    }
    read(Person.self)
    read(Film.self)
    read(Planet.self)
    read(Species.self)
    read(Starship.self)
    read(Vehicle.self)
}

/// Whatever the typed reader reads is valid JSON, and Foundation's decoder makes the same values
/// of it.
private func check<R: SwapiRecord>(_ type: R.Type, _ data: Data, _ problem: JSONSyntax.Problem?) {
    guard let resources = SwapiJSONReader.resources(R.self, in: data) else { return }
    if let problem {
        fatalError(
            """
            the typed reader read \(resources.count) \(R.self) from data firstProblem rejects: \
            \(problem.detail) at \(problem.position)
            """
        )
    }
    let decoded: [R]
    do {
        decoded = try JSONDecoder().decode([R].self, from: data)
    } catch {
        fatalError("the typed reader read \(resources.count) \(R.self) from data JSONDecoder rejects: \(error)")
    }
    guard decoded == resources else {
        fatalError("the typed reader's \(R.self) values are not JSONDecoder's:\n\(resources)\n\(decoded)")
    }
}
