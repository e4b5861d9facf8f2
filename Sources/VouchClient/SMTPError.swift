import CCurl

/// Why a message was not accepted: the step of the SMTP exchange that failed, the server's reply code if it gave one,
/// and whether another attempt later may succeed.
///
/// Built only from the step, the reply code and libcurl's fixed text for its result code: never from the server's
/// reply text or libcurl's error buffer, which may repeat the recipient's address, and never from the credentials.
public struct SMTPError: Error, Sendable, CustomStringConvertible {
    /// The part of the exchange that failed, in the order they happen.
    public enum Step: String, Sendable, Equatable {
        /// Resolving the host, connecting, or the server's greeting.
        case connection = "connecting to the server"
        case hello = "the greeting (EHLO)"
        /// STARTTLS, or the TLS handshake and the server's certificate.
        case tls = "TLS"
        case authentication = "authentication (AUTH)"
        case sender = "the sender (MAIL FROM)"
        case recipient = "the recipient (RCPT TO)"
        /// DATA, the message itself, and the server's answer to it.
        case data = "the message (DATA)"
        /// libcurl refused an option before anything was sent.
        case setup = "setting up libcurl"
    }

    public var step: Step
    /// The SMTP reply code that refused the step (`451`, `550`), or nil when the failure was not a reply.
    public var replyCode: Int?
    /// libcurl's result code.
    public var curlCode: Int32
    /// A 4xx reply, or a connection that failed, broke or timed out: the outbox may try again later. A 5xx reply or a
    /// refused certificate, login or STARTTLS stays refused until someone changes something.
    public var isTransient: Bool
    /// libcurl's words for `curlCode` (`Couldn't connect to server`), which hold no data of the message.
    public var reason: String

    public var description: String {
        let reply = replyCode.map { " with reply \($0)" } ?? ""
        return "SMTP failed at \(step.rawValue)\(reply): \(reason); " + (isTransient ? "a later attempt may succeed" : "retrying will not help")
    }
}

extension SMTPError {
    /// Results that say a connection failed, broke or went silent, which a later attempt may find working.
    private static let transientResults: [CURLcode] = [
        CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
        CURLE_GOT_NOTHING, CURLE_SSL_CONNECT_ERROR, CURLE_WEIRD_SERVER_REPLY,
    ]

    /// A failed transfer: the step from what libcurl last sent (`exchange`), the reply code it got back if that was a
    /// refusal (4xx transient, 5xx permanent), else the result code's kind.
    init(_ result: CURLcode, exchange: SMTPExchange) {
        switch result {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT: step = .connection
        case CURLE_USE_SSL_FAILED, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR:
            step = .tls
        case CURLE_LOGIN_DENIED: step = .authentication
        default: step = exchange.step
        }
        let refusal = exchange.lastReplyCode.flatMap { (400...599).contains($0) ? $0 : nil }
        replyCode = refusal
        curlCode = Int32(result.rawValue)
        isTransient = refusal.map { $0 < 500 } ?? SMTPError.transientResults.contains(result)
        reason = String(cString: curl_easy_strerror(result))
    }
}
