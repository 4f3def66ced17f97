import CrewApp
@_spi(Engine) import FlowSite
import Foundation

exit(await SiteBuilder.runCommandLine(coordinator: CrewCoordinator()))
