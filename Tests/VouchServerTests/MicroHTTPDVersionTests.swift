import Testing
@testable import VouchHTTP

/// The server starts only on the libmicrohttpd releases whose internals it was checked against
/// (`MicroHTTPDVersion.supported`), and says which release it found and which it supports.
@Suite struct MicroHTTPDVersionTests {
    @Test(arguments: ["0.9.75", "0.9.76", "0.9.77", "0.9.100"])
    func startsOnASupportedRelease(version: String) {
        #expect(MicroHTTPDVersion.refusal(running: version) == nil)
    }

    @Test(arguments: ["0.9.74", "0.9.9", "0.8.99", "1.0.0", "1.0.1", "2.0.0"])
    func refusesAnotherReleaseNamingItAndTheRange(version: String) throws {
        let refusal = try #require(MicroHTTPDVersion.refusal(running: version))
        #expect(refusal.hasPrefix("libmicrohttpd \(version) is installed; vouchd supports 0.9.75 or later, before 1.0.0"))
    }

    @Test(arguments: ["", "0.9", "0.9.75.1", "0.9.75-rc1", "0..75", "v0.9.75", "0.9. 75", "0.9.+75"])
    func refusesAVersionItCannotRead(version: String) throws {
        let refusal = try #require(MicroHTTPDVersion.refusal(running: version))
        #expect(refusal == "libmicrohttpd reports its version as '\(version)', which is not major.minor.patch; vouchd supports 0.9.75 or later, before 1.0.0")
    }

    @Test func comparesReleasesByNumberNotText() throws {
        #expect(try #require(MicroHTTPDVersion("0.9.100")) > #require(MicroHTTPDVersion("0.9.75")))
        #expect(try #require(MicroHTTPDVersion("0.10.0")) > #require(MicroHTTPDVersion("0.9.99")))
        #expect(MicroHTTPDVersion("0.9.75")?.description == "0.9.75")
    }
}
