import VouchDomain

extension Messages {
    /// A length of time as the promotion criteria say it: in English the evaluator's own words ("2 days 3 hours"),
    /// which `vouch status` says too; in Japanese with the catalog's units ("2 日 3 時間"). The same steps either way:
    /// minutes under an hour, hours (and minutes) under two days, then days (and hours).
    public func duration(_ seconds: Int) -> String {
        guard language != .en else { return CriteriaEvaluator.duration(seconds) }
        let seconds = max(0, seconds)
        func say(_ count: Int, _ key: MessageKey) -> String { self(key, ["count": number(count)]) }
        if seconds < 3_600 { return say(max(1, seconds / 60), .durationMinutes) }
        if seconds < 2 * 86_400 {
            let minutes = (seconds % 3_600) / 60
            return say(seconds / 3_600, .durationHours) + (minutes == 0 ? "" : " " + say(minutes, .durationMinutes))
        }
        let hours = (seconds % 86_400) / 3_600
        return say(seconds / 86_400, .durationDays) + (hours == 0 ? "" : " " + say(hours, .durationHours))
    }
}
