import CCurl
import VouchMail

/// Sends mail through one SMTP relay over libcurl: one message to one recipient per call, the message's bytes as they
/// are (composed by `MailMessage`).
///
/// Blocking, and one easy handle per client, reused so a connection to the relay may serve the next message: use one
/// client per thread, never on the cooperative pool. The relay's URL is an `SMTPURL`, whose rules decide the
/// encryption: STARTTLS required on `smtp://` unless the relay is on loopback, TLS from the start on `smtps://`.
public final class SMTPClient {
    /// The relay's user name and password; its description never shows them.
    public struct Credentials: Sendable, CustomStringConvertible {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }

        public var description: String { "Credentials(redacted)" }
    }

    public let server: SMTPURL
    private let credentials: Credentials?
    /// The whole exchange's limit, connecting included.
    public var timeoutMilliseconds: Int
    private let handle: UnsafeMutableRawPointer

    public init(server: SMTPURL, credentials: Credentials? = nil, timeoutSeconds: Int = 30) {
        HTTPClient.initializeOnce
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        self.handle = handle
        self.server = server
        self.credentials = credentials
        timeoutMilliseconds = timeoutSeconds * 1_000
    }

    deinit {
        curl_easy_cleanup(handle)
    }

    /// Sends `message` to `recipient` with `sender` as the envelope's return path, and returns once the server
    /// accepted it (its 250 after the message's end).
    public func send(_ message: [UInt8], from sender: MailAddress, to recipient: MailAddress) throws(SMTPError) {
        let exchange = SMTPExchange(message: message)
        var recipients: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(recipients) }
        // MailAddress holds no space, angle bracket or line break, so neither can end the command early.
        recipients = curl_slist_append(nil, "<\(recipient.address)>")
        try prepare(exchange)
        try check(vouch_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(sender.address)>"), "CURLOPT_MAIL_FROM")
        try check(vouch_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients), "CURLOPT_MAIL_RCPT")
        try check(vouch_curl_setopt_long(handle, CURLOPT_UPLOAD, 1), "CURLOPT_UPLOAD")
        try check(vouch_curl_setopt_off_t(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count)), "CURLOPT_INFILESIZE_LARGE")
        try check(vouch_curl_setopt_read_function(handle, SMTPExchange.readCallback), "CURLOPT_READFUNCTION")
        try check(vouch_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(exchange).toOpaque()), "CURLOPT_READDATA")
        try perform(exchange)
    }

    /// Connects, greets the relay, starts TLS and logs in as a message would, then says NOOP and leaves: what
    /// `vouchd check-config` does to tell whether mail can go, without sending any.
    public func verify() throws(SMTPError) {
        let exchange = SMTPExchange(message: [])
        try prepare(exchange)
        // No recipient and no upload: libcurl sends the custom command instead of a message.
        try check(vouch_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "NOOP"), "CURLOPT_CUSTOMREQUEST")
        try check(vouch_curl_setopt_long(handle, CURLOPT_NOBODY, 1), "CURLOPT_NOBODY")
        try perform(exchange)
    }

    /// What every exchange with the relay sets: where, how securely, how long, who logs in, and the debug callback.
    private func prepare(_ exchange: SMTPExchange) throws(SMTPError) {
        curl_easy_reset(handle)
        try check(vouch_curl_setopt_string(handle, CURLOPT_URL, server.connectionURL), "CURLOPT_URL")
        try check(vouch_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"), "CURLOPT_PROTOCOLS_STR")
        try setSecurity()
        // The relay is the operator's: a proxy from the environment must not carry mail elsewhere.
        try check(vouch_curl_setopt_string(handle, CURLOPT_NOPROXY, "*"), "CURLOPT_NOPROXY")
        try check(vouch_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "CURLOPT_NOSIGNAL")
        try check(vouch_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds), "CURLOPT_TIMEOUT_MS")
        try check(vouch_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMilliseconds, 10_000)), "CURLOPT_CONNECTTIMEOUT_MS")
        if let credentials {
            try check(vouch_curl_setopt_string(handle, CURLOPT_USERNAME, credentials.username), "CURLOPT_USERNAME")
            try check(vouch_curl_setopt_string(handle, CURLOPT_PASSWORD, credentials.password), "CURLOPT_PASSWORD")
        }
        // The debug callback tells which step failed; with it set, "the default output" to stderr is not used.
        try check(vouch_curl_setopt_debug_function(handle, SMTPExchange.debugCallback), "CURLOPT_DEBUGFUNCTION")
        try check(vouch_curl_setopt_pointer(handle, CURLOPT_DEBUGDATA, Unmanaged.passUnretained(exchange).toOpaque()), "CURLOPT_DEBUGDATA")
        try check(vouch_curl_setopt_long(handle, CURLOPT_VERBOSE, 1), "CURLOPT_VERBOSE")
    }

    private func perform(_ exchange: SMTPExchange) throws(SMTPError) {
        let result = withExtendedLifetime(exchange) { curl_easy_perform(handle) }
        guard result == CURLE_OK else { throw SMTPError(result, exchange: exchange) }
    }

    /// CURLOPT_USE_SSL's CURLUSESSL_ALL: "Require SSL for all communication or fail with CURLE_USE_SSL_FAILED", so a
    /// server (or someone in the middle) that does not offer STARTTLS gets nothing in plain text.
    private func setSecurity() throws(SMTPError) {
        let level = server.security == .none ? CURLUSESSL_NONE : CURLUSESSL_ALL
        try check(vouch_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(level.rawValue)), "CURLOPT_USE_SSL")
        guard server.security != .none else { return }
        try check(vouch_curl_setopt_long(handle, CURLOPT_SSLVERSION, CURL_SSLVERSION_TLSv1_2), "CURLOPT_SSLVERSION")
        try check(vouch_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1), "CURLOPT_SSL_VERIFYPEER")
        try check(vouch_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2), "CURLOPT_SSL_VERIFYHOST")
    }

    /// An option that did not take (the protocols allowed or STARTTLS above all) stops the message instead of being skipped.
    private func check(_ code: CURLcode, _ option: StaticString) throws(SMTPError) {
        guard code != CURLE_OK else { return }
        throw SMTPError(step: .setup, replyCode: nil, curlCode: Int32(code.rawValue), isTransient: false,
                        reason: "libcurl refused \(option): \(String(cString: curl_easy_strerror(code)))")
    }
}
