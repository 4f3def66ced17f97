import FlowSiteUtilities
import Foundation

/// Which program is building: a new build of it (another binary) renders every page again,
/// since its rendering may differ. The executable's size and modification time stand for it,
/// which costs one `stat`, not a read of the binary.
package enum ProgramIdentity {
    package static let current: String = {
        // On Linux the kernel names the running binary; `Bundle.main` would list the binary's
        // folder first, and Foundation's attributes look up the owner's name in /etc/passwd.
        #if os(Linux)
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments
            .first ?? ""
        #else
        let path = Bundle.main.executablePath ?? CommandLine.arguments.first ?? ""
        #endif
        return FileIdentity.listingLine(of: path) ?? path
    }()
}
