import SWAPI

extension Strings {
    /// Every text the app shows, by its key in the string tables (`Resources/Strings/en.json`
    /// has the English for each). A key used in code is a case here, so a typo doesn't compile,
    /// and the tests check every table against this list.
    enum Key: String, CaseIterable, Sendable {
        case siteName = "site.name"
        case siteFooter = "site.footer"

        case navigationSearch = "navigation.search"

        case kindPeopleSingular = "kind.people.singular"
        case kindPeoplePlural = "kind.people.plural"
        case kindPeopleSingularInText = "kind.people.singularInText"
        case kindPeoplePluralInText = "kind.people.pluralInText"
        case kindFilmsSingular = "kind.films.singular"
        case kindFilmsPlural = "kind.films.plural"
        case kindFilmsSingularInText = "kind.films.singularInText"
        case kindFilmsPluralInText = "kind.films.pluralInText"
        case kindPlanetsSingular = "kind.planets.singular"
        case kindPlanetsPlural = "kind.planets.plural"
        case kindPlanetsSingularInText = "kind.planets.singularInText"
        case kindPlanetsPluralInText = "kind.planets.pluralInText"
        case kindSpeciesSingular = "kind.species.singular"
        case kindSpeciesPlural = "kind.species.plural"
        case kindSpeciesSingularInText = "kind.species.singularInText"
        case kindSpeciesPluralInText = "kind.species.pluralInText"
        case kindStarshipsSingular = "kind.starships.singular"
        case kindStarshipsPlural = "kind.starships.plural"
        case kindStarshipsSingularInText = "kind.starships.singularInText"
        case kindStarshipsPluralInText = "kind.starships.pluralInText"
        case kindVehiclesSingular = "kind.vehicles.singular"
        case kindVehiclesPlural = "kind.vehicles.plural"
        case kindVehiclesSingularInText = "kind.vehicles.singularInText"
        case kindVehiclesPluralInText = "kind.vehicles.pluralInText"

        case stateLoading = "state.loading"

        case archiveError = "archive.error"

        case homeTitle = "home.title"
        case homeShortTitle = "home.shortTitle"
        case homeSummary = "home.summary"
        case homeIntroduction = "home.introduction"
        case homeHeadingExplore = "home.heading.explore"
        case homeHeadingFeatured = "home.heading.featured"
        case homeLinkSearch = "home.link.search"
        case homeLinkAbout = "home.link.about"
        case homeEmpty = "home.empty"

        case listSummary = "list.summary"
        case listSummaryPaged = "list.summary.paged"
        case listTitlePaged = "list.title.paged"
        case listShortTitlePaged = "list.shortTitle.paged"
        /// Plural: the table has one text per category of the language (`list.count.one`, …).
        case listCount = "list.count"
        case listEmpty = "list.empty"
        /// Plural, like ``listCount``.
        case listNoSuchPage = "list.noSuchPage"
        case listError = "list.error"
        case listLinkFirstPage = "list.link.firstPage"
        case listLinkHome = "list.link.home"

        case listPageNumber = "list.pageNumber"

        case detailSummary = "detail.summary"
        case detailMissing = "detail.missing"
        case detailError = "detail.error"
        case detailUnavailable = "detail.unavailable"
        case detailLinkList = "detail.link.list"
        case detailRelationNone = "detail.relation.none"
        case detailRelationSpeciesNone = "detail.relation.species.none"

        case linkMissing = "link.missing"

        case alertMissingTitle = "alert.missing.title"
        case alertMissingShortTitle = "alert.missing.shortTitle"
        case alertMissingSummary = "alert.missing.summary"
        case alertMissingMessage = "alert.missing.message"

        case aboutTitle = "about.title"
        case aboutShortTitle = "about.shortTitle"
        case aboutSummary = "about.summary"
        case aboutParagraph1 = "about.paragraph.1"
        case aboutParagraph2 = "about.paragraph.2"
        case aboutParagraph3 = "about.paragraph.3"
        case aboutParagraph4 = "about.paragraph.4"
        case aboutFlowMap = "about.flowMap"

        case searchTitle = "search.title"
        case searchSummary = "search.summary"
        case searchAll = "search.all"
        case searchTooMany = "search.tooMany"
        case searchMatches = "search.matches"
        case searchNoMatch = "search.noMatch"

        case charactersSummarySpeciesNotRecorded = "characters.summary.speciesNotRecorded"
        case charactersSummaryUnknownSpecies = "characters.summary.unknownSpecies"
        case charactersSummaryUnknownWorld = "characters.summary.unknownWorld"
        case charactersSummaryBirthYearUnknown = "characters.summary.birthYearUnknown"
        case charactersSummaryBorn = "characters.summary.born"

        case filmsSummary = "films.summary"

        case filmsLink = "films.link"
        case planetsSummary = "planets.summary"
        case planetsUnknownName = "planets.unknownName"

        case speciesSummary = "species.summary"

        case attributeHeight = "attribute.height"
        case attributeMass = "attribute.mass"
        case attributeHairColour = "attribute.hairColour"
        case attributeSkinColour = "attribute.skinColour"
        case attributeEyeColour = "attribute.eyeColour"
        case attributeBirthYear = "attribute.birthYear"
        case attributeGender = "attribute.gender"
        case attributeEpisode = "attribute.episode"
        case attributeDirector = "attribute.director"
        case attributeProducer = "attribute.producer"
        case attributeReleaseDate = "attribute.releaseDate"
        case attributeRotationPeriod = "attribute.rotationPeriod"
        case attributeOrbitalPeriod = "attribute.orbitalPeriod"
        case attributeDiameter = "attribute.diameter"
        case attributeClimate = "attribute.climate"
        case attributeGravity = "attribute.gravity"
        case attributeTerrain = "attribute.terrain"
        case attributeSurfaceWater = "attribute.surfaceWater"
        case attributePopulation = "attribute.population"
        case attributeClassification = "attribute.classification"
        case attributeDesignation = "attribute.designation"
        case attributeAverageHeight = "attribute.averageHeight"
        case attributeSkinColours = "attribute.skinColours"
        case attributeHairColours = "attribute.hairColours"
        case attributeEyeColours = "attribute.eyeColours"
        case attributeAverageLifespan = "attribute.averageLifespan"
        case attributeLanguage = "attribute.language"
        case attributeModel = "attribute.model"
        case attributeClass = "attribute.class"
        case attributeManufacturer = "attribute.manufacturer"
        case attributeCost = "attribute.cost"
        case attributeLength = "attribute.length"
        case attributeMaximumAtmosphericSpeed = "attribute.maximumAtmosphericSpeed"
        case attributeCrew = "attribute.crew"
        case attributePassengers = "attribute.passengers"
        case attributeCargoCapacity = "attribute.cargoCapacity"
        case attributeConsumables = "attribute.consumables"
        case attributeHyperdriveRating = "attribute.hyperdriveRating"
        case attributeMegalightsPerHour = "attribute.megalightsPerHour"

        case relationHomeworld = "relation.homeworld"
        case relationSpecies = "relation.species"
        case relationFilms = "relation.films"
        case relationStarships = "relation.starships"
        case relationVehicles = "relation.vehicles"
        case relationCharacters = "relation.characters"
        case relationPlanets = "relation.planets"
        case relationResidents = "relation.residents"
        case relationPeople = "relation.people"
        case relationPilots = "relation.pilots"

        case formatUnknown = "format.unknown"
        case formatNotApplicable = "format.notApplicable"
        case formatNone = "format.none"
        case formatIndefinite = "format.indefinite"
        case formatEpisode = "format.episode"
        case formatEpisodeUnknown = "format.episodeUnknown"
        case formatBeforeYavin = "format.beforeYavin"
        case formatAfterYavin = "format.afterYavin"

        case unitCentimetres = "unit.centimetres"
        case unitMetres = "unit.metres"
        case unitKilometres = "unit.kilometres"
        case unitKilograms = "unit.kilograms"
        case unitHours = "unit.hours"
        case unitDays = "unit.days"
        case unitYears = "unit.years"
        case unitPercent = "unit.percent"
        case unitCredits = "unit.credits"
        case unitKilometresPerHour = "unit.kilometresPerHour"
        case unitMegalights = "unit.megalights"
    }
}

extension Strings.Key {
    /// The key's position in `allCases`: a table's texts are stored in that order, so a text is
    /// one array read once the position is known.
    var ordinal: Int { Self.ordinals[self]! }

    /// Every key's position in `allCases`, worked out once.
    private static let ordinals: [Self: Int] = Dictionary(
        uniqueKeysWithValues: allCases.enumerated().map { ($0.element, $0.offset) })

    /// The keys whose text depends on a count: a table holds one text per CLDR plural category
    /// its language uses, under the key and the category (`list.count.one`, `list.count.other`).
    static let plural: Set<Self> = [.listCount, .listNoSuchPage]

    var isPlural: Bool { Self.plural.contains(self) }

    /// The key of a kind's name: one or many, as a title or within a sentence.
    static func kindName(_ kind: ResourceKind, plural: Bool, inText: Bool) -> Self {
        switch (kind, plural, inText) {
        case (.people, false, false): .kindPeopleSingular
        case (.people, true, false): .kindPeoplePlural
        case (.people, false, true): .kindPeopleSingularInText
        case (.people, true, true): .kindPeoplePluralInText
        case (.films, false, false): .kindFilmsSingular
        case (.films, true, false): .kindFilmsPlural
        case (.films, false, true): .kindFilmsSingularInText
        case (.films, true, true): .kindFilmsPluralInText
        case (.planets, false, false): .kindPlanetsSingular
        case (.planets, true, false): .kindPlanetsPlural
        case (.planets, false, true): .kindPlanetsSingularInText
        case (.planets, true, true): .kindPlanetsPluralInText
        case (.species, false, false): .kindSpeciesSingular
        case (.species, true, false): .kindSpeciesPlural
        case (.species, false, true): .kindSpeciesSingularInText
        case (.species, true, true): .kindSpeciesPluralInText
        case (.starships, false, false): .kindStarshipsSingular
        case (.starships, true, false): .kindStarshipsPlural
        case (.starships, false, true): .kindStarshipsSingularInText
        case (.starships, true, true): .kindStarshipsPluralInText
        case (.vehicles, false, false): .kindVehiclesSingular
        case (.vehicles, true, false): .kindVehiclesPlural
        case (.vehicles, false, true): .kindVehiclesSingularInText
        case (.vehicles, true, true): .kindVehiclesPluralInText
        }
    }
}
