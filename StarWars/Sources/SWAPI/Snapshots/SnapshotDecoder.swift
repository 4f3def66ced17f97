import Foundation

/// Decodes one kind's JSON array and turns failures into errors that name the file, the
/// position (line and column, or the resource by position and name), the field and what was
/// expected.
package enum SnapshotDecoder {
    package static func decode<R: SwapiRecord>(_ type: R.Type, from data: Data, source: String) throws -> [R] {
        try decode(R.self, from: data, source: source, fingerprinting: false).resources
    }

    /// ``decode(_:from:source:)``, with a fingerprint of each resource's text when
    /// `fingerprinting` and the file is read straight from its bytes (`nil` otherwise). With
    /// `earlier`, the cache of an earlier version of the file, only the resources whose bytes
    /// are not an earlier one's are decoded. With a `recorder`, each value an ordinary file's
    /// resources read, or their records in `earlier`, are recorded into it (``DecodedCache``);
    /// it holds nothing usable when the file went the slower way.
    package static func decode<R: SwapiRecord>(
        _ type: R.Type, from data: Data, source: String, fingerprinting: Bool,
        reusing earlier: DecodedCache.Earlier<R>? = nil, recordingInto recorder: DecodedCache.Recorder? = nil
    ) throws -> (resources: [R], fingerprints: [UInt64]?) {
        // An ordinary file is read straight from its bytes; anything else, and every error,
        // goes the slower way through Foundation, which the messages below explain.
        if let (resources, fingerprints) = SwapiJSONReader.read(
            R.self, in: data, fingerprinting: fingerprinting, reusing: earlier, recordingInto: recorder)
        {
            try checkUniqueIDs(resources, source: source)
            return (resources, fingerprinting ? fingerprints : nil)
        }
        // Foundation says that JSON is invalid, not where; the check finds the place first.
        if let problem = JSONSyntax.firstProblem(in: data) {
            switch problem.reason {
            case .invalidUTF8:
                throw SwapiError(.invalidUTF8(source: source, position: problem.position))
            case .unexpected(let expected, let found):
                throw SwapiError(
                    .invalidJSON(source: source, position: problem.position, expected: expected, found: found))
            }
        }
        let resources: [R]
        do {
            resources = try JSONDecoder().decode([R].self, from: data)
        } catch let error as DecodingError {
            throw describe(error, data: data, source: source)
        } catch {
            throw SwapiError(
                .malformed(source: source, resource: nil, field: nil, message: "the JSON could not be decoded"),
                underlying: error)
        }
        try checkUniqueIDs(resources, source: source)
        return (resources, nil)
    }

    /// Fails on the first id that two resources share, naming both.
    private static func checkUniqueIDs<R: SwapiResource>(_ resources: [R], source: String) throws {
        var firstIndex: [Int: Int] = [:]
        firstIndex.reserveCapacity(resources.count)
        // By position, reading the id alone: iterating the resources would copy each whole one.
        for index in resources.indices {
            let id = resources[index].id
            guard let earlier = firstIndex[id] else {
                firstIndex[id] = index
                continue
            }
            throw SwapiError(
                .duplicateID(
                    kind: R.kind, id: id, source: source,
                    first: resourceName(earlier, resources[earlier].displayName),
                    second: resourceName(index, resources[index].displayName)
                ))
        }
    }

    private static func resourceName(_ index: Int, _ name: String?) -> String {
        "resource \(index + 1)" + (name.map { " (\"\($0)\")" } ?? "")
    }

    private static func describe(_ error: DecodingError, data: Data, source: String) -> SwapiError {
        let (path, message): ([any CodingKey], String) =
            switch error {
            case .typeMismatch(let type, let context):
                (context.codingPath, mismatch(expected: type, at: context.codingPath, in: data))
            case .valueNotFound(let type, let context):
                (context.codingPath, "expected \(expectation(for: type, at: context.codingPath)), found null")
            case .keyNotFound(let key, let context):
                (context.codingPath + [key], "the field is missing, and every resource needs it")
            case .dataCorrupted(let context):
                // Only the model's own readers report corrupt data once the syntax check passed;
                // their descriptions are written for people.
                (context.codingPath, context.debugDescription)
            @unknown default:
                ([], "the data could not be decoded")
            }
        if path.isEmpty {
            return SwapiError(
                .malformed(source: source, resource: nil, field: nil, message: message), underlying: error)
        }
        var resource: String?
        if let index = path.first?.intValue {
            resource = resourceName(index, nameOfResource(at: index, in: data))
        }
        let field = path.dropFirst().map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return SwapiError(
            .malformed(
                source: source, resource: resource,
                field: field.isEmpty ? nil : field.replacingOccurrences(of: ".[", with: "["), message: message),
            underlying: error
        )
    }

    /// "expected a list of resource URLs, found the text \"none\"".
    private static func mismatch(expected type: Any.Type, at path: [any CodingKey], in data: Data) -> String {
        let expected = "expected \(expectation(for: type, at: path))"
        guard let found = value(at: path, in: data) else { return expected }
        return "\(expected), found \(describe(found))"
    }

    /// What a field of `type` holds, in the data's words.
    private static func expectation(for type: Any.Type, at path: [any CodingKey]) -> String {
        if path.isEmpty { return "a JSON array of resources" }
        if type == String.self { return "text or a number" }
        if type == Int.self { return "a whole number" }
        if type == Double.self { return "a number" }
        if type == Bool.self { return "true or false" }
        if type is [Any].Type { return "a list of resource URLs" }
        if type is [String: Any].Type { return path.count == 1 ? "a resource (a JSON object)" : "a JSON object" }
        return "a value of another type"
    }

    /// A JSON value as the message quotes it.
    private static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let text as String: return "the text \"\(text.count > 60 ? text.prefix(60) + "…" : text)\""
        case is [Any]: return "a list"
        case is [String: Any]: return "an object"
        case let number as NSNumber:
            // JSON's true and false arrive as NSNumbers of Objective-C type "c" (char).
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            return "the number \(number)"
        default: return "a value"
        }
    }

    /// The value at `path`, read loosely, for the message.
    private static func value(at path: [any CodingKey], in data: Data) -> Any? {
        guard var value = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) else { return nil }
        for key in path {
            if let index = key.intValue, let array = value as? [Any] {
                guard index < array.count else { return nil }
                value = array[index]
            } else if let object = value as? [String: Any], let next = object[key.stringValue] {
                value = next
            } else {
                return nil
            }
        }
        return value
    }

    /// The name or title of the resource at `index`, read loosely, for the error message.
    private static func nameOfResource(at index: Int, in data: Data) -> String? {
        guard let array = try? JSONSerialization.jsonObject(with: data) as? [Any], index < array.count,
            let object = array[index] as? [String: Any]
        else { return nil }
        return (object["name"] as? String) ?? (object["title"] as? String)
    }
}
