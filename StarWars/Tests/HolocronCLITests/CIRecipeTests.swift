import Foundation
import StarWarsTestSupport
import Testing

/// The CI recipe in Examples/ci: the workflow's diff step runs site-diff.sh; this runs the same
/// script on a fixture repository whose two commits are the base and the head of a pull request.
@Suite struct CIRecipeTests {
    func run(
        _ executable: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:]
    ) throws -> HolocronCLITests.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        // A CI runner or a git hook may export GIT_DIR and its kin, which would point the
        // fixture's git commands at the repository running the tests.
        let inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        process.environment = inherited.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return HolocronCLITests.Run(
            status: process.terminationStatus, stdout: String(decoding: text, as: UTF8.self), stderr: "")
    }

    @Test func theWorkflowsDiffStepReportsAPullRequestsChange() throws {
        let recipe = HolocronCLITests.repository.appendingPathComponent("Examples/ci")
        let workflow = try String(contentsOf: recipe.appendingPathComponent("site.yml"), encoding: .utf8)
        #expect(
            workflow.contains(
                #"""
                Examples/ci/site-diff.sh "${{ github.event.pull_request.base.sha }}" \#
                "${{ github.event.pull_request.head.sha }}" "$RUNNER_TEMP/site"
                """#
            ))
        #expect(workflow.contains(#"--body-file "$RUNNER_TEMP/site/site-diff.md""#))

        let git = try #require(Executables.onPath("git"), "git is not on PATH")
        let folder = try HolocronCLITests().temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let repository = folder.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: HolocronCLITests.appPackage.appendingPathComponent("Sources/SWAPI/Resources/snapshot"),
            to: repository.appendingPathComponent("data")
        )
        let identity = ["-c", "user.name=Fixture", "-c", "user.email=fixture@example.com", "-c", "commit.gpgsign=false"]
        #expect(try run(git.path, ["init", "--quiet", "-b", "main"], in: repository).status == 0)
        #expect(try run(git.path, ["add", "."], in: repository).status == 0)
        #expect(try run(git.path, identity + ["commit", "--quiet", "-m", "base"], in: repository).status == 0)
        let people = repository.appendingPathComponent("data/people.json")
        let text = try String(contentsOf: people, encoding: .utf8)
        let luke = try #require(text.range(of: "\"height\": \"172\""))
        try Data(text.replacingCharacters(in: luke, with: "\"height\": \"180\"").utf8).write(to: people)
        #expect(try run(git.path, identity + ["commit", "--quiet", "-am", "Luke grew"], in: repository).status == 0)

        let holocron = HolocronCLITests.binary.path
        let result = try run(
            recipe.appendingPathComponent("site-diff.sh").path,
            ["HEAD~1", "HEAD", folder.appendingPathComponent("out").path], in: repository,
            environment: [
                "SITE_BUILD": "\(holocron) build --quiet --data data --output", "SITE_DIFF": "\(holocron) diff",
                "NEW_URL": "https://example.com/pr-7/"
            ]
        )
        #expect(result.status == 0, "\(result.stdout)")
        let report = try String(contentsOf: folder.appendingPathComponent("out/site-diff.md"), encoding: .utf8)
        #expect(report.contains("| Height | **172** cm | **180** cm |"), "\(report)")
        #expect(report.contains("[after](https://example.com/pr-7/characters/luke-skywalker/)"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/head-site/index.html").path))
        let worktrees = try run(git.path, ["worktree", "list"], in: repository)
        #expect(
            worktrees.stdout.split(separator: "\n").count == 1, "the script removes its worktrees: \(worktrees.stdout)")
    }
}
