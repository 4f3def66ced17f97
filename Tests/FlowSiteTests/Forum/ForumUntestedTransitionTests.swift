// Tests of the transitions no test takes, as flow lint writes them: each follows one link from the page the
// walk first took it on and expects what the app showed. Give a suite .flowCoverage() to count them.
import FlowSiteTesting
import Testing

@Suite struct ForumUntestedTransitionTests {
    // Tab bar → Feed (root, 1 link)
    @Test func fromTabBarToFeed() {
        let app = ForumApp()
        let target: ForumRoute = .feed
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed])
        navigator.selectTab(NavigationAction("Feed", to: target), on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Tab bar → Sign in (root, 1 link)
    @Test func fromTabBarToSignIn() {
        let app = ForumApp()
        let target: ForumRoute = .signIn
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed])
        navigator.selectTab(NavigationAction("Sign in", to: target), on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Question → Sign in (modal, 2 links), shown at Tests/FlowSiteTests/Forum/ForumApp.swift:168
    @Test func fromQuestionToSignIn() {
        let app = ForumApp()
        let source: ForumRoute = .question(1)
        let target: ForumRoute = .signIn
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed, source])
        navigator.follow(NavigationAction("Sign in to answer", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .modal)])
    }

    // Question → User (push, 2 links), shown at Tests/FlowSiteTests/Forum/ForumApp.swift:170
    @Test func fromQuestionToUser() {
        let app = ForumApp()
        let source: ForumRoute = .question(1)
        let target: ForumRoute = .user("ada")
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed, source])
        navigator.follow(NavigationAction("ada", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Question → Tag (push, 3 links), shown at Tests/FlowSiteTests/Forum/ForumApp.swift:170
    @Test func fromQuestionToTag() {
        let app = ForumApp()
        let source: ForumRoute = .question(1)
        let target: ForumRoute = .tag("swift")
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed, source])
        navigator.follow(NavigationAction("#swift", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Sign in → Feed (root, 2 links), shown at Tests/FlowSiteTests/Forum/ForumApp.swift:169
    @Test func fromSignInToFeed() {
        let app = ForumApp()
        let source: ForumRoute = .signIn
        let target: ForumRoute = .feed
        let navigator = RecordingNavigator<ForumRoute>(stack: [source])
        navigator.follow(NavigationAction("Back to the questions", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // User → Question (push, 2 links), shown at Tests/FlowSiteTests/Forum/ForumApp.swift:170
    @Test func fromUserToQuestion() {
        let app = ForumApp()
        let source: ForumRoute = .user("ada")
        let target: ForumRoute = .question(1)
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed, .question(1), source])
        navigator.follow(NavigationAction("Why does my loop never end?", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // User → Followers (push, 2 links), shown at Tests/FlowSiteTests/Forum/ForumApp.swift:170
    @Test func fromUserToFollowers() {
        let app = ForumApp()
        let source: ForumRoute = .user("ada")
        let target: ForumRoute = .followers("ada")
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed, .question(1), source])
        navigator.follow(NavigationAction("Followers", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Tag → Question (push, 3 links), shown at Tests/FlowSiteTests/Forum/ForumApp.swift:170
    @Test func fromTagToQuestion() {
        let app = ForumApp()
        let source: ForumRoute = .tag("swift")
        let target: ForumRoute = .question(1)
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed, .question(1), source])
        navigator.follow(NavigationAction("Why does my loop never end?", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Followers → User (push, 1 link), shown at Tests/FlowSiteTests/Forum/ForumApp.swift:170
    @Test func fromFollowersToUser() {
        let app = ForumApp()
        let source: ForumRoute = .followers("ada")
        let target: ForumRoute = .user("grace")
        let navigator = RecordingNavigator<ForumRoute>(stack: [.feed, .question(1), .user("ada"), source])
        navigator.follow(NavigationAction("grace", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }
}
