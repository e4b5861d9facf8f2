import Foundation
import Testing
import VouchDomain

/// The delivery rules of docs/contracts.md ("Webhooks") as a pure state machine, driven with a fixed clock and fixed randomness.
struct DeliveryScheduleTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let schedule = DeliverySchedule()

    @Test func successOn2xx() {
        for status in [200, 201, 204, 299] {
            #expect(schedule.decide(after: .answered(status: status, retryAfterSeconds: nil), attempt: 1, now: now, random: 0.5) == .succeeded)
        }
    }

    @Test func retriesFollowTheScheduleWithoutJitterAtTheMiddle() {
        for (index, delay) in DeliverySchedule.defaultDelays.enumerated() {
            let decision = schedule.decide(after: .answered(status: 500, retryAfterSeconds: nil), attempt: index + 1, now: now, random: 0.5)
            #expect(decision == .retry(at: now.addingTimeInterval(Double(delay))))
        }
    }

    @Test func jitterStaysWithinTenPercent() {
        let low = schedule.decide(after: .timedOut, attempt: 2, now: now, random: 0)
        let high = schedule.decide(after: .timedOut, attempt: 2, now: now, random: 0.999_999)
        #expect(low == .retry(at: now.addingTimeInterval(270)))
        guard case .retry(let time) = high else { Issue.record("expected a retry"); return }
        #expect(time.timeIntervalSince(now) > 329.9 && time.timeIntervalSince(now) <= 330)
    }

    @Test func redirectsAreFailuresAndNotFollowed() {
        let decision = schedule.decide(after: .answered(status: 302, retryAfterSeconds: nil), attempt: 1, now: now, random: 0.5)
        #expect(decision == .retry(at: now.addingTimeInterval(5)))
    }

    @Test func goneDisablesTheEndpoint() {
        guard case .disableEndpoint = schedule.decide(after: .answered(status: 410, retryAfterSeconds: nil), attempt: 1, now: now, random: 0.5) else {
            Issue.record("410 must disable the endpoint")
            return
        }
    }

    @Test func retryAfterIsHonouredOnlyFor429And503() {
        #expect(schedule.decide(after: .answered(status: 429, retryAfterSeconds: 42), attempt: 1, now: now, random: 0.5) == .retry(at: now.addingTimeInterval(42)))
        #expect(schedule.decide(after: .answered(status: 503, retryAfterSeconds: 7), attempt: 3, now: now, random: 0.5) == .retry(at: now.addingTimeInterval(7)))
        #expect(schedule.decide(after: .answered(status: 500, retryAfterSeconds: 42), attempt: 1, now: now, random: 0.5) == .retry(at: now.addingTimeInterval(5)))
        #expect(schedule.decide(after: .answered(status: 429, retryAfterSeconds: 999_999), attempt: 1, now: now, random: 0.5)
                == .retry(at: now.addingTimeInterval(86_400)))
    }

    @Test func deadAfterTheLastAttemptOrWhenRefused() {
        let last = schedule.maxAttempts
        #expect(last == 10)
        guard case .dead(let reason) = schedule.decide(after: .answered(status: 500, retryAfterSeconds: nil), attempt: last, now: now, random: 0.5) else {
            Issue.record("expected dead")
            return
        }
        #expect(reason.contains("10 attempts"))
        guard case .dead = schedule.decide(after: .refused("private address"), attempt: 1, now: now, random: 0.5) else {
            Issue.record("a refused send is dead at once")
            return
        }
    }
}
