import CCurl
import Foundation

/// A blocking HTTP client over libcurl, one easy handle per client (reused, so connections are kept alive).
///
/// Not thread-safe: use one client per thread.
public final class HTTPClient {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        /// False when the body was cut at `maxResponseBodyBytes` or stopped coming (only with `acceptsIncompleteBody`).
        public var isBodyComplete = true
        /// Body bytes that arrived, including any beyond the cap that were dropped.
        public var bodyBytesReceived = 0

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why no HTTP answer came back.
    public struct TransportError: Error, Sendable, CustomStringConvertible {
        public var code: Int32
        public var message: String
        public var isConnectionFailure: Bool
        public var isTimeout: Bool = false

        public var description: String { message }
    }

    private let handle: UnsafeMutableRawPointer
    public var timeoutSeconds: Int {
        get { timeoutMilliseconds / 1_000 }
        set { timeoutMilliseconds = newValue * 1_000 }
    }
    public var timeoutMilliseconds: Int
    /// When false, proxy variables in the environment are ignored (webhook deliveries must reach the address checked).
    public var usesEnvironmentProxy = true
    /// The most of a body kept; past it the transfer stops. Nil keeps everything (answers from vouchd itself).
    public var maxResponseBodyBytes: Int?
    /// When true, an answer whose headers arrived counts even if its body was cut or timed out: for untrusted
    /// servers, such as webhook receivers, whose status alone matters.
    public var acceptsIncompleteBody = false

    public init(timeoutSeconds: Int = 30) {
        HTTPClient.initializeOnce
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        self.handle = handle
        self.timeoutMilliseconds = timeoutSeconds * 1_000
    }

    deinit {
        curl_easy_cleanup(handle)
    }

    /// "This function must be called at least once within a program before the program calls any other function in libcurl",
    /// and it is not thread-safe, so it runs once, lazily, under Swift's global initialisation lock.
    private static let initializeOnce: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Sends one request and waits for the whole answer.
    /// - Parameter pinnedAddress: `host:port:address` to connect to without resolving again (curl's CURLOPT_RESOLVE),
    ///   so an address checked before sending is the one used.
    public func send(method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
                     pinnedAddress: String? = nil) throws(TransportError) -> Response {
        curl_easy_reset(handle)
        var resolveList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(resolveList) }
        if let pinnedAddress {
            resolveList = curl_slist_append(nil, pinnedAddress)
            vouch_curl_setopt_slist(handle, CURLOPT_RESOLVE, resolveList)
        }
        let collector = ResponseCollector(maxBodyBytes: maxResponseBodyBytes)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in headers {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        // Without this, curl adds "Expect: 100-continue" to larger bodies and waits for the server's go-ahead.
        headerList = curl_slist_append(headerList, "Expect:")
        vouch_curl_setopt_string(handle, CURLOPT_URL, url)
        vouch_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        if !usesEnvironmentProxy { vouch_curl_setopt_string(handle, CURLOPT_NOPROXY, "*") }
        vouch_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        vouch_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
        vouch_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMilliseconds, 10_000))
        // A 3xx is an answer: following it could lead to an address nobody checked.
        vouch_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        vouch_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method)
        if let body {
            vouch_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
            body.withUnsafeBytes { bytes in
                _ = vouch_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
        } else if method == "HEAD" {
            vouch_curl_setopt_long(handle, CURLOPT_NOBODY, 1)
        }
        vouch_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
        let context = Unmanaged.passUnretained(collector).toOpaque()
        vouch_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, ResponseCollector.bodyCallback)
        vouch_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        vouch_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, ResponseCollector.headerCallback)
        vouch_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        let result = withExtendedLifetime(collector) { curl_easy_perform(handle) }
        var status: Int = 0
        vouch_curl_info_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var response = Response(status: status, headers: collector.headers, body: collector.body, bodyBytesReceived: collector.bodyBytesReceived)
        if result != CURLE_OK, acceptsIncompleteBody, collector.headersComplete, status >= 100 {
            // Cut at the cap (the body callback's short count is CURLE_WRITE_ERROR) or a body that never ended.
            response.isBodyComplete = false
            return response
        }
        guard result == CURLE_OK else {
            let message = String(cString: curl_easy_strerror(result))
            let connectionFailure = [CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING]
                .contains(result)
            throw TransportError(code: Int32(result.rawValue), message: message, isConnectionFailure: connectionFailure,
                                 isTimeout: result == CURLE_OPERATION_TIMEDOUT)
        }
        return response
    }
}

/// Gathers a response's headers and body from libcurl's callbacks.
private final class ResponseCollector {
    let maxBodyBytes: Int?
    var body: [UInt8] = []
    var bodyBytesReceived = 0
    var headers: [String: String] = [:]
    var headersComplete = false

    init(maxBodyBytes: Int?) {
        self.maxBodyBytes = maxBodyBytes
    }

    static let bodyCallback: vouch_curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        collector.bodyBytesReceived += length
        if let limit = collector.maxBodyBytes, collector.bodyBytesReceived > limit {
            // "If that amount differs from the amount passed to your callback function, it signals an error
            // condition to the library": the transfer stops, and what was kept stays within the cap.
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            collector.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
        }
        return length
    }

    static let headerCallback: vouch_curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
        if line.hasPrefix("HTTP/") {
            // A new status line (after a 1xx): the headers so far belonged to an interim answer.
            collector.headers = [:]
            collector.headersComplete = false
        } else if line == "\r\n" || line == "\n" {
            collector.headersComplete = true
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            collector.headers[name] = value
        }
        return length
    }
}
