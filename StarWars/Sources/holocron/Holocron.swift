import Foundation
import HolocronCLI
import HolocronKit

/// The thin executable: the app and its command line live in HolocronKit and HolocronCLI.
@main
enum Holocron {
    static func main() async {
        exit(await StarWarsSite.runCommandLine())
    }
}
