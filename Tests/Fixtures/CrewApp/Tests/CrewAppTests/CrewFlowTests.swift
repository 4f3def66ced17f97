import CrewApp
import FlowSiteTesting
import Testing

/// The app's own tests, written as a team using FlowSite would: the walked site and its flow
/// are snapshots beside this file.
@Suite struct CrewFlowTests {
    let app = CrewCoordinator(service: CrewService { ["Ada", "Grace"] })

    @Test func theSiteIsTheCrewListTheirPagesAndAbout() async throws {
        let site = try await SiteSnapshot(walking: app)
        #expect(site.pageCount == 4)
        assertSnapshot(of: site, as: .site)
    }
}
