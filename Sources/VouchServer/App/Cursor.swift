import Foundation
import VouchHTTP

/// Opaque paging cursors: the last item's sort key, base64url-encoded so clients do not build them.
enum Cursor {
    static func encode(_ key: String) -> String {
        Data(key.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ cursor: String?) throws -> String? {
        guard let cursor, !cursor.isEmpty else { return nil }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let key = String(data: data, encoding: .utf8) else {
            throw Problem(status: 422, detail: "the cursor is not one this server gave out",
                          errors: [.init(field: "cursor", message: "must be a next_cursor value from a previous page")])
        }
        return key
    }

    /// Splits one extra fetched item off to decide whether there is a next page.
    static func page<T>(_ items: [T], limit: Int, key: (T) -> String) -> (items: [T], next: String?) {
        guard items.count > limit else { return (items, nil) }
        let page = Array(items.prefix(limit))
        return (page, page.last.map { encode(key($0)) })
    }
}
