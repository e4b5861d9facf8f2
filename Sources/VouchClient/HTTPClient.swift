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
        /// `allowsPeer` refused the address connected to; nothing was sent.
        public var isRefusedPeer: Bool = false

        public var description: String { message }
    }

    let handle: UnsafeMutableRawPointer
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
    static let initializeOnce: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Sends one request and waits for the whole answer.
    /// - Parameter pinnedAddress: `host:port:address` to connect to without resolving again (curl's CURLOPT_RESOLVE),
    ///   so an address checked before sending is the one used.
    /// - Parameter allowsPeer: asked with the numeric address of the connection made (or reused) before anything is
    ///   sent; false ends the request. The last word of an address check, whatever libcurl made of the URL.
    public func send(method: String, url: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
                     pinnedAddress: String? = nil, allowsPeer: ((String) -> Bool)? = nil) throws(TransportError) -> Response {
        let collector = ResponseCollector(maxBodyBytes: maxResponseBodyBytes, allowsPeer: allowsPeer)
        let result = try perform(method: method, url: url, headers: headers, body: body, pinnedAddress: pinnedAddress, collector: collector) {
            () throws(TransportError) in
            try check(vouch_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds), "CURLOPT_TIMEOUT_MS")
        }
        if let peer = collector.refusedPeer {
            throw TransportError(code: Int32(result.rawValue), message: "connected to \(peer), an address the policy refuses; nothing was sent",
                                 isConnectionFailure: false, isRefusedPeer: true)
        }
        var status: Int = 0
        try check(vouch_curl_info_long(handle, CURLINFO_RESPONSE_CODE, &status), "CURLINFO_RESPONSE_CODE")
        var response = Response(status: status, headers: collector.headers, body: collector.body, bodyBytesReceived: collector.bodyBytesReceived)
        if result != CURLE_OK, acceptsIncompleteBody, collector.headersComplete, status >= 100 {
            // Cut at the cap (the body callback's short count is CURLE_WRITE_ERROR) or a body that never ended.
            response.isBodyComplete = false
            return response
        }
        guard result == CURLE_OK else { throw TransportError(result) }
        return response
    }

    /// Sets up one request on the reused handle, lets `limitTime` add its time limits, and runs it to the end.
    func perform(method: String, url: String, headers: [(String, String)], body: [UInt8]?, pinnedAddress: String?,
                 collector: ResponseCollector, limitTime: () throws(TransportError) -> Void) throws(TransportError) -> CURLcode {
        curl_easy_reset(handle)
        var resolveList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(resolveList) }
        if let pinnedAddress {
            resolveList = curl_slist_append(nil, pinnedAddress)
            try check(vouch_curl_setopt_slist(handle, CURLOPT_RESOLVE, resolveList), "CURLOPT_RESOLVE")
        }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in headers {
            headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        // Without this, curl adds "Expect: 100-continue" to larger bodies and waits for the server's go-ahead.
        headerList = curl_slist_append(headerList, "Expect:")
        try check(vouch_curl_setopt_string(handle, CURLOPT_URL, url), "CURLOPT_URL")
        try check(vouch_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "CURLOPT_PROTOCOLS_STR")
        if !usesEnvironmentProxy { try check(vouch_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"), "CURLOPT_NOPROXY") }
        try check(vouch_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        try limitTime()
        try check(vouch_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMilliseconds, 10_000)), "CURLOPT_CONNECTTIMEOUT_MS")
        // A 3xx is an answer: following it could lead to an address nobody checked.
        try check(vouch_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0), "CURLOPT_FOLLOWLOCATION")
        try check(vouch_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, method), "CURLOPT_CUSTOMREQUEST")
        if let body {
            try check(vouch_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count), "CURLOPT_POSTFIELDSIZE")
            let copied = body.withUnsafeBytes { bytes in
                vouch_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
            try check(copied, "CURLOPT_COPYPOSTFIELDS")
        } else if method == "HEAD" {
            try check(vouch_curl_setopt_long(handle, CURLOPT_NOBODY, 1), "CURLOPT_NOBODY")
        }
        try check(vouch_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "CURLOPT_HTTPHEADER")
        let context = Unmanaged.passUnretained(collector).toOpaque()
        try check(vouch_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, ResponseCollector.bodyCallback), "CURLOPT_WRITEFUNCTION")
        try check(vouch_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        try check(vouch_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, ResponseCollector.headerCallback), "CURLOPT_HEADERFUNCTION")
        try check(vouch_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        if collector.allowsPeer != nil {
            try check(vouch_curl_setopt_prereq_function(handle, ResponseCollector.peerCallback), "CURLOPT_PREREQFUNCTION")
            try check(vouch_curl_setopt_pointer(handle, CURLOPT_PREREQDATA, context), "CURLOPT_PREREQDATA")
        }
        if collector.shouldStop != nil {
            // "Set this parameter to 0 to make it call the progress callback", which is how another thread stops a stream.
            try check(vouch_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0), "CURLOPT_NOPROGRESS")
            try check(vouch_curl_setopt_xferinfo_function(handle, ResponseCollector.progressCallback), "CURLOPT_XFERINFOFUNCTION")
            try check(vouch_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), "CURLOPT_XFERINFODATA")
        }
        return withExtendedLifetime(collector) { curl_easy_perform(handle) }
    }

    /// "CURLE_OK (zero) means that the option was set properly": an option that did not take (a security option
    /// above all, such as the protocols allowed or the pinned address) stops the request instead of being skipped.
    func check(_ code: CURLcode, _ option: StaticString) throws(TransportError) {
        guard code != CURLE_OK else { return }
        throw TransportError(code: Int32(code.rawValue), message: "libcurl refused \(option): \(String(cString: curl_easy_strerror(code)))",
                             isConnectionFailure: false)
    }
}

extension HTTPClient.TransportError {
    /// A transfer that failed, in libcurl's words.
    init(_ result: CURLcode) {
        let connectionFailure = [CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING]
            .contains(result)
        self.init(code: Int32(result.rawValue), message: String(cString: curl_easy_strerror(result)), isConnectionFailure: connectionFailure,
                  isTimeout: result == CURLE_OPERATION_TIMEDOUT)
    }
}
