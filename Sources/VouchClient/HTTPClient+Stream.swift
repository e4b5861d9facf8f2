import CCurl

extension HTTPClient {
    /// How a stream's transfer ended, once its answer had begun.
    public struct StreamEnd: Sendable {
        public enum Reason: Sendable, Equatable {
            /// The server ended the body (a server stopping ends its streams so).
            case ended
            /// `shouldStop` or `receive` asked for the end.
            case stopped
            /// The connection broke or stayed silent past the idle limit, in libcurl's words.
            case broken(String)
        }

        public var status: Int
        public var headers: [String: String]
        /// The body of an answer that was not 2xx (capped), for its error; a 2xx body went to `receive` instead.
        public var body: [UInt8]
        public var reason: Reason
    }

    /// Sends a GET whose body may never end, such as a Server-Sent Events stream, and hands each chunk of a 2xx body
    /// to `receive` as it arrives.
    ///
    /// Returns when the body ends, when `receive` returns false, or within about a second of `shouldStop` returning
    /// true (libcurl asks it "about once a second" while nothing arrives), so another thread can stop a silent stream.
    /// Both closures run on the calling thread, inside libcurl.
    /// - Parameter idleSeconds: the longest silence accepted before the connection counts as broken; a stream's
    ///   keep-alive comments keep it open.
    public func stream(url: String, headers: [(String, String)] = [], idleSeconds: Int,
                       shouldStop: @escaping () -> Bool, receive: @escaping ([UInt8]) -> Bool) throws(TransportError) -> StreamEnd {
        let collector = ResponseCollector(maxBodyBytes: 65_536, receive: receive, shouldStop: shouldStop)
        let result = try perform(method: "GET", url: url, headers: headers, body: nil, pinnedAddress: nil, collector: collector) {
            () throws(TransportError) in
            // No limit on the whole transfer; "the transfer speed [is] below CURLOPT_LOW_SPEED_LIMIT bytes per second
            // for CURLOPT_LOW_SPEED_TIME seconds" instead, so only a silent connection counts as broken.
            try check(vouch_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, 0), "CURLOPT_TIMEOUT_MS")
            try check(vouch_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1), "CURLOPT_LOW_SPEED_LIMIT")
            try check(vouch_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, idleSeconds), "CURLOPT_LOW_SPEED_TIME")
        }
        let stopped = result == CURLE_ABORTED_BY_CALLBACK || (result == CURLE_WRITE_ERROR && collector.status / 100 == 2)
        guard collector.headersComplete || stopped else { throw TransportError(result) }
        let reason: StreamEnd.Reason = stopped ? .stopped : result == CURLE_OK ? .ended : .broken(String(cString: curl_easy_strerror(result)))
        return StreamEnd(status: collector.status, headers: collector.headers, body: collector.body, reason: reason)
    }
}
