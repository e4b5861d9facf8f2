import Foundation
import Testing
import VouchConsoleKit
@testable import VouchCLI

/// Plain output says a time as the web console does, from the API's RFC 3339 text.
@Suite struct SpokenTimeTests {
    @Test(arguments: [
        ("2026-12-04T05:17:02.819Z", "4 December 2026 at 5:17 UTC"),
        ("2026-11-30T15:38:07Z", "30 November 2026 at 15:38 UTC"),
        ("2027-01-01T00:00:59.999Z", "1 January 2027 at 0:00 UTC"),
        // Not a time (a newer server's value, say): said as it came.
        ("soon", "soon"),
    ])
    func words(_ timestamp: String, _ expected: String) {
        #expect(SpokenTime.say(timestamp) == expected)
    }

    @Test func timesInAServersProse() {
        #expect(SpokenTime.inProse("link l_1 was already revoked at 2026-12-04T05:17:02.819Z; ask again")
                == "link l_1 was already revoked at 4 December 2026 at 5:17 UTC; ask again")
        #expect(SpokenTime.inProse("no time here") == "no time here")
    }

    @Test(arguments: [0, 1_796_361_422.819, 1_800_000_000, 1_830_297_600])
    func sameWordsAsTheConsole(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(SpokenTime.say(date) == Words.time(date))
    }
}
