/// The architecture as a table: each module's layer, lowest first. A module may depend on modules of lower layers
/// only, so every arrow points toward the domain (docs/architecture.md, "Modules"). A new module gets a row here.
enum ModuleLayers {
    static let layers: [(name: String, modules: Set<String>)] = [
        ("pure values", ["VouchDomain", "VouchJSON", "VouchMail"]),
        ("encodings, identity, cryptography, outbound HTTP and SMTP, shared-memory helpers, HTML components",
         ["VouchCodec", "VouchIdentity", "VouchCrypto", "VouchClient", "VouchConcurrency", "VouchConsoleKit"]),
        ("storage, the HTTP server, and ID token checks", ["VouchStore", "VouchHTTP", "VouchOIDC"]),
        ("the rules (services) and the outbound worker", ["VouchServices", "VouchWebhooks"]),
        ("what the API, the console and the daemon share: settings, routing, token directory, limits, snapshot, metrics; and the mail worker",
         ["VouchServerKit", "VouchNotifications"]),
        ("the JSON API and OFREP, and the console's pages, side by side", ["VouchAPI", "VouchConsole"]),
        ("the application: one router and request pipeline over both, and the command line", ["VouchServer", "VouchCLI"]),
        ("the process: configuration file, state directory, signals", ["VouchDaemon"]),
        ("executables", ["vouchd", "vouch", "vouch-bench", "vouch-embed"]),
    ]

    /// Modules that hold no I/O and no C: they may import the standard library and Foundation's value types only.
    static let pure: Set<String> = ["VouchDomain", "VouchJSON", "VouchMail"]

    /// Modules from the toolchain itself, which any module may import.
    static let toolchain: Set<String> = ["Foundation", "FoundationEssentials", "Dispatch", "Synchronization", "Glibc", "Darwin", "Musl",
                                         "_FoundationICU", "Testing", "XCTest", "PackagePlugin"]

    static func layer(of module: String) -> Int? { layers.firstIndex { $0.modules.contains(module) } }
}
