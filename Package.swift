// swift-tools-version:6.0
import PackageDescription

// The folder tree is the architecture: VouchDomain is pure (no C, no I/O) and everything
// else points toward it; the C libraries enter only through the systemLibrary targets.
let package = Package(
    name: "Vouch",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vouchd", targets: ["vouchd"]),
        .executable(name: "vouch", targets: ["vouch"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CEpoll"),
        .systemLibrary(name: "CThreadLocal"),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        .target(name: "VouchDomain"),
        .target(name: "VouchJSON"),
        // Notification mail composed as bytes (MIME, RFC 2047 headers) and the SMTP URL's rules: no C, no I/O.
        .target(name: "VouchMail"),
        .target(name: "VouchCrypto", dependencies: ["CCrypto"]),
        .target(name: "VouchCodec", dependencies: ["VouchDomain", "VouchJSON"]),
        // Principal names' Unicode normalisation and confusable skeletons, through the ICU that ships inside the toolchain's Foundation.
        .target(name: "VouchIdentity", dependencies: ["VouchDomain"], linkerSettings: [.linkedLibrary("_FoundationICU")]),
        // ID tokens from an organisation's identity provider: JOSE parsing, key sets, signatures through VouchCrypto,
        // OpenID Connect's claim checks. No I/O: the daemon fetches, this decides.
        .target(name: "VouchOIDC", dependencies: ["VouchCrypto", "VouchJSON"]),
        .target(name: "VouchStore", dependencies: ["VouchDomain", "VouchCodec", "VouchJSON", "VouchIdentity", "CSQLite", "CPostgres"], plugins: ["EmbedMigrations"]),
        // Per-thread stripes and counters the hot paths share without contention; no I/O.
        .target(name: "VouchConcurrency", dependencies: ["CThreadLocal"]),
        .target(name: "VouchHTTP", dependencies: ["VouchJSON", "VouchConcurrency", "CMicroHTTPD"]),
        .target(name: "VouchWebhooks", dependencies: ["VouchDomain", "VouchStore", "VouchCrypto", "VouchClient", "VouchJSON"]),
        // The rules each write and read follows, once for the API and the console: no HTTP here, so the compiler holds
        // that a service knows nothing of requests or answers.
        .target(name: "VouchServices", dependencies: ["VouchDomain", "VouchStore", "VouchCodec", "VouchJSON", "VouchCrypto", "VouchIdentity", "VouchMail"],
                plugins: ["EmbedConsentTexts"]),
        // The web console's HTML: pure rendering from domain values, no I/O.
        .target(name: "VouchConsoleKit", dependencies: ["VouchDomain"], plugins: ["EmbedMessages"]),
        // What the API, the console and the daemon share: the settings table, routing and error answers, the token
        // directory and address limits, CORS, the OFREP snapshot, metrics.
        .target(name: "VouchServerKit", dependencies: ["VouchMail", "VouchDomain", "VouchJSON", "VouchCodec", "VouchCrypto", "VouchStore", "VouchHTTP", "VouchWebhooks",
                                                    "VouchConcurrency", "VouchServices", "VouchIdentity", "VouchOIDC"]),
        // The JSON API and OFREP (with its event streams): controllers that turn requests into service calls.
        .target(name: "VouchAPI", dependencies: ["VouchServerKit", "VouchDomain", "VouchJSON", "VouchCodec", "VouchCrypto", "VouchStore", "VouchHTTP",
                                              "VouchWebhooks", "VouchServices"],
            plugins: ["EmbedOpenAPIDocument"]),
        // The web console's pages: the same services as the API, answered as HTML built with VouchConsoleKit.
        .target(name: "VouchConsole", dependencies: ["VouchServerKit", "VouchConsoleKit", "VouchDomain", "VouchJSON", "VouchCodec", "VouchCrypto",
                                                  "VouchIdentity", "VouchStore", "VouchHTTP", "VouchWebhooks", "VouchServices", "VouchOIDC"]),
        // The application: the API and the console on one router, the request pipeline, the OFREP fast path, and what
        // follows the store's changes.
        .target(name: "VouchServer", dependencies: ["VouchServerKit", "VouchNotifications", "VouchMail", "VouchClient", "VouchAPI", "VouchConsole", "VouchDomain", "VouchJSON", "VouchCrypto", "VouchStore",
                                                 "VouchHTTP", "VouchWebhooks", "VouchServices"]),
        // The process: configuration file, state directory, signals, systemd, backups.
        .target(name: "VouchDaemon", dependencies: ["VouchClient", "VouchMail", "VouchServer", "VouchServerKit", "VouchDomain", "VouchJSON", "VouchCrypto", "VouchIdentity", "VouchStore", "VouchHTTP",
                                                 "VouchWebhooks", "VouchServices", "VouchOIDC"]),
        .target(name: "VouchNotifications", dependencies: ["VouchDomain", "VouchStore", "VouchMail", "VouchClient", "VouchConsoleKit", "VouchServices"]),
        .target(name: "VouchClient", dependencies: ["VouchMail", "CCurl"]),
        .target(name: "VouchCLI", dependencies: ["VouchDomain", "VouchJSON", "VouchCodec", "VouchClient"]),

        .executableTarget(name: "vouchd", dependencies: ["VouchDaemon"]),
        .executableTarget(name: "vouch", dependencies: ["VouchCLI"]),
        // Schema/*.sql, openapi/vouch.openapi.json, the console's Catalogs/*.txt and the consent texts are compiled in at build time, so the
        // binaries need no source tree: the plugins run vouch-embed, which turns each file into Swift source of its exact text.
        .executableTarget(name: "vouch-embed"),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["vouch-embed"]),
        .plugin(name: "EmbedOpenAPIDocument", capability: .buildTool(), dependencies: ["vouch-embed"]),
        .plugin(name: "EmbedMessages", capability: .buildTool(), dependencies: ["vouch-embed"]),
        .plugin(name: "EmbedConsentTexts", capability: .buildTool(), dependencies: ["vouch-embed"]),

        .executableTarget(name: "vouch-bench", dependencies: ["CEpoll", "VouchNotifications", "VouchMail", "VouchServices", "VouchServer", "VouchDomain", "VouchJSON", "VouchStore", "VouchCodec", "VouchHTTP", "VouchClient", "VouchWebhooks"]),

        .testTarget(name: "VouchDomainTests", dependencies: ["VouchDomain"], resources: [.copy("Fixtures")]),
        .testTarget(name: "VouchJSONTests", dependencies: ["VouchJSON"]),
        .testTarget(name: "VouchIdentityTests", dependencies: ["VouchIdentity", "VouchDomain"]),
        .testTarget(name: "VouchCryptoTests", dependencies: ["VouchCrypto"], exclude: ["standard-webhooks-vectors.json"]),
        .testTarget(name: "VouchOIDCTests", dependencies: ["VouchOIDC", "VouchCrypto", "VouchJSON", "VouchServerKit", "VouchDomain"]),
        .testTarget(name: "VouchWebhooksTests", dependencies: ["VouchWebhooks", "VouchDomain", "VouchStore", "VouchClient", "VouchTestSupport"],
                    exclude: ["standard-webhooks-vectors.json"]),
        // What several test targets share: the built vouchd as a child process, a webhook receiver, a temporary directory
        // per test, raw TCP connections, and a fresh PostgreSQL database per test (from VOUCH_TEST_POSTGRES_URL).
        // Nothing of the server's: a test of the HTTP layer or the CLI builds without it.
        .target(name: "VouchTestSupport", dependencies: ["VouchStore", "VouchJSON"], path: "Tests/VouchTestSupport"),
        .testTarget(name: "VouchServicesTests", dependencies: ["VouchServices", "VouchStore", "VouchDomain", "VouchJSON"]),
        .testTarget(name: "VouchStoreTests", dependencies: ["VouchStore", "VouchDomain", "VouchIdentity", "VouchTestSupport"]),
        // The HTTP layer alone (libmicrohttpd's server, connections, headers, limits), without the application.
        .testTarget(name: "VouchHTTPTests", dependencies: ["VouchHTTP", "VouchJSON", "VouchTestSupport", "CMicroHTTPD"]),
        .testTarget(name: "VouchServerTests", dependencies: ["VouchNotifications", "VouchMail", "VouchServer", "VouchServerKit", "VouchAPI", "VouchCodec", "VouchConsole", "VouchDaemon", "VouchClient", "VouchJSON", "VouchDomain", "VouchStore", "VouchHTTP", "VouchWebhooks",
                                                     "VouchCrypto", "VouchTestSupport", "VouchConcurrency", "VouchServices", "VouchIdentity", "VouchOIDC"]),
        .testTarget(name: "VouchCLITests", dependencies: ["VouchCLI", "VouchJSON", "VouchConsoleKit", "VouchDomain", "VouchStore", "VouchTestSupport"]),
        .testTarget(name: "VouchEmbedTests", dependencies: ["vouch-embed"]),
        .testTarget(name: "VouchConsoleKitTests", dependencies: ["VouchConsoleKit"]),
        // Composition read back, and SMTPClient against a real SMTP server (aiosmtpd, from VOUCH_TEST_PYTHON).
        .testTarget(name: "VouchMailTests", dependencies: ["VouchMail", "VouchClient", "VouchTestSupport"]),
        // Reads Package.swift and every import line: the layering of docs/architecture.md, held by a test.
        .testTarget(name: "VouchArchitectureTests"),
    ]
)
