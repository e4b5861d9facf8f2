/// `vouch audit [--fix KEY]`: who changed what, and when, oldest first.
enum AuditCommand {
    static func command() -> Command {
        Command(
            name: "audit", abstract: "List the audit events: who changed what, and when, oldest first.",
            options: [.single("fix", "key", help: "Only the events of this fix.")] + ListPager.options("events")
        ) { context in
            let pager = ListPager(api: context.api, path: "/v1/audit", itemsKey: "events")
            let page = try pager.fetch(query: [("fix", context.invocation.value("fix"))], invocation: context.invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), OutputFormatter.eventLine, "event", "events") }
        }
    }
}
