@testable import HolocronCLI
import Testing

/// `holocron build` begins its no-change check before ArgumentParser has read the command
/// line, from a guess at the output folder. The guess is verified before it is used, but a
/// wrong one wastes the check: it must be the folder the parsed command names.
@Suite struct EarlyCheckGuessTests {
    @Test(arguments: [
        (["build"], "site"),
        (["build", "--quiet", "--data", "/tmp", "--output", "out"], "out"),
        (["build", "-o", "out", "--templates", "/tmp"], "out"),
        (["build", "--output=out", "--base-url", "https://example.com/"], "out"),
        (["build", "--data", "/tmp", "--output", "a b"], "a b"),
    ])
    func theGuessIsTheFolderTheParsedCommandNames(arguments: [String], folder: String) throws {
        #expect(BuildCommand.outputToCheckEarly(in: arguments) == folder)
        let parsed = try HolocronCommand.parseAsRoot(arguments)
        #expect((parsed as? BuildCommand)?.output == folder)
    }

    /// A command line that never asks whether the site is unchanged starts no check.
    @Test(arguments: [
        ["serve"], ["check", "--output", "x"], ["build", "--force"], ["build", "--api", "http://127.0.0.1:9/api/"],
        ["build", "--api=http://127.0.0.1:9/api/"], ["build", "--help"], ["--version"], ["build", "--output"],
    ])
    func aCommandThatNeverAsksStartsNoCheck(arguments: [String]) {
        #expect(BuildCommand.outputToCheckEarly(in: arguments) == nil)
    }
}
