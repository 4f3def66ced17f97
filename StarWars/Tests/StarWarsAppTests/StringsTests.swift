import FlowSite
import FlowSiteTesting
import Foundation
import SWAPI
import StarWarsTestSupport
import Testing

@testable import StarWarsApp

/// The string tables: every key the app uses is in every language, placeholders get filled,
/// and a second language changes what the screens say without any view model knowing.
@Suite struct StringsTests {
    /// A language made up from English with every text marked, so any text that reaches a page
    /// without going through the table stands out.
    static let marker = "§"
    static func madeUpLanguage() throws -> Strings {
        let english = try StringTables.compiledIn.table("en")
        return Strings(
            StringTable(
                language: "xx", file: "xx.json", texts: english.texts.mapValues { marker + $0 },
                settings: english.settings))
    }

    // MARK: Complete tables

    @Test func englishHasEveryKeyTheAppUsesAndNoOther() throws {
        let english = Set(try StringTables.compiledIn.table("en").texts.keys)
        // The app's own keys, and the layout's: every FlowSite label, as `layout.<label>`.
        let used = Set(
            Strings.Key.allCases.flatMap { key in
                key.isPlural ? ["\(key.rawValue).one", "\(key.rawValue).other"] : [key.rawValue]
            }
        ).union(SiteInfo<AppRoute>.defaultLabels.keys.map { "layout." + $0 })
        #expect(used.subtracting(english).sorted() == [], "en.json lacks these keys: add their English text")
        #expect(
            english.subtracting(used).sorted() == [],
            "en.json has keys that no Strings.Key case names: remove them or add the case")
    }

    @Test(arguments: StringTables.compiledIn.languages)
    func everyTableHasEveryKeyPlaceholderAndPluralFormOfEnglish(language: String) throws {
        let problems = try StringTables.compiledIn.problems(of: language)
        #expect(problems.isEmpty, "\(FlowSiteError(.translations(problems)))")
    }

    @Test func theTableCheckFindsEachKindOfProblemOnceWithItsLine() throws {
        let english = try StringTables.compiledIn.table("en")
        var texts = english.texts
        texts["home.title"] = nil
        texts["home.subtitle"] = "Extra"
        texts["list.title.paged"] = "{Kinds}: page {page} of {total}"
        texts["detail.missing"] = "No {kind} number {id}" // another form of the kind's name is fine
        texts["list.count.one"] = "One {kind} in the archive." // "one" may say it in words
        texts["list.noSuchPage.one"] = nil
        texts["list.count.few"] = "{count} {kinds}" // English has no "few"
        let json =
            "{\n" + texts.sorted { $0.key < $1.key }.map { "  \"\($0.key)\": \"\($0.value)\"" }.joined(separator: ",\n")
            + "\n}\n"
        let table = try StringTable(language: "en-ZZ", file: "zz.json", json: Array(json.utf8))
        let check = TranslationCheck(reference: english, interchangeable: [["Kind", "Kinds", "kind", "kinds"]])
        let problems = check.problems(of: table, rules: try PluralRules(language: "en"))
        #expect(
            problems.map { "\($0.kind.rawValue): \($0.key)" } == [
                "missing: home.title",
                "placeholder mismatch: list.title.paged",
                "missing plural category: list.noSuchPage.one",
                "unused key: home.subtitle",
                "unused key: list.count.few"
            ])
        let mismatch = try #require(problems.first { $0.key == "list.title.paged" })
        #expect(mismatch.detail == "has {total}, which en does not fill and lacks {count}")
        let line = try #require(
            json.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.contains("\"list.title.paged\"")
            })
        #expect(mismatch.location == "zz.json:\(line + 1)")
        #expect(
            problems.first { $0.kind == .missing }?.location.hasPrefix("Sources/StarWarsApp/Resources/Strings/en.json:")
                == true)
        // One grouped list, a heading per kind.
        let report = FlowSiteError(.translations(problems + problems)).description
        #expect(report.hasPrefix("5 translation problems in en-ZZ:"))
        #expect(report.contains("  missing plural category (1):\n    en-ZZ list.noSuchPage.one"))
    }

    @Test func everyRegisteredLanguageLoadsAndAnUnknownOneSaysWhatExists() throws {
        for language in StringTables.compiledIn.languages {
            #expect(try Strings(language: language).language == language)
        }
        #expect(StringTables.compiledIn.languages.first == "en")
        let error = try #require(throws: UnsupportedLanguage.self) { try Strings(language: "tlh") }
        #expect(error.available == StringTables.compiledIn.languages)
        #expect(error.description.contains("tlh.json"))
    }

    @Test func aKeyATableLacksFallsBackToEnglish() {
        let strings = Strings(language: "xx", table: ["home.title": "Holocron xx"])
        #expect(strings.localizedString(.homeTitle) == "Holocron xx")
        #expect(strings.localizedString(.homeHeadingExplore) == "Explore the archive")
        #expect(strings.localizedString(.listShortTitlePaged, ["page": "2"]) == "Page 2")
    }

    // MARK: Placeholders

    @Test func placeholdersAreFilled() {
        let english = Strings.english
        #expect(english.localizedString(.listShortTitlePaged, ["page": "2"]) == "Page 2")
        #expect(
            english.localizedString(.detailMissing, about: .starships, ["id": "99"])
                == "Starship #99 is not in the archive.")
        #expect(english.localizedString(.listEmpty, about: .people) == "The archive holds no characters.")
        #expect(
            english.localizedString(.listTitlePaged, about: .species, ["page": "1", "count": "4"])
                == "Species — page 1 of 4")
        #expect(
            english.localizedString(.searchMatches, ["count": "1", "total": "3", "query": "sky"])
                == "1 of 3 entries match “sky”.")
        #expect(Format(english).quantity("1050", unit: .kilometresPerHour) == "1,050 km/h")
        #expect(Format(english).date("1983-05-25") == "25 May 1983")
    }

    @Test func valuesGoInAsTheyAreAndMissingOnesShow() {
        #expect(Strings.fill("{a} and {b}", with: ["a": "{b}", "b": "Leia"]) == "{b} and Leia")
        #expect(Strings.fill("Page {page} of {count}", with: ["page": "2"]) == "Page 2 of {count}")
        #expect(Strings.fill("a { b } {", with: ["b": "x"]) == "a { b } {")
        #expect(Strings.fill("{name}{name}", with: ["name": "R2"]) == "R2R2")
        #expect(Strings.fill("Padmé {x}", with: ["x": "Amidala"]) == "Padmé Amidala")
        #expect(Strings.fill("{a{b}} {", with: ["b": "2"]) == "{a2} {")
        #expect(Strings.fill("{}{x}{", with: ["": "empty", "x": "é"]) == "emptyé{")
    }

    /// A key's text is found by its position among the cases.
    @Test func everyKeyKnowsItsPositionAndText() {
        #expect(Strings.Key.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        let table = Dictionary(
            uniqueKeysWithValues: Strings.Key.allCases.map { key in
                (key.isPlural ? key.rawValue + ".other" : key.rawValue, "text of " + key.rawValue)
            })
        let strings = Strings(language: "xx", table: table)
        #expect(Strings.Key.allCases.allSatisfy { strings.localizedString($0) == "text of " + $0.rawValue })
    }

    // MARK: Spanish

    @Test func spanishWritesNumbersDatesAndYearsItsOwnWay() throws {
        let format = Format(try Strings(language: "es"))
        #expect(format.quantity("200000") == "200.000")
        #expect(format.quantity("2000") == "2000") // Spanish groups from five digits
        #expect(format.quantity("10465", unit: .kilometres) == "10.465 km")
        #expect(format.quantity("1,358", unit: .kilograms) == "1358 kg") // SWAPI's commas are read, not kept
        #expect(format.quantity("78.2", unit: .kilograms) == "78,2 kg")
        #expect(format.quantity("1", unit: .percent) == "1 %")
        #expect(format.date("1977-05-25") == "25 de mayo de 1977")
        #expect(format.birthYear("41.9BBY") == "41,9 ABY")
        #expect(format.quantity("1,35,8") == "1,35,8") // not thousands groups: as written
        let english = Format(.english)
        #expect(english.quantity("78.2", unit: .kilograms) == "78.2 kg")
        #expect(english.quantity("1000000000000") == "1,000,000,000,000")
        #expect(english.birthYear("41.9BBY") == "41.9 BBY")
    }

    /// Numbers are written with the symbols read from Foundation, not by Foundation each time:
    /// held to Foundation's own output over random numbers in each locale.
    @Test(arguments: ["en-GB", "es-ES", "ar", "de-CH", "fr-FR"])
    func numbersMatchFoundationsFormatter(locale: String) throws {
        let values = FormattedValues(locale: Locale(identifier: locale))
        var random = SplitMix(seed: 22)
        for _ in 0..<2_000 {
            let digits = Int.random(in: 1...13, using: &random)
            var whole = String(Int.random(in: 1...9, using: &random))
            for _ in 1..<digits { whole += String(Int.random(in: 0...9, using: &random)) }
            if Int.random(in: 0...5, using: &random) == 0 { whole = "0" }
            let fractionDigits = Int.random(in: 0...(15 - digits > 3 ? 3 : 0), using: &random)
            var raw = whole
            if fractionDigits > 0 {
                raw += "."
                for _ in 0..<fractionDigits { raw += String(Int.random(in: 0...9, using: &random)) }
            }
            if Int.random(in: 0...3, using: &random) == 0 { raw = "-" + raw }
            #expect(values.number(raw) == values.foundationNumber(raw), "\(locale): \(raw)")
        }
    }

    @Test func aLocaleThatGroupsOtherwiseIsLeftToFoundation() {
        // Indian English groups by two after the first three: 12,34,567.
        let indian = FormattedValues(locale: Locale(identifier: "en-IN"))
        #expect(indian.number("1234567") == "12,34,567")
        #expect(
            NumberSymbols(integers: .number.locale(Locale(identifier: "en-IN")), locale: Locale(identifier: "en-IN"))
                == nil)
        #expect(
            NumberSymbols(integers: .number.locale(Locale(identifier: "es")), locale: Locale(identifier: "es"))?
                .groupingFrom == 5)
    }

    @Test func countedTextsTakeTheFormTheCountNeeds() throws {
        let spanish = try Strings(language: "es")
        #expect(spanish.pluralRules.categories == [.one, .many, .other])
        #expect(spanish.localizedString(.listCount, count: 1, about: .films) == "1 película en el archivo.")
        #expect(spanish.localizedString(.listCount, count: 2, about: .films) == "2 películas en el archivo.")
        #expect(
            spanish.localizedString(.listCount, count: 1_000_000, about: .people)
                == "1.000.000 personajes en el archivo.")
        #expect(
            spanish.localizedString(.listNoSuchPage, count: 1, about: .species, ["page": "3"])
                == "No existe la página 3 de especies: la lista tiene 1 página.")
        let english = Strings.english
        #expect(english.localizedString(.listCount, count: 1, about: .starships) == "1 starship in the archive.")
        #expect(
            english.localizedString(.listCount, count: 1_200, about: .starships) == "1,200 starships in the archive.")
    }

    @Test func aSpanishWalkSaysNoEnglishWordOfTheApps() async throws {
        let site = try await SiteSnapshot(
            walking: AppCoordinator(dependencies: .mock(Fixtures.archive, strings: try Strings(language: "es"))))
        #expect(site.text.firstMatch(of: #/\{[A-Za-z]+\}/#) == nil, "a placeholder was left unfilled")
        for text in [
            "# Acerca de este sitio", "3 personajes en el archivo.",
            "Episodio IV · 25 de mayo de 1977 · dirigida por George Lucas",
            "breadcrumbs: Inicio › Personajes › Luke Skywalker"
        ] {
            #expect(site.text.contains(text), "no page says \(text)")
        }
        // Every English text of the app, longer than a word, is gone (the data's stay).
        let english = try StringTables.compiledIn.table("en").texts.values.filter {
            $0.count > 12 && !$0.contains("{") && !$0.contains("Star Wars")
        }
        for text in english { #expect(!site.text.contains(text), "a Spanish page says \(text)") }
    }

    // MARK: Another language, no view model touched

    @Test func anotherTableChangesTheHomeScreen() async throws {
        let deps = AppDependencies.mock(Fixtures.archive, strings: try Self.madeUpLanguage())
        let screen = HomeScreen(viewModel: HomeViewModel(dependencies: deps))
        let page = screen.page(for: await screen.viewModel.load())
        let markdown = page.document.markdown(linking: { $0.path.file })
        #expect(page.title == "§Star Wars Holocron")
        #expect(page.shortTitle == "§Home")
        for text in [
            "§A field guide", "§Explore the archive", "[§Characters]", "§Featured characters", "§Search the archive",
            "§About this site"
        ] {
            #expect(markdown.contains(text), "the Home page lacks \(text)")
        }
        // A character's summary: the table's words around the data.
        #expect(markdown.contains("§Species not recorded · Tatooine · §born §19 BBY"))
    }

    @Test func anotherTableChangesACharactersPage() async throws {
        let deps = AppDependencies.mock(Fixtures.archive, strings: try Self.madeUpLanguage())
        let screen = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<CharactersModule>(dependencies: deps, id: 16))
        let page = screen.page(for: await screen.viewModel.load())
        let markdown = page.document.markdown(linking: { $0.path.file })
        #expect(page.title == "Jabba Desilijic Tiure")
        // The sentence and the kind's name, both from the table.
        #expect(page.summary == "§§Character: Jabba Desilijic Tiure.")
        for text in [
            "§Height", "§172 cm", "§1,358 kg", "§600 BBY", "## §Homeworld", "## §Starships",
            "§Starship \\#99 (not in the archive)", "§None"
        ] {
            #expect(markdown.contains(text), "the character page lacks \(text)")
        }
    }

    @Test func theSiteTakesItsLanguageNameAndNavigationFromTheTable() throws {
        let site = AppCoordinator(dependencies: .mock(Fixtures.archive, strings: try Self.madeUpLanguage())).siteInfo
        #expect(site.language == "xx")
        #expect(site.name == "§Star Wars Holocron")
        #expect(site.footer.hasPrefix("§An unofficial fan archive"))
        #expect(
            site.navigation.map(\.label) == [
                "§Characters", "§Films", "§Planets", "§Species", "§Starships", "§Vehicles", "§Search"
            ])
    }

    @Test func everyPageOfTheWalkSpeaksTheTablesLanguageWithNoPlaceholderLeft() async throws {
        let site = try await SiteSnapshot(
            walking: AppCoordinator(dependencies: .mock(Fixtures.archive, strings: try Self.madeUpLanguage())))
        #expect(site.text.firstMatch(of: #/\{[A-Za-z]+\}/#) == nil, "a placeholder was left unfilled")
        for text in [
            "# §About this site", "# §§Starship #99 is not in the archive", "# §Search", "§All 8 entries, A–Z.",
            "§3 §characters in the archive.", "§Gastropod · sentient · speaks Huttese",
            "§§Episode IV · 25 May 1977 · directed by George Lucas"
        ] {
            #expect(site.text.contains(text), "no page says \(text)")
        }
        // Every page's title in the trail of crumbs comes from the table or the data.
        #expect(site.text.contains("breadcrumbs: §Home › §Characters › Luke Skywalker"))
    }
}
