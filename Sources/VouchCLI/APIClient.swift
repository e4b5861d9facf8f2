import Foundation
import VouchClient
import VouchJSON

/// The Vouch HTTP API as `vouch` uses it: JSON in and out, the token sent as a bearer token, and
/// every failure turned into a `CommandFailure` with the right exit code.
struct APIClient {
    /// The base URL, without a trailing slash.
    let server: String
    let token: String?
    private let transport: HTTPTransport
    /// The pauses before each retry of a submission whose answer never came; their count is the number of retries.
    let retryDelays: [Double]

    init(server: String, token: String?, transport: HTTPTransport = .curl(), retryDelays: [Double] = [0.5, 1.5]) {
        self.server = server
        self.token = token
        self.transport = transport
        self.retryDelays = retryDelays
    }

    func get(_ path: String, query: [(String, String?)] = []) throws(CommandFailure) -> JSONValue {
        try send("GET", path, query: query, body: nil)
    }

    /// POSTs a JSON body; actions that take no fields get `{}`.
    func post(_ path: String, body: JSONObject = [:]) throws(CommandFailure) -> JSONValue {
        try send("POST", path, body: .object(body))
    }

    func patch(_ path: String, body: JSONObject) throws(CommandFailure) -> JSONValue {
        try send("PATCH", path, body: .object(body))
    }

    /// PUTs a JSON body that replaces the resource, such as a fix's criteria overrides.
    func put(_ path: String, body: JSONObject) throws(CommandFailure) -> JSONValue {
        try send("PUT", path, body: .object(body))
    }

    func delete(_ path: String) throws(CommandFailure) -> JSONValue {
        try send("DELETE", path, body: nil)
    }

    /// POSTs something that must be recorded once, such as feedback, under a fresh `Idempotency-Key`.
    ///
    /// When no answer comes back the request is sent again, the same bytes under the same key, so the
    /// server records it once however many attempts reached it (docs/contracts.md, "Idempotency").
    func submit(_ path: String, body: JSONValue) throws(CommandFailure) -> JSONValue {
        let key = UUID().uuidString.lowercased()
        return try send("POST", path, body: body, headers: [("Idempotency-Key", key)], retryDelays: retryDelays)
    }

    /// GETs a document that is not JSON, such as an OpenACR report in YAML, and returns its text as sent.
    func text(_ path: String, query: [(String, String?)] = [], accept: String) throws(CommandFailure) -> String {
        let response = try answer("GET", path, query: query, body: nil, accept: accept)
        return String(decoding: response.body, as: UTF8.self)
    }

    /// Sends one request and returns the answer's JSON (null for an empty 2xx body).
    func send(_ method: String, _ path: String, query: [(String, String?)] = [], body: JSONValue?,
              headers extraHeaders: [(String, String)] = [], retryDelays: [Double] = []) throws(CommandFailure) -> JSONValue {
        let response = try answer(method, path, query: query, body: body, headers: extraHeaders, retryDelays: retryDelays)
        guard !response.body.isEmpty else { return .null }
        do {
            return try JSONParser.parse(response.body)
        } catch {
            throw CommandFailure(.failure, "The server at \(server) answered with text that is not JSON (\(error)); is it a Vouch server?")
        }
    }

    /// Sends one request and returns its 2xx answer; any other status is the failure the server's problem describes.
    private func answer(_ method: String, _ path: String, query: [(String, String?)], body: JSONValue?, headers extraHeaders: [(String, String)] = [],
                        retryDelays: [Double] = [], accept: String = "application/json") throws(CommandFailure) -> HTTPTransport.Response {
        guard let token else {
            throw CommandFailure(.notAllowed, "No token given. Pass one with --token or set VOUCH_TOKEN.",
                                 details: ["The first admin token is in the file admin.token in the server's state directory."])
        }
        var headers = [("Authorization", "Bearer \(token)"), ("Accept", accept), ("User-Agent", "vouch/\(VouchCLI.version)")]
        var bytes: [UInt8]?
        if let body {
            headers.append(("Content-Type", "application/json"))
            bytes = JSONWriter.bytes(body)
        }
        let request = HTTPTransport.Request(method: method, url: server + path + APIClient.queryString(query), headers: headers + extraHeaders, body: bytes)
        let response = try exchange(request, retryDelays: retryDelays)
        guard (200..<300).contains(response.status) else {
            throw ServerProblem(response).failure
        }
        return response
    }

    private func exchange(_ request: HTTPTransport.Request, retryDelays: [Double]) throws(CommandFailure) -> HTTPTransport.Response {
        var attempt = 0
        while true {
            do {
                return try transport.send(request)
            } catch {
                guard attempt < retryDelays.count else { throw failure(error, attempts: attempt + 1) }
                if retryDelays[attempt] > 0 { usleep(UInt32(retryDelays[attempt] * 1_000_000)) }
                attempt += 1
            }
        }
    }

    /// Opens an event stream at the address a bulk OFREP answer named. The address carries its own credential, so no
    /// token goes with it, and it never appears in a message (errors name the server instead).
    func openEventStream(_ url: String, shouldStop: @escaping () -> Bool, receive: @escaping ([UInt8]) -> Bool) throws(CommandFailure) -> HTTPClient.StreamEnd {
        let request = HTTPTransport.Request(method: "GET", url: url, headers: [("Accept", "text/event-stream"), ("User-Agent", "vouch/\(VouchCLI.version)")])
        do {
            return try transport.stream(request, shouldStop, receive)
        } catch {
            throw failure(error, attempts: 1)
        }
    }

    private func failure(_ error: HTTPTransport.Failure, attempts: Int) -> CommandFailure {
        let tried = attempts > 1 ? " (tried \(attempts) times)" : ""
        var details: [String] = []
        if attempts > 1 {
            details.append("Every attempt carried the same Idempotency-Key, so the server stored it at most once; check before sending it again.")
        }
        if error.isConnectionFailure {
            return CommandFailure(.unavailable, "Cannot reach the Vouch server at \(server): \(error.message)\(tried).",
                                  details: details + ["Check --server or VOUCH_URL, and that vouchd is running there."])
        }
        return CommandFailure(.failure, "The request to the Vouch server at \(server) failed: \(error.message)\(tried).", details: details)
    }

    /// `/v1/fixes/` + an escaped path segment, so a key or id can never change the route.
    static func path(_ base: String, _ segment: String, _ rest: String = "") -> String {
        base + "/" + escape(segment) + rest
    }

    static func queryString(_ query: [(String, String?)]) -> String {
        let pairs = query.compactMap { name, value in value.map { "\(escape(name))=\(escape($0))" } }
        return pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func escape(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return result
    }
}
