import CrewApp
import FlowSiteCommandLine
import Foundation

exit(await SiteBuilder.runCommandLine(coordinator: CrewCoordinator()))
