import Foundation

/// Which program is building: a new build of it (another binary) renders every page again,
/// since its rendering may differ. The executable's size and modification time stand for it,
/// which costs one `stat`, not a read of the binary.
package enum ProgramIdentity {
    package static let current: String = {
        let path = Bundle.main.executablePath ?? CommandLine.arguments.first ?? ""
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return path }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path) \(size) \(modified)"
    }()
}
