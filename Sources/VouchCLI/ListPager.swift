import VouchDomain
import VouchJSON

/// Reads a paged list (`{"<items>": [...], "next_cursor": ...}`): one page, or with `--all` every page.
struct ListPager {
    /// `--limit`, `--cursor` and `--all`, shared by every list command.
    static func options(_ plural: String) -> [CommandOption] {
        [
            .single("limit", "n", help: "How many \(plural) to show per page, from 1 to \(Paging.maxLimit). Default: \(Paging.defaultLimit).",
                    range: 1...Paging.maxLimit),
            .single("cursor", "cursor", help: "Start after this point: the cursor from the More line of a previous page."),
            .flag("all", help: "Follow every page and list all \(plural)."),
        ]
    }

    let api: APIClient
    let path: String
    /// The member that holds the items, such as `fixes`.
    let itemsKey: String

    /// The items, the cursor of the page after them, and the answer to print with `--json`
    /// (with `--all`, one object holding every page's items and a null cursor).
    func fetch(query: [(String, String?)], invocation: Invocation) throws(CommandFailure) -> (items: [JSONValue], next: String?, answer: JSONValue) {
        let query = query + [("limit", invocation.value("limit"))]
        var cursor = invocation.value("cursor")
        var items: [JSONValue] = []
        var seen: Set<String> = []
        while true {
            let answer = try api.get(path, query: query + [("cursor", cursor)])
            items += answer[itemsKey]?.arrayValue ?? []
            let next = answer["next_cursor"]?.stringValue
            guard invocation.flag("all"), let next, seen.insert(next).inserted else {
                if !invocation.flag("all") { return (items, next, answer) }
                return (items, nil, .object(JSONObject([(key: itemsKey, value: JSONValue.array(items)), (key: "next_cursor", value: JSONValue.null)])))
            }
            cursor = next
        }
    }
}
