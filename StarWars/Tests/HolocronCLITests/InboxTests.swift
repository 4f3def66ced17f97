import Testing

/// The waiting the edit-loop tests stand on: an item put is taken, nothing put is a timeout, a close ends the wait.
@Suite struct InboxTests {
    @Test func aWaitTakesWhatWasPutAndTimesOutOnNothing() async throws {
        let inbox = Inbox<Int>()
        inbox.put(1)
        #expect(try await inbox.next(within: .milliseconds(50), "the first") == 1)
        await #expect(throws: Inbox<Int>.TimedOut.self) {
            try await inbox.next(within: .milliseconds(50), "nothing")
        }
        inbox.put(2)
        inbox.close()
        #expect(try await inbox.next(within: .milliseconds(50), "the second") == 2)
        await #expect(throws: Inbox<Int>.Closed.self) {
            try await inbox.next(within: .seconds(60), "anything after the close")
        }
    }
}
