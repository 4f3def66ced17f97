import Foundation
import Synchronization
import Testing
import TestSupport

/// Holocron's package plugins, used the way an app team uses them: a fixture package that
/// depends on FlowSite builds its own site with `swift package generate-site` and compares two
/// builds with `swift package diff-site`.
@Suite struct PluginTests {
    static let fixture = HolocronCLITests.repository.appendingPathComponent("Tests/Fixtures/SitePlugin")
    /// Kept between runs (below the repository's own .build), so only the first run compiles.
    static let scratch = HolocronCLITests.repository.appendingPathComponent(".build/plugin-fixture")

    func swiftPackage(_ arguments: [String], environment: [String: String] = [:]) async throws -> HolocronCLITests.Run {
        let swift = try #require(Executables.onPath("swift"), "swift is not on PATH")
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = swift
                    process.arguments = ["package", "--scratch-path", Self.scratch.path] + arguments
                    process.currentDirectoryURL = Self.fixture
                    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                    let out = Pipe()
                    let err = Pipe()
                    process.standardOutput = out
                    process.standardError = err
                    try process.run()
                    // Read both pipes at once: a full pipe would stall the build.
                    let errors = Mutex<Data>(Data())
                    let done = DispatchSemaphore(value: 0)
                    Thread.detachNewThread {
                        errors.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() }
                        done.signal()
                    }
                    let stdout = out.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    done.wait()
                    return HolocronCLITests.Run(
                        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                        stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self)
                    )
                })
            }
        }
    }

    @Test(.timeLimit(.minutes(10))) func generateSiteAndDiffSiteWorkOnAPackageThatUsesFlowSite() async throws {
        let folder = try HolocronCLITests().temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = folder.appendingPathComponent("before")
        let after = folder.appendingPathComponent("after")

        let first = try await swiftPackage(["--allow-writing-to-directory", before.path, "generate-site", "--output", before.path])
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains("Built 4 pages"), "\(first.stdout)")
        for page in ["index.html", "crew/ada/index.html", "crew/grace/index.html", "about/index.html", "flow/index.html", ".holocron-flow.json"] {
            #expect(FileManager.default.fileExists(atPath: before.appendingPathComponent(page).path), "no \(page)")
        }

        let second = try await swiftPackage(["--allow-writing-to-directory", after.path, "generate-site", "--output", after.path], environment: ["CREW": "Ada,Grace,Linus"])
        #expect(second.status == 0, "\(second.stderr)")
        let diff = try await swiftPackage(["diff-site", before.path, after.path, "--format", "markdown"])
        #expect(diff.status != 0, "the sites differ")
        #expect(diff.stdout.contains("| Member | 2 | 3 | 1 | 0 | 0 |"), "\(diff.stdout)")
        #expect(diff.stdout.contains("**Linus** `/crew/linus/`"))
        let same = try await swiftPackage(["diff-site", before.path, before.path])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains("No change"))
    }
}
