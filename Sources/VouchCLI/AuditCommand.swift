/// `vouch audit [--fix KEY] [--action A] [--principal P] [--since T] [--until T]`: who changed what, and when, oldest first.
enum AuditCommand {
    static func command() -> Command {
        Command(
            name: "audit", abstract: "List the audit events: who changed what, and when, oldest first.",
            options: [.single("fix", "key", help: "Only the events of this fix."),
                      .single("action", "action", help: "Only the events of this action, such as fix.criteria."),
                      .single("principal", "name", help: "Only the events by this principal, as recorded."),
                      .single("since", "time", help: "Only the events at or after this day (2026-12-04, UTC) or RFC 3339 time."),
                      .single("until", "time", help: "Only the events before this time, or up to the end of this day.")]
                + ListPager.options("events")
        ) { context in
            let pager = ListPager(api: context.api, path: "/v1/audit", itemsKey: "events")
            let query = ["fix", "action", "principal", "since", "until"].map { ($0, context.invocation.value($0)) }
            let page = try pager.fetch(query: query, invocation: context.invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), OutputFormatter.eventLine, "event", "events") }
        }
    }
}
