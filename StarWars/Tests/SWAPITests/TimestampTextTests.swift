import Foundation
import PropertyBased
import StarWarsTestSupport
import Testing

@testable import SWAPI

/// A resource's `created` and `edited` are kept as 4-bit codes when they are written like a
/// time, as a String otherwise; either way the text read back is the text given.
@Suite struct TimestampTextTests {
    @Test func everyTextComesBackAsGiven() {
        let packed = [
            "2014-12-09T13:50:51.644000Z", "2014-12-20T21:17:56.891000Z", "", "0", "Z", "2014",
            // 32 characters, the most two words hold.
            "2014-12-09T13:50:51.64400000000Z"
        ]
        let whole = [
            "unknown", "2014-12-09 13:50:51", "2014-12-09T13:50:51+02:00", "2014-12-09t13:50:51z",
            // 33 characters: one too many.
            "2014-12-09T13:50:51.644000000000Z", "２０１４", "2014-12-09T13:50:51.644000Z\u{0}", "é"
        ]
        for text in packed {
            let kept = TimestampText(text)
            #expect(kept.isPacked, "\(text)")
            #expect(kept.text == text)
        }
        for text in whole {
            let kept = TimestampText(text)
            #expect(!kept.isPacked, "\(text)")
            #expect(kept.text == text)
        }
    }

    /// Random texts over a time's characters and others, of every length around the limit: each
    /// comes back as given from a String or from bytes, the two are the same value, and equal
    /// values are equal texts.
    @Test func randomTextsComeBackAsGiven() async {
        let characters = Array("0123456789-:.TZ") + ["t", " ", "+", "é", "\u{0}"]
        await propertyCheck(count: 2000, input: Gen.uint64()) { seed in
            var random = SplitMix(seed: seed)
            let plain = random.next() % 2 == 0
            let count = Int(random.next() % 40)
            let text = String(
                (0..<count).map { _ in characters[Int(random.next() % UInt64(plain ? 15 : characters.count))] })
            let kept = TimestampText(text)
            #expect(kept.text == text)
            let fromBytes = Array(text.utf8).withUnsafeBufferPointer { TimestampText(utf8: $0) }
            #expect(fromBytes == kept)
            // Packed exactly when every character is a time's (a mixed text may draw only those).
            #expect(kept.isPacked == (text.allSatisfy { characters[..<15].contains($0) } && count <= 32))
            let other = TimestampText(text + "0")
            #expect(other != kept)
        }
    }

    /// A person's times come from either decoder as written, and encode back the same.
    @Test func aResourcesTimesSurviveDecodingAndEncoding() throws {
        let json = Data(
            """
            [{"name": "Luke", "created": "2014-12-09T13:50:51.644000Z", "edited": "sometime",
              "url": "https://swapi.dev/api/people/1/"}]
            """.utf8)
        let fast = try #require(SwapiJSONReader.resources(Person.self, in: json)?.first)
        let slow = try JSONDecoder().decode([Person].self, from: json)[0]
        #expect(fast == slow)
        #expect(fast.created == "2014-12-09T13:50:51.644000Z")
        #expect(fast.edited == "sometime")
        var changed = fast
        changed.created = "2015-01-01T00:00:00.000000Z"
        #expect(changed != fast)
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(changed)) as? [String: Any]
        #expect(encoded?["created"] as? String == "2015-01-01T00:00:00.000000Z")
        #expect(encoded?["edited"] as? String == "sometime")
    }
}
