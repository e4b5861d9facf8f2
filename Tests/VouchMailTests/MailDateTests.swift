import Foundation
import Testing
@testable import VouchMail

struct MailDateTests {
    @Test(arguments: [
        (0.0, "Thu, 01 Jan 1970 00:00:00 +0000"), (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"),
        (1_796_410_094.9, "Fri, 04 Dec 2026 18:48:14 +0000"), (-1, "Wed, 31 Dec 1969 23:59:59 +0000"),
    ])
    func datesAreRFC5322InUTC(seconds: Double, text: String) {
        #expect(MailDate.format(Date(timeIntervalSince1970: seconds)) == text)
    }
}
