import Foundation

/// RFC 5322's date-time (`Fri, 04 Dec 2026 18:48:14 +0000`), always in UTC and with English names whatever the
/// machine's locale, from the Gregorian calendar's fields rather than a date formatter.
enum MailDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func format(_ date: Date) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let fields = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: whole)
        func twoDigits(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
        let time = "\(twoDigits(fields.hour)):\(twoDigits(fields.minute)):\(twoDigits(fields.second))"
        return "\(weekdays[(fields.weekday ?? 1) - 1]), \(twoDigits(fields.day)) \(months[(fields.month ?? 1) - 1]) \(fields.year ?? 1970) \(time) +0000"
    }
}
