import CMicroHTTPD
import Foundation
import Synchronization

/// A response whose status, headers and body are the same every time it is answered, such as an OFREP evaluation's
/// kept encoded per verdict: the server answers it with libmicrohttpd responses made once and then lent to one
/// request at a time, instead of making a libmicrohttpd response, copying its body and allocating its header list
/// for every request (a dozen allocations and frees, which cost more CPU than the rest of an OFREP request's own work;
/// docs/architecture.md, "The OFREP hot path").
///
/// The application may append headers to a copy of the response before it is answered (CORS's `Vary`, or the
/// `Access-Control-Allow-*` of a browser's request): each distinct list of appended headers is a variant with
/// libmicrohttpd responses of its own, up to `variantLimit`; a response with other appended headers, another
/// status, body or first headers is answered the usual way.
///
/// Every answer still carries its own `X-Request-Id`: a lent response has its id written over the previous one, in
/// the header value libmicrohttpd holds, so a response is lent only for an id of the length it was made with.
/// libmicrohttpd reads that value only while it writes the response's head, which it does before the request
/// completes; a response comes back to this object in the completion callback, so no two requests ever share one.
/// Its `Date` is kept the same way (`HTTPDate`): written in place when it is lent in a later second than before, so
/// libmicrohttpd does not make one for every answer.
public final class ReusableResponse: @unchecked Sendable {
    /// A libmicrohttpd response out on loan, with where its `X-Request-Id` value is.
    struct Lent: @unchecked Sendable {
        let response: OpaquePointer
        /// The header's value inside the response: `idLength` bytes, then a NUL.
        let requestID: UnsafeMutablePointer<CChar>
        let idLength: Int
        /// Its variant's place in `Pool.appendedLists`.
        let variant: Int
        /// The `Date` header's value inside the response (`HTTPDate.length` bytes), and the second it shows; nil when
        /// the answer brought a `Date` of its own.
        let date: UnsafeMutablePointer<CChar>?
        var dateSecond: Int
    }

    /// The header lists copies appended, one per variant (the first is empty: the response as made), and the
    /// libmicrohttpd responses of every variant that wait to be lent, in one list tagged by variant.
    private struct Pool {
        var appendedLists: [[(name: String, value: String)]] = [[]]
        var idle: [Lent] = []
    }

    private let status: Int
    /// Kept to tell whether a response is still this one: see `appendedHeaders(of:)`.
    private let headers: [(name: String, value: String)]
    private let body: [UInt8]
    /// `appendedLists` only grows, so a lent response's variant index stays valid.
    private let pool = Mutex(Pool())
    /// Responses kept for later requests, all variants together; more than this many lent at once are destroyed when
    /// they come back.
    static let idleLimit = 32
    /// Distinct lists of headers kept, none appended included: a few CORS answers (none, `Vary`, one or a few origins).
    static let variantLimit = 4

    init(_ response: HTTPResponse) {
        status = response.status
        headers = response.headers
        body = response.body
    }

    deinit {
        for lent in pool.withLock({ $0.idle }) { MHD_destroy_response(lent.response) }
    }

    /// The headers `response` has beyond the ones this was made with, when it is this response, perhaps with headers
    /// appended: the same status, the very storage of its body, and its first headers this one's (the same storage, or
    /// equal names and values in a copy). Nil when it is another response.
    func appendedHeaders(of response: HTTPResponse) -> ArraySlice<(name: String, value: String)>? {
        guard response.status == status, response.body.count == body.count, ReusableResponse.sameStorage(response.body, body),
              response.headers.count >= headers.count else { return nil }
        if response.headers.count == headers.count, ReusableResponse.sameStorage(response.headers, headers) { return [] }
        for index in headers.indices where response.headers[index] != headers[index] { return nil }
        return response.headers[headers.count...]
    }

    private static func sameStorage<Element>(_ left: [Element], _ right: [Element]) -> Bool {
        left.withUnsafeBufferPointer { left in right.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress } }
    }

    private static func same(_ left: ArraySlice<(name: String, value: String)>, _ right: [(name: String, value: String)]) -> Bool {
        left.count == right.count && zip(left, right).allSatisfy { $0 == $1 }
    }

    /// A libmicrohttpd response of this answer with `appended` headers (see `appendedHeaders(of:)`), carrying
    /// `requestID` and the date of `second`; nil when none could be made or variants are full (the caller then answers
    /// the usual way).
    func lend(requestID: String, appended: ArraySlice<(name: String, value: String)> = [],
              second: Int = HTTPDate.currentSecond()) -> Lent? {
        var requestID = requestID
        let length = requestID.utf8.count
        let found = pool.withLock { pool -> (variant: Int, kept: Lent?)? in
            let variant: Int
            if appended.isEmpty {
                variant = 0
            } else if let index = pool.appendedLists.firstIndex(where: { ReusableResponse.same(appended, $0) }) {
                variant = index
            } else {
                guard pool.appendedLists.count < ReusableResponse.variantLimit else { return nil }
                pool.appendedLists.append(Array(appended))
                return (pool.appendedLists.count - 1, nil)
            }
            guard let place = pool.idle.lastIndex(where: { $0.variant == variant && $0.idLength == length }) else { return (variant, nil) }
            return (variant, pool.idle.remove(at: place))
        }
        guard let found else { return nil }
        guard var kept = found.kept else { return make(requestID: requestID, appended: appended, variant: found.variant, second: second) }
        requestID.withUTF8 { id in
            id.withMemoryRebound(to: CChar.self) { id in kept.requestID.update(from: id.baseAddress!, count: length) }
        }
        if let date = kept.date, kept.dateSecond != second {
            HTTPDate.write(second, to: date)
            kept.dateSecond = second
        }
        return kept
    }

    /// Takes back a response lent by `lend`, once libmicrohttpd is done with it.
    func giveBack(_ lent: Lent) {
        let kept = pool.withLock { pool -> Bool in
            guard pool.idle.count < ReusableResponse.idleLimit else { return false }
            pool.idle.append(lent)
            return true
        }
        if !kept { MHD_destroy_response(lent.response) }
    }

    private func make(requestID: String, appended: ArraySlice<(name: String, value: String)>, variant: Int, second: Int) -> Lent? {
        var all = headers + appended
        // The request id is written in place into the value of the first header of that name: it must be the server's.
        guard !all.contains(where: { $0.name.lowercased() == "x-request-id" }) else { return nil }
        // The date likewise, unless the answer has a `Date` of its own (libmicrohttpd keeps the last one added).
        let keepsDate = !all.contains(where: { $0.name.lowercased() == "date" })
        let dateValue = HTTPDate.string(second)
        if keepsDate { all.insert((name: "Date", value: dateValue), at: 0) }
        // libmicrohttpd's own copy of the body outlives this object while a connection still sends it.
        guard let response = MHDResponse.copying(body) else { return nil }
        let length = requestID.utf8.count
        guard MHDResponse.add(all, requestID: requestID, to: response) == .YES, let value = MHD_get_response_header(response, "X-Request-Id"), strlen(value) == length,
              requestID.withCString({ strcmp($0, value) == 0 }) else {
            MHD_destroy_response(response)
            return nil
        }
        var date: UnsafeMutablePointer<CChar>?
        if keepsDate {
            guard let value = MHD_get_response_header(response, "Date"), strlen(value) == HTTPDate.length,
                  dateValue.withCString({ strcmp($0, value) == 0 }) else {
                MHD_destroy_response(response)
                return nil
            }
            date = UnsafeMutablePointer(mutating: value)
        }
        return Lent(response: response, requestID: UnsafeMutablePointer(mutating: value), idLength: length, variant: variant,
                    date: date, dateSecond: second)
    }
}
