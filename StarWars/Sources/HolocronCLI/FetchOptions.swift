import ArgumentParser
import Foundation
import HolocronKit
import SWAPI
import SWAPILive

/// Where the data comes from and, for a live API, how it is fetched: shared by `build` and
/// `snapshot`.
struct FetchOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A SWAPI snapshot folder (people.json, films.json, …) to build from.", valueName: "dir"))
    var data: String?

    @Option(
        help: ArgumentHelp(
            "The root of a server that speaks SWAPI's REST format, such as https://swapi.dev/api/.", valueName: "url"))
    var api: String?

    @Option(
        help: ArgumentHelp(
            "Where API responses are kept for later builds (default: .holocron-cache beside the output).",
            valueName: "dir"))
    var cache: String?

    @Flag(help: "Fetch every API response again instead of using the cache.")
    var refresh = false

    @Flag(help: "Use only cached API responses; fail on anything not cached.")
    var offline = false

    @Option(help: ArgumentHelp("API requests in flight at once.", valueName: "n"))
    var concurrency = 4

    @Option(help: ArgumentHelp("Seconds one API request may take.", valueName: "seconds"))
    var timeout = 10.0

    @Option(
        help: ArgumentHelp(
            "How many times a failed API request is tried again (timeouts, lost connections, 5xx and 429 only).",
            valueName: "n"))
    var retries = 3

    @Option(
        help: ArgumentHelp(
            "The most API requests one fetch may send, retries included; SWAPI takes about 30.", valueName: "n"))
    var maxRequests = 10_000

    func validate() throws {
        if data != nil && api != nil {
            throw ValidationError("Give --data or --api, not both.")
        }
        if let data {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: data, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError(
                    """
                    --data '\(data)' is not a folder; give a folder holding people.json, films.json, planets.json, \
                    species.json, starships.json and vehicles.json.
                    """
                )
            }
        }
        if let api {
            guard let url = URL(string: api), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw ValidationError("--api '\(api)' is not an http(s) URL; write it like https://swapi.dev/api/.")
            }
        } else if refresh || offline || cache != nil {
            throw ValidationError("--cache, --refresh and --offline go with --api.")
        }
        if refresh && offline { throw ValidationError("--refresh and --offline contradict each other; give one.") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency takes 1 to 64.") }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout takes seconds above 0, up to 600.") }
        guard (0...20).contains(retries) else { throw ValidationError("--retries takes 0 to 20.") }
        guard (1...1_000_000).contains(maxRequests) else { throw ValidationError("--max-requests takes 1 to 1000000.") }
    }

    /// The data source these options describe. The API cache goes where `--cache` says, else
    /// beside `site` (the folder a build writes or checks), else in the current folder.
    func source(cacheBeside site: URL? = nil) -> DataSource {
        if let data { return .directory(URL(fileURLWithPath: data)) }
        guard let api else { return .embedded }
        let cacheFolder =
            cache.map { URL(fileURLWithPath: $0) }
            ?? (site?.standardizedFileURL.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .appendingPathComponent(".holocron-cache")
        return .api(
            LiveSource(
                api: api,
                cache: cacheFolder,
                mode: offline ? .offline : (refresh ? .refresh : .normal),
                policy: FetchPolicy(
                    concurrency: concurrency, timeout: .milliseconds(Int(timeout * 1000)), retries: retries,
                    maxRequests: maxRequests
                )
            ))
    }
}
