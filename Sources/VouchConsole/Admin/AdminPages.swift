import VouchConsoleKit
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices
import VouchStore

/// The administrator's pages: webhooks with their deliveries, and tokens. Reads come from the store; every change
/// goes through the services the API uses, as the signed-in person (docs/console.md, "One API").
struct AdminPages {
    let routes: ConsoleRoutes
    let store: any Store
    let services: Services

    package func register(in router: inout APIRouter) {
        WebhookPages(routes: routes, store: store, services: services).register(in: &router)
        TokenPages(routes: routes, store: store, services: services).register(in: &router)
    }

    /// How many rows a list page shows before its "Next page" link.
    static let pageSize = 50

    /// The page of a list the request's `cursor` asks for, and the cursor of the next one.
    static func page<Item>(_ request: ConsoleRequest, key: (Item) -> String,
                           fetch: (_ after: String?, _ limit: Int) throws -> [Item]) throws -> (items: [Item], next: String?) {
        Cursor.page(try fetch(Cursor.decode(request.http.query["cursor"]), pageSize + 1), limit: pageSize, key: key)
    }

    /// The "Next page" link under a list, keeping the page's other query values; nothing on the last page.
    /// `hidden` is what a screen reader hears after "Next page": " of deliveries", or the page's language's words.
    static func nextPageLink(_ path: String, cursor: String?, keeping query: [(String, String)] = [], subject: String,
                             next: String = "Next page", hidden: String? = nil) -> HTML {
        guard let cursor else { return .empty }
        let parts = (query + [("cursor", cursor)]).map { ConsoleRoutes.percentEncoded($0.0) + "=" + ConsoleRoutes.percentEncoded($0.1) }
        return "<p class=\"body\"><a href=\"\(path)?\(parts.joined(separator: "&"))\">\(next)<span class=\"visually-hidden\"> \(hidden ?? "of \(subject)")</span></a></p>"
    }
}
