import FlowSiteUtilities
import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import FlowSite

/// A manifest's file lines are read by a hand-written reader (no-change checks read hundreds of
/// thousands of them); these tests hold it to a plain reading built from `split` and `Int(_:)`.
@Suite struct ManifestLineTests {
    /// The fields a line holds, read the slow, obvious way; `nil` when it is malformed.
    private static func reference(
        _ line: String
    ) -> (a: UInt64, b: UInt64, size: Int, inode: Int, seconds: Int, nanoseconds: Int, path: String)? {
        let fields = line.split(separator: " ", maxSplits: 6, omittingEmptySubsequences: false)
        guard fields.count == 7, fields[0] == "f", fields[1].utf8.count == 32,
            fields[1].allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) }),
            !fields[6].isEmpty
        else { return nil }
        // `Int("+1")` is 1; the manifest never writes a plus.
        let numbers = fields[2...5].map { $0.first == "+" ? nil : Int($0) }
        guard let a = UInt64(fields[1].prefix(16), radix: 16), let b = UInt64(fields[1].suffix(16), radix: 16),
            let size = numbers[0], let inode = numbers[1], let seconds = numbers[2], let nanoseconds = numbers[3]
        else { return nil }
        return (a, b, size, inode, seconds, nanoseconds, String(fields[6]))
    }

    private static func read(_ line: String, stamp: Bool) -> (entry: SiteManifest.Entry, path: String)? {
        Array(line.utf8).withUnsafeBufferPointer { buffer in
            (stamp ? SiteManifest.entryAndPath(buffer) : SiteManifest.file(buffer)).map {
                ($0.0, String(decoding: $0.1, as: UTF8.self))
            }
        }
    }

    private static let numbers: [String] = [
        "0", "7", "-0", "-12", "999999999999999999", "1000000000000000000", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "99999999999999999999", "+5", "", "1a",
        "-"
    ]

    /// A random line: mostly well formed, with numbers at and past the edges of `Int`, and
    /// sometimes a byte changed.
    private static func line(_ random: inout SplitMix) -> String {
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let hexDigits = Array("0123456789abcdef")
        var hex = String((0..<32).map { _ in pick(hexDigits) })
        if random.next() % 8 == 0 {
            hex = pick([
                "", "ABCDEF0123456789abcdef0123456789", String(hex.dropLast()), hex + "0", String(hex.prefix(31)) + "g"
            ])
        }
        func number() -> String {
            random.next() % 2 == 0
                ? String(Int64(bitPattern: random.next()) >> Int64(random.next() % 63)) : pick(numbers)
        }
        var text =
            """
            f \(hex) \(number()) \(number()) \(number()) \(number()) \
            \(pick(["index.html", "a b/index.html", "", "characters/luke/index.html"]))
            """
        if random.next() % 4 == 0 {
            var bytes = Array(text.utf8)
            bytes[Int(random.next() % UInt64(bytes.count))] = pick(Array(" f-09az\n+".utf8))
            text = String(decoding: bytes, as: UTF8.self)
        }
        return text
    }

    @Test func theFileReaderAgreesWithAPlainReadingOnRandomLines() async {
        let accepted = Counter()
        await propertyCheck(count: 20_000, input: Gen.uint64()) { seed in
            var random = SplitMix(seed: seed)
            let text = Self.line(&random)
            let expected = Self.reference(text)
            let read = Self.read(text, stamp: false)
            #expect((expected == nil) == (read == nil), "\(text)")
            guard let expected, let read else { return }
            accepted.add()
            #expect(read.entry.fingerprint == StableHash(a: expected.a, b: expected.b), "\(text)")
            #expect(
                read.entry.size == expected.size && read.entry.inode == UInt64(bitPattern: Int64(expected.inode)),
                "\(text)")
            #expect(
                read.entry.modified.tv_sec == expected.seconds && read.entry.modified.tv_nsec == expected.nanoseconds,
                "\(text)")
            #expect(read.path == expected.path, "\(text)")
        }
        #expect(accepted.value > 2_000)
    }

    /// The no-change check's reader skips the fingerprint; every other field it reads as the
    /// full reader does, and it accepts every line the full reader does.
    @Test func theStampReaderReadsWhatTheFileReaderReadsButTheFingerprint() async {
        await propertyCheck(count: 20_000, input: Gen.uint64()) { seed in
            var random = SplitMix(seed: seed)
            let text = Self.line(&random)
            let stamp = Self.read(text, stamp: true)
            guard let file = Self.read(text, stamp: false) else {
                // Only a damaged fingerprint (or a line with none) may be accepted by the stamp reader alone.
                if let stamp { #expect(Self.reference(text) == nil && stamp.path.isEmpty == false, "\(text)") }
                return
            }
            #expect(stamp?.path == file.path, "\(text)")
            #expect(stamp?.entry.size == file.entry.size && stamp?.entry.inode == file.entry.inode, "\(text)")
            #expect(
                stamp?.entry.modified.tv_sec == file.entry.modified.tv_sec
                    && stamp?.entry.modified.tv_nsec == file.entry.modified.tv_nsec, "\(text)")
        }
    }

    /// A manifest or journal that is a named pipe (put there by hand, or by an attacker) is
    /// refused at once: opening one to read it used to wait for a writer forever.
    @Test(.timeLimit(.minutes(5))) func aNamedPipeInPlaceOfAManifestOrJournalIsRefusedAtOnce() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("pipe-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: site)
            try? FileManager.default.removeItem(at: SiteLayout.spareFolder(of: site))
        }
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: SiteLayout.spareFolder(of: site), withIntermediateDirectories: true)
        let pipes = [site.appendingPathComponent(SiteLayout.manifest).path, SiteLayout.journalPath(of: site)]
        for pipe in pipes { #expect(mkfifo(pipe, 0o644) == 0) }
        let folder = open(site.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(folder) }
        // On a thread of its own, so that a reader stuck on a pipe fails the test instead of
        // hanging the run: the pipes are then opened for writing and closed, which frees it.
        let done = DispatchSemaphore(value: 0)
        let results = Locked<[Bool]>([])
        Thread {
            let checks = [
                SiteManifest.FileCheck(mappingManifestIn: folder) == nil,
                SiteManifest.readBytes(from: folder)?.isEmpty ?? true,
                SiteBuilder<GraphCoordinator>.unchangedSite(at: site, inputs: "abc") == nil,
                StoredJournal.load(for: site, buildKey: nil) == nil
            ]
            results.withLock { $0 = checks }
            done.signal()
        }.start()
        if done.wait(timeout: .now() + 20) == .timedOut {
            Issue.record("a reader waited on a named pipe")
            for pipe in pipes {
                let writer = open(pipe, O_WRONLY | O_NONBLOCK)
                if writer >= 0 { close(writer) }
            }
            _ = done.wait(timeout: .now() + 20)
        }
        #expect(results.withLock { $0 } == [true, true, true, true])
    }

    @Test func numbersAtTheEdgesOfIntAreReadOrRefused() {
        let hex = String(repeating: "0", count: 32)
        #expect(Self.read("f \(hex) 9223372036854775807 1 2 3 x", stamp: false)?.entry.size == .max)
        #expect(Self.read("f \(hex) -9223372036854775808 1 2 3 x", stamp: false)?.entry.size == .min)
        #expect(Self.read("f \(hex) 999999999999999999 1 2 3 x", stamp: true)?.entry.size == 999_999_999_999_999_999)
        #expect(Self.read("f \(hex) 9223372036854775808 1 2 3 x", stamp: false) == nil)
        #expect(Self.read("f \(hex) 1 2 3 4", stamp: true) == nil)
        #expect(Self.read("f \(hex.uppercased().dropLast())A 1 2 3 4 x", stamp: false) == nil)
    }
}
