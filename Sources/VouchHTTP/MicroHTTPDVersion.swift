import CMicroHTTPD

/// libmicrohttpd's version as the library in the process reports it (`MHD_get_version`), and whether the server may
/// run on it.
///
/// The server relies on behaviour libmicrohttpd's documentation does not promise, checked on the releases in
/// `supported`: a header line's name and value stay where `MHD_get_connection_values_n` showed them, in the
/// connection's memory, until the request completes, while the body comes in behind them (`ReceivedHeaders` and the
/// direct handler read them there); the request target handed to the URI callback is libmicrohttpd's own read
/// buffer, which it is about to cut at the `?` (`HTTPServer`'s target handler cuts a refused query there first).
/// Another release may move or reuse that memory, which would read another request's bytes or freed memory rather
/// than fail, so the server refuses to start on it. Widen `supported` only after the tests that pin those
/// behaviours (`ReceivedHeadersTests`, `HTTPFramingTests`, `HTTPAbuseTests`) pass on the new release.
struct MicroHTTPDVersion: Comparable, CustomStringConvertible {
    var major: Int
    var minor: Int
    var patch: Int

    /// From the first release checked (0.9.75) up to, not including, 1.0.0, whose request parsing was rewritten.
    static let supported = MicroHTTPDVersion(major: 0, minor: 9, patch: 75)..<MicroHTTPDVersion(major: 1, minor: 0, patch: 0)

    /// "Returns static version string, e.g. "0.9.9"": not `MHD_get_version_bin`, which 0.9.75 does not have.
    static var running: String { String(cString: MHD_get_version()) }

    /// The version in `text` (`major.minor.patch`, digits only); nil for anything else.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 6, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2])
    }

    init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    static func < (lhs: MicroHTTPDVersion, rhs: MicroHTTPDVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    var description: String { "\(major).\(minor).\(patch)" }

    /// Why the server must not start on the libmicrohttpd that reports `text`, or nil when it may.
    static func refusal(running text: String) -> String? {
        let range = "\(supported.lowerBound) or later, before \(supported.upperBound)"
        guard let version = MicroHTTPDVersion(text) else {
            return "libmicrohttpd reports its version as '\(text)', which is not major.minor.patch; vouchd supports \(range)"
        }
        guard supported.contains(version) else {
            return "libmicrohttpd \(version) is installed; vouchd supports \(range), as it relies on where that library keeps a "
                + "request's header lines (docs/architecture.md, \"libmicrohttpd\")"
        }
        return nil
    }
}
