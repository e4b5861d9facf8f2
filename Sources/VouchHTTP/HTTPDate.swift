import Foundation

/// The `Date` header's value, RFC 9110's IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, always 29 bytes), written
/// from a count of seconds by arithmetic alone.
///
/// Why not libmicrohttpd's own `Date`: it calls glibc's `gmtime_r` for every answer, and that takes a process-wide
/// lock (the time zone's), so the server's threads pass one cache line between the cores on every request. A lent
/// response (`ReusableResponse`) carries its own `Date` instead, rewritten in place only when the second has changed
/// since its last loan (docs/architecture.md, "The OFREP hot path").
enum HTTPDate {
    static let length = 29
    /// 9999-12-31T23:59:59Z: later seconds would need a fifth digit of the year.
    static let lastSecond = 253_402_300_799

    static func currentSecond() -> Int { Int(time(nil)) }

    /// Writes the date of `second` (seconds since 1970-01-01T00:00:00Z, clamped to years 1970–9999) as `length`
    /// bytes at `out`; nothing after them.
    static func write(_ second: Int, to out: UnsafeMutablePointer<CChar>) {
        let second = min(max(second, 0), lastSecond)
        let days = second / 86_400
        let clock = second % 86_400
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = (days + 4) % 7
        var place = 0
        func put(_ byte: UInt8) {
            out[place] = CChar(bitPattern: byte)
            place += 1
        }
        func putDigits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                put(UInt8(truncatingIfNeeded: 48 + value / divisor % 10))
                divisor /= 10
            }
        }
        for byte in weekdayNames[weekday * 3..<weekday * 3 + 3] { put(byte) }
        put(44); put(32)                                            // ", "
        putDigits(day, 2); put(32)
        for byte in monthNames[(month - 1) * 3..<(month - 1) * 3 + 3] { put(byte) }
        put(32); putDigits(year, 4); put(32)
        putDigits(clock / 3_600, 2); put(58)                        // ":"
        putDigits(clock / 60 % 60, 2); put(58)
        putDigits(clock % 60, 2)
        put(32); put(71); put(77); put(84)                          // " GMT"
    }

    /// The value as a String, for the response a lent one is made from and for tests.
    static func string(_ second: Int) -> String {
        String(unsafeUninitializedCapacity: length) { buffer in
            buffer.withMemoryRebound(to: CChar.self) { write(second, to: $0.baseAddress!) }
            return length
        }
    }

    private static let weekdayNames = Array("SunMonTueWedThuFriSat".utf8)
    private static let monthNames = Array("JanFebMarAprMayJunJulAugSepOctNovDec".utf8)

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (day 0), after Howard Hinnant's
    /// `civil_from_days`: years of 400 years (146,097 days) from 0000-03-01, so the leap day ends each year.
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
