import FlowSite
import Foundation
import SWAPI
import Testing

@testable import FlowSiteCommandLine
@testable import HolocronKit

/// The pieces of the edit loop on their own: the watcher, the one-rebuild-at-a-time loop and
/// the progress line (on a fake clock and a fake terminal).
@Suite struct WatchAndProgressTests {
    let cli = HolocronCLITests()

    // MARK: Watching

    @Test func theKernelReportsABurstOnceWithItsPathsAndNewFoldersAreWatched() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("partials"), withIntermediateDirectories: true)
        let (method, changes) = FolderWatcher(folders: [folder]).changes()
        #if os(Linux)
        #expect(method == .inotify)
        #endif
        let inbox = Inbox<Set<String>>()
        let reader = Task {
            for await batch in changes { inbox.put(batch) }
            inbox.close()
        }
        defer { reader.cancel() }

        // An editor's save: a swap file, a backup, the file written in several pieces.
        let layout = folder.appendingPathComponent("layout.mustache")
        try Data("x".utf8).write(to: folder.appendingPathComponent(".layout.mustache.swp"))
        try Data("old".utf8).write(to: folder.appendingPathComponent("layout.mustache~"))
        try Data().write(to: layout)
        let handle = try FileHandle(forWritingTo: layout)
        for piece in ["<html>", "<head>", "</head>", "</html>"] { handle.write(Data(piece.utf8)) }
        try handle.close()
        let first = try await inbox.next("the save")
        #expect(first == [layout.path], "one burst, scratch files left out: \(first)")

        // A folder made after watching began is watched too.
        let deep = folder.appendingPathComponent("partials/new/deeper")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let made = try await inbox.next("the new folders")
        #expect(made.contains(folder.appendingPathComponent("partials/new").path))
        try Data("<p>".utf8).write(to: deep.appendingPathComponent("card.mustache"))
        let inside = try await inbox.next(
            until: { $0.contains(deep.appendingPathComponent("card.mustache").path) },
            "a file in the new folder")
        #expect(!inside.isEmpty)
    }

    #if os(Linux)
    /// A finished save (the file closed) is reported after a short quiet, but a file still open
    /// for writing is waited for through a pause longer than that: nothing is reported about it
    /// until it is closed, and then it is whole.
    @Test func aFileStillOpenForWritingIsWaitedForThroughAPause() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A quiet period far longer than the pause below, however slow the machine: only the
        // file being open may keep the write in one burst.
        let (_, changes) = FolderWatcher(folders: [folder], quietPeriod: .seconds(10)).changes()
        let closed = Locked(false)
        // Each burst, and whether the file had been closed when it came.
        let inbox = Inbox<(paths: Set<String>, afterClose: Bool)>()
        let reader = Task {
            for await batch in changes { inbox.put((batch, closed.withLock { $0 })) }
            inbox.close()
        }
        defer { reader.cancel() }
        let file = folder.appendingPathComponent("people.json")
        try Data().write(to: file)
        #expect(try await inbox.next("the new file").paths == [file.path])
        let handle = try FileHandle(forWritingTo: file)
        handle.write(Data("[".utf8))
        // A writer that pauses mid-file for longer than a finished save's quiet (20 ms).
        try await Task.sleep(for: .milliseconds(150))
        handle.write(Data("]".utf8))
        closed.withLock { $0 = true }
        try handle.close()
        let write = try await inbox.next("the write")
        #expect(write.paths == [file.path] && write.afterClose, "reported while still open for writing: \(write)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "[]")
    }
    #endif

    @Test func pollingSeesEveryKindOfChange() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (method, changes) = FolderWatcher(folders: [folder], interval: .milliseconds(50), forcePolling: true)
            .changes()
        #expect(method == .polling(reason: nil))
        let inbox = Inbox<Set<String>>()
        let reader = Task {
            for await batch in changes { inbox.put(batch) }
        }
        defer { reader.cancel() }
        let file = folder.appendingPathComponent("a/layout.mustache")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("one".utf8).write(to: file)
        #expect(try await inbox.next("the new file") == [file.path])
        try FileManager.default.removeItem(at: file)
        #expect(try await inbox.next("the removal") == [file.path])
    }

    // MARK: One rebuild at a time

    @Test func changesDuringARebuildMakeOneMoreRebuildNeverASecondAtOnce() async throws {
        let (changes, input) = AsyncStream<Set<String>>.makeStream()
        let started = Inbox<Set<String>>()
        let gate = Inbox<Void>()
        let running = Locked((now: 0, most: 0))
        let loop = Task {
            await RebuildLoop.run(changes: changes) { batch in
                running.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                started.put(batch)
                if batch.contains("a") { _ = try? await gate.next(within: .seconds(60), "the gate") }
                running.withLock { $0.now -= 1 }
            }
        }
        input.yield(["a"])
        #expect(try await started.next("the first rebuild") == ["a"])
        // Saves while the first rebuild runs.
        input.yield(["b"])
        input.yield(["c"])
        input.finish()
        gate.put(())
        // The changes have ended, so the loop ends once it has built what they brought: wait for
        // that, not for a timeout (a busy machine may not run the loop for seconds).
        await loop.value
        started.close()
        var later: [Set<String>] = []
        while let batch = try? await started.next(within: .seconds(30), "another rebuild") {
            later.append(batch)
        }
        #expect(later.reduce(Set(), { $0.union($1) }) == ["b", "c"], "the files saved during a rebuild are built")
        #expect((1...2).contains(later.count), "bursts gather into one rebuild: \(later)")
        #expect(running.withLock { $0.most } == 1)
    }

    @Test(.timeLimit(.minutes(1))) func changesSavedBeforeTheLoopRunsAreBuiltOnceEachAndAnEmptyBurstBuildsNothing()
        async
    {
        let (changes, input) = AsyncStream<Set<String>>.makeStream()
        input.yield(["a"])
        input.yield(["b"])
        input.yield([])
        input.finish()
        let built = Locked<[Set<String>]>([])
        // The changes have ended, so the loop ends once it has built what they brought.
        await RebuildLoop.run(changes: changes) { batch in built.withLock { $0.append(batch) } }
        let batches = built.withLock { $0 }
        #expect(batches.reduce(Set(), { $0.union($1) }) == ["a", "b"])
        #expect((1...2).contains(batches.count), "bursts gather into one rebuild: \(batches)")
        #expect(!batches.contains([]), "an empty burst builds nothing")
    }

    // MARK: The progress line

    /// A fake terminal and clock.
    final class Screen: Sendable {
        let written = Locked<[String]>([])
        let time = Locked(Duration.zero)

        func line(enabled: Bool = true) -> BuildProgressLine {
            BuildProgressLine(
                enabled: enabled, now: { self.time.withLock { $0 } },
                write: { text in self.written.withLock { $0.append(text) } })
        }

        func advance(_ duration: Duration) { time.withLock { $0 += duration } }
        var output: [String] { written.withLock { $0 } }
    }

    @Test func theLineWaitsHalfASecondThenRedrawsInPlaceAtMostTenTimesASecond() {
        let screen = Screen()
        let line = screen.line()
        line.start()
        line.update(BuildProgress(phase: "pages", made: 10, discovered: 40))
        screen.advance(.milliseconds(400))
        line.update(BuildProgress(phase: "pages", made: 100, discovered: 400))
        #expect(screen.output.isEmpty, "a quick build shows only its summary")

        screen.advance(.milliseconds(100))
        line.update(BuildProgress(phase: "pages", made: 250, discovered: 900))
        #expect(screen.output == ["\r\u{1B}[2KBuilding: 250/900 pages, 500 pages/s, making pages"])
        screen.advance(.milliseconds(50))
        line.update(BuildProgress(phase: "pages", made: 270, discovered: 950))
        #expect(screen.output.count == 1, "at most one redraw per 100 ms")
        screen.advance(.milliseconds(50))
        line.update(BuildProgress(phase: "pages", made: 300, discovered: 1000))
        #expect(screen.output.last == "\r\u{1B}[2KBuilding: 300/1000 pages, 500 pages/s, making pages")
        screen.advance(.milliseconds(1))
        line.update(BuildProgress(phase: "links", made: 2807, discovered: 2807))
        #expect(
            screen.output.last?.hasSuffix("2807/2807 pages, 4671 pages/s, checking links") == true,
            "a new phase shows at once")
        line.finish()
        #expect(screen.output.last == "\r\u{1B}[2K", "the summary prints on a clean line")
        #expect(screen.output.allSatisfy { !$0.contains("\n") })
    }

    @Test func aQuickBuildOrNoTerminalOrQuietDrawsNothing() {
        let screen = Screen()
        let quick = screen.line()
        quick.start()
        quick.update(BuildProgress(phase: "pages", made: 291, discovered: 291))
        quick.finish()
        #expect(screen.output.isEmpty, "nothing drawn, nothing erased")

        let off = screen.line(enabled: false)
        off.start()
        screen.advance(.seconds(5))
        off.update(BuildProgress(phase: "pages", made: 1, discovered: 2))
        off.finish()
        #expect(screen.output.isEmpty)
        #expect(BuildProgressLine.shouldDraw(quiet: true) == false)
    }

    @Test func thePhaseIsNeverAnEscapeSequence() {
        let text = BuildProgressLine.text(
            phase: "feed\u{1B}]0;owned\u{07}", made: 1, discovered: 0, elapsed: .seconds(2))
        #expect(text == "Building: 1/1 pages, 1 pages/s, feed\\u{1B}]0;owned\\u{7}")
    }

    @Test func aBuildOnAPipePrintsOnlyItsSummary() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await cli.holocron("build", "--output", "out", in: folder)
        #expect(run.status == 0)
        #expect(!run.stderr.contains("Building:") && !run.stderr.contains("\u{1B}"), "\(run.stderr)")
    }
}
