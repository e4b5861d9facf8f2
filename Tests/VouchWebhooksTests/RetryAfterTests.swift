import Foundation
import Testing
@testable import VouchWebhooks

struct RetryAfterTests {
    @Test func secondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(WebhookSender.retryAfterSeconds("120", now: now) == 120)
        #expect(WebhookSender.retryAfterSeconds(" 0 ", now: now) == 0)
        let later = now.addingTimeInterval(90)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(WebhookSender.retryAfterSeconds(formatter.string(from: later), now: now) == 90)
        #expect(WebhookSender.retryAfterSeconds("soon", now: now) == nil)
    }
}
