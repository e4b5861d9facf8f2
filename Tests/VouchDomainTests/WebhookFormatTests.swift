import Testing
import VouchDomain

/// What each webhook format asks of its URL and token file name, beyond every webhook's rules.
struct WebhookFormatRuleTests {
    @Test(arguments: [
        "https://api.github.com/repos/example-org/tv.app/dispatches",
        "https://github.example.com/api/v3/repos/example/app/dispatches",
        "http://127.0.0.1:8080/repos/example/app/dispatches",
        "http://[::1]:8080/api/v3/repos/example/app/dispatches",
    ])
    func repositoryDispatchAddressesAreTaken(url: String) {
        #expect(WebhookFormat.githubDispatch.urlProblem(url) == nil)
    }

    @Test(arguments: [
        "https://api.github.com/repos/example/app/dispatch",
        "https://api.github.com/repos/example/dispatches",
        "https://api.github.com/api/v3/repos/example/app/dispatches",
        "https://api.github.com/repos/example/app/dispatches?x=1",
        "https://api.github.com/repos/exa mple/app/dispatches",
        "https://hooks.example.com/vouch",
        "http://api.github.com/repos/example/app/dispatches",
    ])
    func otherAddressesAreRefusedForADispatch(url: String) {
        #expect(WebhookFormat.githubDispatch.urlProblem(url) != nil)
    }

    @Test func standardAndSlackTakeAnyWebhookAddress() {
        for format in [WebhookFormat.standard, .slack] { #expect(format.urlProblem("https://hooks.example.com/vouch") == nil) }
    }

    @Test func onlyStandardIsSignedOrMayBeRequired() {
        #expect(WebhookFormat.allCases.filter(\.mayBeRequired) == [.standard])
        #expect(WebhookFormat.allCases.filter(\.isSigned) == [.standard])
    }

    @Test(arguments: [("github-deploy.token", true), ("deploy", true), ("../deploy", false), ("/etc/vouch/deploy", false), (".hidden", false),
                      ("", false), ("a b", false), (String(repeating: "a", count: 256), false)])
    func tokenFilesAreNamedNeverPathed(name: String, allowed: Bool) {
        #expect((WebhookFormat.tokenFileNameProblem(name) == nil) == allowed)
    }
}
