import HolocronCLI

/// The thin executable: everything lives in HolocronCLI.
@main
enum Holocron {
    static func main() async {
        await HolocronCommand.runMain()
    }
}
