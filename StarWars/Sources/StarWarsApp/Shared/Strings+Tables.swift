extension Strings {
    /// Every language the app speaks, with its string table as compiled into the binary.
    ///
    /// To add a language: copy `Resources/Strings/en.json` to `<code>.json` and translate
    /// every value (keep the keys and the `{placeholders}`), add
    /// `.embedInCode("Resources/Strings/<code>.json")` to the StarWarsApp target in
    /// `Package.swift`, and add a row here. No view model, screen or module changes.
    static let tables: [(language: String, json: [UInt8])] = [
        ("en", PackageResources.en_json),
        ("es", PackageResources.es_json)
    ]
}
