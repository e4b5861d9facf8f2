import Foundation
import VouchDomain
import VouchHTTP
import VouchJSON

/// Opaque paging cursors: the last item's sort key, base64url-encoded so clients do not build them.
package enum Cursor {
    static func encode(_ key: String) -> String {
        Data(key.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    package static func decode(_ cursor: String?) throws -> String? {
        guard let cursor else { return nil }
        // The document's pattern is `^[A-Za-z0-9_-]+$`: an empty cursor is not "no cursor", and neither is a padded one.
        let isCursorByte = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) || byte == 0x2D || byte == 0x5F }
        guard !cursor.isEmpty, cursor.utf8.allSatisfy(isCursorByte) else {
            throw Problem(status: 422, detail: "the cursor is not one this server gave out",
                          errors: [.init(field: "cursor", message: "must be a next_cursor value from a previous page (letters, digits, - and _)")])
        }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let key = String(data: data, encoding: .utf8) else {
            throw Problem(status: 422, detail: "the cursor is not one this server gave out",
                          errors: [.init(field: "cursor", message: "must be a next_cursor value from a previous page")])
        }
        return key
    }

    /// A whole list answer, `{"<name>": [...], "next_cursor": …}`, for lists ordered by a string key.
    /// - Parameter fetch: reads the items after a key, at most the given count (one more than a page, to see if another follows).
    package static func listAnswer<T>(_ request: HTTPRequest, name: String, key: (T) -> String, json: (T) -> JSONValue,
                              fetch: (_ after: String?, _ limit: Int) throws -> [T]) throws -> HTTPResponse {
        let limit = try Paging.limit(from: request.query["limit"])
        let page = page(try fetch(decode(request.query["cursor"]), limit + 1), limit: limit, key: key)
        return .json(.object(JSONObject([(key: name, value: .array(page.items.map(json))), (key: "next_cursor", value: .optional(page.next))])))
    }

    /// Splits one extra fetched item off to decide whether there is a next page.
    package static func page<T>(_ items: [T], limit: Int, key: (T) -> String) -> (items: [T], next: String?) {
        guard items.count > limit else { return (items, nil) }
        let page = Array(items.prefix(limit))
        return (page, page.last.map { encode(key($0)) })
    }
}
