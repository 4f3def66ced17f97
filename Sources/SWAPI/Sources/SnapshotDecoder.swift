import Foundation

/// Decodes one kind's JSON array and turns decoding failures into errors that name the file,
/// the resource (by position and name) and the field.
enum SnapshotDecoder {
    static func decode<R: SwapiResource>(_ type: R.Type, from data: Data, source: String) throws -> [R] {
        do {
            return try JSONDecoder().decode([R].self, from: data)
        } catch let error as DecodingError {
            throw describe(error, data: data, source: source)
        } catch {
            throw SwapiError(.malformed(source: source, resource: nil, field: nil, message: "\(error)"))
        }
    }

    private static func describe(_ error: DecodingError, data: Data, source: String) -> SwapiError {
        let (path, message): ([any CodingKey], String) = switch error {
        case .typeMismatch(let type, let context):
            (context.codingPath, context.debugDescription.isEmpty ? "expected \(type)" : context.debugDescription)
        case .valueNotFound(_, let context):
            (context.codingPath, "a value is missing: \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            (context.codingPath + [key], "the field is missing")
        case .dataCorrupted(let context):
            (context.codingPath, context.debugDescription)
        @unknown default:
            ([], "\(error)")
        }
        if path.isEmpty {
            let detail = message.contains("not valid JSON") || message.contains("JSON") ? message : "expected a JSON array of resources (\(message))"
            return SwapiError(.malformed(source: source, resource: nil, field: nil, message: detail))
        }
        var resource: String?
        if let index = path.first?.intValue {
            resource = "resource \(index + 1)"
            if let name = nameOfResource(at: index, in: data) { resource! += " (\"\(name)\")" }
        }
        let field = path.dropFirst().map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return SwapiError(.malformed(source: source, resource: resource, field: field.isEmpty ? nil : field.replacingOccurrences(of: ".[", with: "["), message: message))
    }

    /// The name or title of the resource at `index`, read loosely, for the error message.
    private static func nameOfResource(at index: Int, in data: Data) -> String? {
        guard let array = try? JSONSerialization.jsonObject(with: data) as? [Any], index < array.count,
            let object = array[index] as? [String: Any]
        else { return nil }
        return (object["name"] as? String) ?? (object["title"] as? String)
    }
}
