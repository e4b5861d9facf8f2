import VouchDomain
import VouchHTTP
import VouchServices
import VouchStore

/// The fixes and testers the maintainer's pages are about, found by the address's key or id, or a 404 page.
struct MaintainerLookup {
    let store: any Store

    func fix(_ request: ConsoleRequest) throws -> Fix {
        let key = request.parameter("key")
        guard let fix = try store.fix(key) else { throw Problem(status: 404, detail: "there is no fix with the key '\(key)'") }
        return fix
    }

    func tester(_ request: ConsoleRequest) throws -> Tester {
        let id = request.parameter("id")
        guard let tester = try store.tester(id) else { throw Problem(status: 404, detail: "there is no tester with the id '\(id)'") }
        return tester
    }

    /// Active testers in id order, at most `limit` of them, read a page at a time.
    func activeTesters(limit: Int) throws -> [Tester] {
        var found: [Tester] = []
        var after: String?
        // Each round reads a page or ends; `limit` active testers need at most this many pages of withdrawn and active ones.
        for _ in 0..<100 where found.count < limit {
            let page = try store.testers(after: after, limit: 200)
            found += page.filter(\.isActive)
            guard page.count == 200, let last = page.last else { break }
            after = last.id
        }
        return Array(found.prefix(limit))
    }
}
