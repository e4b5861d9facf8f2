import CMicroHTTPD
import Foundation
import Synchronization

/// A response whose status, headers and body are the same every time it is answered, such as an OFREP evaluation's
/// kept encoded per verdict: the server answers it with libmicrohttpd responses made once and then lent to one
/// request at a time, instead of making a libmicrohttpd response, copying its body and allocating its header list
/// for every request (a dozen allocations and frees, which cost more CPU than the rest of an OFREP request's own work;
/// docs/architecture.md, "The OFREP hot path").
///
/// Every answer still carries its own `X-Request-Id`: a lent response has its id written over the previous one, in
/// the header value libmicrohttpd holds, so a response is lent only for an id of the length it was made with.
/// libmicrohttpd reads that value only while it writes the response's head, which it does before the request
/// completes; a response comes back to this object in the completion callback, so no two requests ever share one.
public final class ReusableResponse: @unchecked Sendable {
    /// A libmicrohttpd response out on loan, with where its `X-Request-Id` value is.
    struct Lent: @unchecked Sendable {
        let response: OpaquePointer
        /// The header's value inside the response: `idLength` bytes, then a NUL.
        let requestID: UnsafeMutablePointer<CChar>
        let idLength: Int
    }

    private let status: Int
    /// Kept to tell whether a response is still this one: see `answers(_:)`.
    private let headers: [(name: String, value: String)]
    private let body: [UInt8]
    private let idle = Mutex<[Lent]>([])
    /// Responses kept for later requests; more than this many lent at once are destroyed when they come back.
    static let idleLimit = 16

    init(_ response: HTTPResponse) {
        status = response.status
        headers = response.headers
        body = response.body
    }

    deinit {
        for lent in idle.withLock({ $0 }) { MHD_destroy_response(lent.response) }
    }

    /// Whether `response` is still the one this was made from: the same status, and the very storage of its header
    /// list and body. A copy that gained a header (CORS's, for one) or another body holds storage of its own, and is
    /// answered the usual way.
    func answers(_ response: HTTPResponse) -> Bool {
        response.status == status && response.headers.count == headers.count && response.body.count == body.count
            && ReusableResponse.sameStorage(response.headers, headers) && ReusableResponse.sameStorage(response.body, body)
    }

    private static func sameStorage<Element>(_ left: [Element], _ right: [Element]) -> Bool {
        left.withUnsafeBufferPointer { left in right.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress } }
    }

    /// A libmicrohttpd response of this answer carrying `requestID`; nil when none could be made (the caller then
    /// answers the usual way).
    func lend(requestID: String) -> Lent? {
        var requestID = requestID
        let length = requestID.utf8.count
        let kept = idle.withLock { idle -> Lent? in
            guard let index = idle.lastIndex(where: { $0.idLength == length }) else { return nil }
            return idle.remove(at: index)
        }
        guard let kept else { return make(requestID: requestID) }
        requestID.withUTF8 { id in
            id.withMemoryRebound(to: CChar.self) { id in kept.requestID.update(from: id.baseAddress!, count: length) }
        }
        return kept
    }

    /// Takes back a response lent by `lend`, once libmicrohttpd is done with it.
    func giveBack(_ lent: Lent) {
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < ReusableResponse.idleLimit else { return false }
            idle.append(lent)
            return true
        }
        if !kept { MHD_destroy_response(lent.response) }
    }

    private func make(requestID: String) -> Lent? {
        // RESPMEM_MUST_COPY: libmicrohttpd keeps its own copy of the body, which outlives this object while a
        // connection still sends it.
        let made = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let response = made else { return nil }
        guard !headers.contains(where: { $0.name.lowercased() == "x-request-id" }) else {
            MHD_destroy_response(response)
            return nil
        }
        for (name, value) in headers {
            _ = name.withCString { name in value.withCString { MHD_add_response_header(response, name, $0) } }
        }
        let length = requestID.utf8.count
        let added = requestID.withCString { MHD_add_response_header(response, "X-Request-Id", $0) }
        // The value libmicrohttpd answers with is the first header of that name; it must be the one just added.
        guard added == .YES, let value = MHD_get_response_header(response, "X-Request-Id"), strlen(value) == length,
              requestID.withCString({ strcmp($0, value) == 0 }) else {
            MHD_destroy_response(response)
            return nil
        }
        return Lent(response: response, requestID: UnsafeMutablePointer(mutating: value), idLength: length)
    }
}
