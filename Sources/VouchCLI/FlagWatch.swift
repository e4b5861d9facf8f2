import Foundation
import VouchClient
import VouchJSON

/// `vouch eval KEY --watch`: the flag's answer, then one line each time it changes, heard through the event stream
/// that bulk OFREP answers name, and refetched as OFREP's providers do (docs/contracts.md, "Event streams").
///
/// A class because libcurl's body callback, deep inside the stream, updates what was last heard.
final class FlagWatch {
    /// The pauses before reconnecting, one per failure in a row; once they are used up, the last failure ends the watch.
    static let reconnectDelays = [1, 2, 5]

    private let flag: String
    private let targetingKey: String?
    private let api: APIClient
    private let output: OutputFormatter
    private let stop = StopSignal()
    /// The answer last printed.
    private var current: JSONValue = .null
    private var failuresInARow = 0
    private var hasListened = false

    init(flag: String, targetingKey: String?, api: APIClient, output: OutputFormatter) {
        self.flag = flag
        self.targetingKey = targetingKey
        self.api = api
        self.output = output
    }

    private var requestBody: JSONObject {
        var context = JSONObject()
        if let targetingKey { context["targetingKey"] = .string(targetingKey) }
        return ["context": .object(context)]
    }

    /// Watches until SIGTERM or SIGINT (then returns), or until the server stays out of reach (then throws).
    func run() throws(CommandFailure) {
        let signalSources = stop.listen()
        defer { withExtendedLifetime(signalSources) {} }
        // The single-flag request first, as plain `vouch eval` makes it: an unknown key is an error, not an empty answer.
        current = try api.post(APIClient.path("/ofrep/v1/evaluate/flags", flag), body: requestBody)
        if output.json {
            output.console.output(JSONWriter.string(current))
        } else {
            for line in OutputFormatter.evaluation(current, targetingKey: targetingKey) { output.console.output(line) }
        }
        while !stop.isStopped {
            do throws(CommandFailure) {
                try listen(to: try streamAddress())
            } catch where error.exitCode == .unavailable {
                try pause("Cannot reach the server", or: error)
            }
        }
        announce("Stopped watching.")
    }

    /// The event stream's address from a fresh bulk answer, whose answer for the flag is reported on the way.
    private func streamAddress() throws(CommandFailure) -> String {
        let bulk = try refetch(after: nil)
        guard let address = bulk["eventStreams"]?.arrayValue?.first(where: { $0["type"]?.stringValue == "sse" })?["url"]?.stringValue else {
            throw CommandFailure(.unavailable, "The server at \(api.server) names no event stream in its OFREP answers, so there is nothing to watch.",
                                 details: ["A server with ofrep.event_streams = false, or reached under a Host that is not a plain name or address, offers none."])
        }
        return address
    }

    /// Holds one stream open until it ends, then pauses before the next (or throws once the pauses are used up).
    private func listen(to address: String) throws(CommandFailure) {
        var parser = ServerSentEventParser()
        var failureInside: CommandFailure?
        let stop = self.stop
        let end = try api.openEventStream(address, shouldStop: { stop.isStopped }) { chunk in
            do throws(CommandFailure) {
                for item in parser.feed(chunk) { try self.handle(item) }
                return true
            } catch {
                failureInside = error
                return false
            }
        }
        if let failureInside { throw failureInside }
        guard !stop.isStopped else { return }
        switch end.reason {
        case _ where !(200..<300).contains(end.status):
            let refusal = ServerProblem(HTTPTransport.Response(status: end.status, headers: end.headers, body: end.body)).failure
            try pause("The server refused the event stream (status \(end.status))", or: refusal)
        case .broken(let why):
            try pause("The stream broke (\(why))", or: CommandFailure(.unavailable, "The event stream from the Vouch server at \(api.server) broke: \(why)."))
        case .ended, .stopped:
            try pause("The stream closed", or: CommandFailure(.unavailable, "The Vouch server at \(api.server) closed the event stream."))
        }
    }

    private func handle(_ item: ServerSentEventParser.Item) throws(CommandFailure) {
        switch item {
        case .comment("open"):
            failuresInARow = 0
            announce(hasListened ? "The stream is open again." : "Watching for changes; press Control-C to stop.")
            hasListened = true
            // A change committed between the bulk answer and this moment was announced to nobody: ask once more.
            _ = try refetch(after: nil)
        case .event(_, "message", let data):
            guard let event = try? JSONParser.parse(data), event["type"]?.stringValue == "refetchEvaluation" else { return }
            _ = try refetch(after: event)
        default:
            return
        }
    }

    /// The bulk answer, asked with the configuration tag and time the event carried (so a cached answer is not
    /// reused), with the flag's answer printed when it changed.
    private func refetch(after event: JSONValue?) throws(CommandFailure) -> JSONValue {
        let lastModified = event?["lastModified"].flatMap { $0.intValue.map(String.init) ?? $0.stringValue }
        let bulk = try api.send("POST", "/ofrep/v1/evaluate/flags", query: [("flagConfigEtag", event?["etag"]?.stringValue),
                                                                            ("flagConfigLastModified", lastModified)],
                                body: .object(requestBody))
        let answer = bulk["flags"]?.arrayValue?.first { $0["key"]?.stringValue == flag }
            ?? .object(["key": .string(flag), "errorCode": .string("FLAG_NOT_FOUND")])
        if answer != current {
            output.console.output(output.json ? JSONWriter.string(answer) : OutputFormatter.evaluationChange(answer, was: current, at: Date()))
            current = answer
        }
        return bulk
    }

    /// Says why and waits before reconnecting; throws `failure` when the pauses in a row are used up.
    private func pause(_ why: String, or failure: CommandFailure) throws(CommandFailure) {
        guard failuresInARow < FlagWatch.reconnectDelays.count else { throw failure }
        let delay = FlagWatch.reconnectDelays[failuresInARow]
        failuresInARow += 1
        announce("\(why); reconnecting in \(delay) s.")
        stop.pause(seconds: delay)
    }

    /// A line about the watch itself: on standard output among the plain lines, on standard error beside JSON lines.
    private func announce(_ line: String) {
        if output.json { output.console.error([line]) } else { output.console.output(line) }
    }
}
