import VouchCodec
import VouchDomain
import VouchHTTP

/// Every key vouchd knows, in the order `check-config` and the example file list them. This table is the one place
/// a setting's default, allowed values and explanation are written: the configuration parses and checks values
/// through it, the settings structs take their defaults from it, `vouchd print-example-config` writes
/// deploy/vouchd.conf.example from it, and tests hold docs/contracts.md and README.md to it.
package enum DaemonSettings {
    static let sections: [DaemonSettingSection] = [
        DaemonSettingSection("Server", settings: [
            DaemonSetting("listen", default: "127.0.0.1:8750", .listenAddress, """
                The address and port vouchd serves HTTP on: HOST:PORT, with an IPv6 address in brackets ([::1]:8750). \
                Port 0 picks a free port. vouchd speaks plain HTTP: to serve other machines, put a reverse proxy that \
                terminates TLS in front of it. The flag --listen overrides this.
                """),
            DaemonSetting("state_dir", default: "/var/lib/vouch", .path, """
                The folder that holds the database (vouch.sqlite3) and, after the first start, admin.token. vouchd \
                creates it with mode 0700 if it is missing. The systemd unit passes --state-dir /var/lib/vouch, which \
                overrides this key.
                """),
            DaemonSetting("log.level", default: "info", .oneOf(["debug", "info", "warning", "error"]), """
                How much vouchd logs: debug, info, warning or error. Logs are logfmt lines on standard error, which \
                systemd sends to the journal. They never hold a token, a secret or a tester's personal data. The flag \
                --log-level overrides this.
                """),
            DaemonSetting("log.requests", default: "true", .boolean, """
                Whether every answered request gets a line (method, route pattern, status, duration_ms, request_id) at \
                level info: true or false. Like nginx's access_log off, false keeps only events and errors.
                """),
        ]),
        DaemonSettingSection("HTTP", settings: [
            DaemonSetting("http.max_body_bytes", default: "65536", .integer(1_024...16_777_216), """
                The largest request body accepted, in bytes, from 1024 to 16777216. A larger body gets 413.
                """),
            DaemonSetting("http.max_header_bytes", default: "16384", .integer(RequestLimits.headerBytesRange), """
                The largest request line and headers together, in bytes, from 4096 to 65536. A larger head gets 431. \
                Each connection holds this much memory and 8 KiB more, which libmicrohttpd clears after every request: \
                where only SDKs call (their heads are well under 1 KiB), 4096 or 8192 saves CPU on every request. \
                Browsers with many cookies for this host can send heads of several KiB.
                """),
            DaemonSetting("http.threads", default: "0", .integer(0...256), """
                Threads that serve HTTP requests, from 0 to 256. 0 means one thread per processor.
                """),
            DaemonSetting("http.max_connections", default: "16384", .integer(1...1_048_576), """
                Open connections at once, from 1 to 1048576. Near this, vouchd first closes the connections that have \
                waited longest for a request (idle kept-alive ones, and ones whose headers have not arrived), so new \
                clients still get in; at it, new connections wait until one closes. Each connection is a file \
                descriptor: vouchd raises its open file limit to the hard limit (LimitNOFILE in the systemd unit) at \
                start, and lowers this setting, with a warning in the log, when the limit would not leave 128 to \
                spare. Open OFREP event streams count too (see ofrep.max_streams).
                """),
            DaemonSetting("http.max_connections_per_ip", default: "128", .integer(1...1_048_576), """
                Open connections at once from one client address, from 1 to 1048576; more are closed at once. Behind a \
                reverse proxy every connection comes from the proxy's address: then raise this to \
                http.max_connections.
                """),
            DaemonSetting("http.connection_timeout", default: "30s", .duration(1...3_600), """
                How long a connection may stay silent before vouchd closes it (a duration). A client that sends a byte \
                now and then is never silent for long: the next three settings are what stop it.
                """),
            DaemonSetting("http.header_timeout", default: "10s", .duration(1...3_600), """
                How long a client has to send a request's line and headers, from 1s to 1h: counted from the moment the \
                connection is accepted, or on a kept-alive connection from the end of the previous answer. A \
                connection that has not sent complete headers by then is closed without an answer, which also closes \
                idle kept-alive connections after this long.
                """),
            DaemonSetting("http.body_timeout", default: "10s", .duration(1...3_600), """
                How long a request body may take, from 1s to 1h, beyond what http.body_min_rate allows: the body's \
                deadline is this long after the headers, plus one second for every http.body_min_rate bytes received. \
                A connection past it is closed without an answer.
                """),
            DaemonSetting("http.body_min_rate", default: "500", .integer(1...1_073_741_824), """
                The slowest a request body may arrive once http.body_timeout is used up, in bytes per second, from 1 \
                to 1073741824. At the default, a 64 KiB body may take 10 s + 131 s; one byte every few seconds is cut \
                off after about 10 s.
                """),
            DaemonSetting("http.shutdown_timeout", default: "10s", .duration(0...3_600), """
                On SIGTERM, how long requests in flight may take to finish before vouchd closes their connections (a \
                duration). Keep it below TimeoutStopSec in the systemd unit (30s).
                """),
            DaemonSetting("http.worker_threads", default: "32", .integer(1...1_024), """
                Threads that finish requests which wait for something (every write waits for its commit, a webhook \
                registration for a DNS lookup), from 1 to 1024, while libmicrohttpd parks their connections, so its \
                own threads never wait. Many submissions waiting at once share one commit.
                """),
        ]),
        DaemonSettingSection("OFREP event streams (push to apps, OFREP's ADR-0008)", settings: [
            DaemonSetting("ofrep.event_streams", default: "true", .boolean, """
                Whether bulk answers offer an event stream: true or false. Set false when your apps' OFREP provider \
                fails on fields it does not know (the Kotlin provider 0.1 does).
                """),
            DaemonSetting("ofrep.public_url", default: "", .publicURL, """
                Where apps reach vouchd, when a proxy or TLS terminator stands in front: http(s)://host[:port][/path], \
                no query. Empty: the address the request was sent to (its Host header), over plain http.
                """),
            DaemonSetting("ofrep.stream_credential_ttl", default: "1h", .duration(60...86_400), """
                How long an event stream's address opens a stream, from 1m to 24h. Bulk answers carry the same address \
                for half of this, then a new one. Revoking the token closes its streams whatever this says.
                """),
            DaemonSetting("ofrep.stream_keepalive", default: "15s", .duration(1...300), """
                How often an idle stream gets a comment, from 1s to 300s, so proxies keep it open and a client that \
                left is noticed.
                """),
            DaemonSetting("ofrep.inactivity_delay", default: "120s", .duration(0...86_400), """
                What apps are told: close the stream after this long in the background (inactivityDelaySec).
                """),
            DaemonSetting("ofrep.max_streams", default: "12288", .integer(1...1_048_576), """
                Event streams open at once, from 1 to 1048576; more are answered 503. Keep it below http.max_connections \
                so polling apps and the API still get in.
                """),
            DaemonSetting("ofrep.max_streams_per_token", default: "8", .integer(1...65_536), """
                Event streams one person's token (every role but sdk) holds at once, from 1 to 65536; more are \
                answered 429 and its bulk answers offer none. sdk tokens stand for every install of an app and are \
                bounded by ofrep.max_streams and http.max_connections_per_ip.
                """),
        ]),
        DaemonSettingSection("Authentication", settings: [
            DaemonSetting("auth.max_failures", default: "20", .integer(1...100_000), """
                Failed token attempts from one address within auth.failure_window before vouchd answers that address \
                with 429 and Retry-After instead of checking more tokens. Only secrets that were never issued count; a \
                revoked token still in use gets 401 without counting. From 1 to 100000.
                """),
            DaemonSetting("auth.failure_window", default: "60s", .duration(1...86_400), """
                The window in which failed token attempts are counted (a duration).
                """),
        ]),
        DaemonSettingSection("Database", note: """
            SQLite in the state directory by default. Several vouchd can share one PostgreSQL database instead \
            (README, "Running several vouchd"; docs/storage.md).
            """, settings: [
            DaemonSetting("database.url", default: "", .databaseURL, """
                Empty: SQLite (vouch.sqlite3 in state_dir). Otherwise the PostgreSQL database, as a URL \
                (postgres://vouch@db.example.com:5432/vouch?sslmode=verify-full) or libpq settings \
                ('host=db.example.com dbname=vouch user=vouch'). Keep a password out of this file: use ~/.pgpass or \
                PGPASSFILE, or VOUCHD_DATABASE_URL in the service's environment. Logs and check-config never show one.
                """),
            DaemonSetting("database.lease", default: "30s", .duration(2...3_600), """
                With several vouchd on one PostgreSQL: how long one may hold shared work (the promotion timer, a \
                webhook delivery being sent) without being heard from, frozen or cut off, before another takes it over \
                (a duration from 2s to 1h). Longer than webhooks.timeout plus webhooks.dns_timeout.
                """),
            DaemonSetting("sqlite.synchronous", default: "full", .oneOf(["full", "normal"]), """
                full or normal. full: every write is on disk before vouchd answers it, so nothing that got a 2xx \
                answer is lost to a crash or a power loss (testers' feedback is precious). normal: faster, but a power \
                loss can lose the last answered writes (the database is not corrupted).
                """),
            DaemonSetting("sqlite.busy_timeout", default: "5s", .duration(0...3_600), """
                How long a database access waits for a lock held by another connection, such as a running vouchd \
                backup, before it fails (a duration).
                """),
        ]),
        DaemonSettingSection("Promotion criteria",
                             note: "Defaults for every fix. A fix can set its own with: vouch fix criteria KEY ...", settings: [
            DaemonSetting("criteria.min_testers_passed", default: "2", .integer(0...1_000), """
                Distinct testers whose latest verdict on the fix's current revision is passed, from 0 to 1000.
                """),
            DaemonSetting("criteria.required_assistive_tech", default: "ios:voiceover,android:talkback,web:nvda", .assistiveTechList, """
                Assistive technologies that at least one passing tester must have used, as platform:technology pairs \
                separated by commas; each applies only to fixes that ship on its platform, so an iOS-only fix never \
                waits for a TalkBack tester. An empty value requires none. Platforms: ios, android, web. Technologies: \
                voiceover, talkback, nvda, jaws, narrator, orca, chromevox, switch_control, switch_access, \
                voice_control, voice_access, braille_display, screen_magnifier, large_text, other.
                """),
            DaemonSetting("criteria.max_blocking", default: "0", .integer(0...1_000), """
                Blocking reports allowed, from 0 to 1000: latest feedback of severity serious or critical, or marked \
                as a regression.
                """),
            DaemonSetting("criteria.min_pass_ratio", default: "0.8", .ratio, """
                The share of latest verdicts that must be passed, from 0 to 1 (cant_tell is not counted). 0 turns this \
                criterion off.
                """),
            DaemonSetting("criteria.min_soak", default: "24h", .duration(0...DurationText.maximumSeconds), """
                How long the fix's current revision must have been in testing (a duration).
                """),
            DaemonSetting("criteria.approvals_required", default: "1", .integer(1...100), """
                Approvals needed, from 1 to 100, each by a release manager who is not the fix's author. Never 0: no \
                setting can make a fix promotable without a release manager.
                """),
            DaemonSetting("approvals.expire_after", default: "7d", .duration(60...DurationText.maximumSeconds), """
                How long an approval stays valid (a duration). A new failing feedback or a new revision voids it \
                sooner.
                """),
        ]),
        DaemonSettingSection("Webhooks", settings: [
            DaemonSetting("webhooks.retry_schedule", default: "5s,5m,30m,2h,5h,10h,14h,20h,24h", .durationList(0...7 * 86_400), """
                The delays before each retry of a failed delivery, as durations separated by commas. After the last \
                retry the delivery is dead; it can be sent again by hand.
                """),
            DaemonSetting("webhooks.timeout", default: "15s", .duration(1...600), """
                How long one delivery attempt may take (a duration).
                """),
            DaemonSetting("webhooks.allow_private_networks", default: "false", .boolean, """
                true or false. false refuses webhook endpoints whose address is on loopback or a private, link-local \
                or unique-local network, so that a webhook cannot reach inside your network. Set true only when the \
                receivers are on your own network.
                """),
            DaemonSetting("webhooks.dns_timeout", default: "2s", .duration(1...30), """
                How long adding a webhook, or changing its URL, waits for the host name to resolve (a duration from 1s \
                to 30s). A name the DNS server does not answer for in time is refused with a request to try again, so \
                a silent DNS server cannot hold the request; deliveries look the name up again before every attempt.
                """),
            DaemonSetting("webhooks.token_directory", default: "", .optionalPath, """
                The folder that holds the token files of github-dispatch webhooks, readable by vouchd only (mode \
                0700). A webhook names its file (vouch webhook add URL --format github-dispatch --token-file NAME), \
                whose first line is the token; it is read at every attempt and never stored, logged or shown. A folder \
                that is not there stops vouchd from starting. Empty allows no github-dispatch webhook.
                """),
        ]),
        DaemonSettingSection("Notifications by email (docs/notifications.md)", settings: [
            DaemonSetting("notifications.smtp_url", default: "", .smtpURL, """
                The mail relay notifications go through: smtps://host[:port] (TLS from the start, port 465 by default) \
                or smtp://host[:port] (STARTTLS required, port 25 by default; 587 is the usual submission port). On \
                loopback (127.0.0.1, ::1, localhost) smtp:// may be plain text. Empty sends no mail and queues none. \
                Needs notifications.from and an https:// console.public_url, where the mails' links point.
                """),
            DaemonSetting("notifications.from", default: "", .mailAddress, """
                The sender of notifications, a plain address such as vouch@example.com, which the relay must accept.
                """),
            DaemonSetting("notifications.credentials_file", default: "", .optionalPath, """
                A file whose first line is the relay's user name and second line its password, readable by vouchd \
                only (mode 0600). Empty logs in to no one, for a relay that trusts this machine.
                """),
            DaemonSetting("notifications.timeout", default: "30s", .duration(1...600), """
                How long one attempt at sending a mail may take, connecting included (a duration from 1s to 10m). A \
                failed attempt that may succeed later is retried on webhooks.retry_schedule.
                """),
        ]),
        DaemonSettingSection("Phased rollout (vouch fix rollout KEY --phased)", settings: [
            DaemonSetting("rollout.phased_steps", default: "1,2,5,10,20,50,100", .percentageList, """
                The percentages of users a phased rollout goes through: increasing, from 1 to 100, ending with 100.
                """),
            DaemonSetting("rollout.phased_interval", default: "24h", .duration(RolloutPlan.intervalRange), """
                How long each step lasts before the next one (a duration). A blocking report pauses the rollout.
                """),
        ]),
        DaemonSettingSection("Web apps (CORS)", settings: [
            DaemonSetting("ofrep.cors_origins", default: "*", .originList, """
                Which web origins may call OFREP (/ofrep/) from a page: * for any, or origins separated by commas, \
                each scheme://host or scheme://host:port with no path, such as \
                https://app.example.com,http://localhost:3000 (a host that is not ASCII in its xn-- form). No other \
                route is open to other origins. * is safe here: apps send their sdk token in a header and no cookie is \
                involved. A list lets only your own apps' pages read the answers.
                """),
        ]),
        DaemonSettingSection("Web console (/console/; docs/console.md)", settings: [
            DaemonSetting("console.enabled", default: "true", .boolean, """
                true or false. false serves no console: only the API, OFREP, health and metrics.
                """),
            DaemonSetting("console.public_url", default: "", .publicURL, """
                The address people open the console at, such as https://vouch.example.com: testers' personal links \
                start with it. Empty uses http:// and the Host the request was sent to. When it starts with https://, \
                session cookies are marked Secure (so are they when a proxy sends X-Forwarded-Proto: https).
                """),
            DaemonSetting("console.session_idle_timeout", default: "24h", .duration(300...30 * 86_400), """
                A console session not used for this long ends (a duration from 5m to 30d). 24h by default: WCAG 2.2 \
                success criterion 2.2.1 allows a time limit without a warning only when it is longer than 20 hours, so \
                a shorter one may cost a slow or interrupted tester her session.
                """),
            DaemonSetting("console.session_lifetime", default: "7d", .duration(3_600...90 * 86_400), """
                No activity keeps a console session longer than this (a duration from 1h to 90d).
                """),
            DaemonSetting("console.link_valid_for", default: "14d", .duration(ConsoleSettings.linkValidRange), """
                How long a new personal link works (a duration from 1h to 90d), unless vouch tester link --valid-for \
                says.
                """),
            DaemonSetting("console.default_language", default: "en", .oneOf(ConsoleSettings.languages), """
                The language of the console's pages, en or ja, for a person who has not chosen one with the \
                language links and whose browser asks for neither (Accept-Language).
                """),
        ]),
        DaemonSettingSection("Staff sign-in through an identity provider (OpenID Connect; docs/sign-in.md)", note: """
            Set console.oidc.issuer, console.oidc.client_id and console.oidc.roles to let staff sign in to the console \
            through the organisation's OpenID Provider. Register the redirect address with the provider. \
            vouchd check-config fetches the provider's discovery document and keys and says what it found.
            """, settings: [
            DaemonSetting("console.oidc.issuer", default: "", .issuerURL, """
                The provider's issuer, exactly as its ID tokens' iss claim gives it, such as \
                https://login.example.com/realms/staff; its discovery document is read from \
                ISSUER/.well-known/openid-configuration. https://, or http:// to a loopback address only. Empty: no \
                sign-in through a provider.
                """),
            DaemonSetting("console.oidc.client_id", default: "", .text(maxCharacters: 255), """
                The client id the provider gave vouchd's console; ID tokens must name it in aud.
                """),
            DaemonSetting("console.oidc.client_secret_file", default: "", .text(maxCharacters: 4_096), """
                A file holding the client secret (on its first line), readable by vouchd only. Empty: a public client, \
                which proves itself with PKCE alone. The secret itself is never written in this file or logged.
                """),
            DaemonSetting("console.oidc.redirect_url", default: "", .publicURL, """
                The address the provider sends the browser back to after sign-in, registered with the provider. \
                Empty: console.public_url followed by /console/sign-in/oidc/callback.
                """),
            DaemonSetting("console.oidc.scopes", default: "openid email profile groups", .scopeList, """
                The scopes asked for, separated by spaces; openid must be one of them. Ask for the scopes that put \
                the role claim and the principal claim into the ID token.
                """),
            DaemonSetting("console.oidc.role_claim", default: "groups", .claimName, """
                The ID token claim whose values are mapped to roles by console.oidc.roles: a string or an array of \
                strings, such as groups or roles.
                """),
            DaemonSetting("console.oidc.roles", default: "", .roleMapping, """
                Which value of the role claim gives which role, as VALUE=ROLE pairs separated by commas, such as \
                vouch-admins=admin,vouch-release-managers=release_manager,vouch-maintainers=maintainer. Roles: \
                admin, release_manager, maintainer. When several of a person's values are mapped, the first pair here \
                that matches gives her role; a person with none is refused with a page that says so.
                """),
            DaemonSetting("console.oidc.principal_claim", default: "email", .claimName, """
                The ID token claim that names the person, normalised like every principal: someone who signs in \
                through the provider and holds a token under the same principal is one person for four-eyes.
                """),
            DaemonSetting("console.token_sign_in", default: "true", .boolean, """
                true or false. false hides signing in to the console with a token, so staff sign in through the \
                provider only; keep true for break-glass use. false needs console.oidc.issuer.
                """),
        ]),
        DaemonSettingSection("The testing programme (docs/invitations.md)", settings: [
            DaemonSetting("operator.name", default: "", .text(maxCharacters: 200), """
                Who runs the testing programme and is responsible for testers' data (the controller under the GDPR), \
                as testers read it before they consent, such as Example Media Ltd. Invitations cannot be made until \
                this and operator.contact are set.
                """),
            DaemonSetting("operator.contact", default: "", .text(maxCharacters: 200), """
                Where testers reach the operator about their data, such as privacy@example.com or a web address; \
                shown with operator.name on the consent page.
                """),
            DaemonSetting("consent.texts_directory", default: "", .text(maxCharacters: 4_096), """
                A directory of the operator's own consent texts, one file per version and language named \
                VERSION.LANGUAGE.txt (such as 2026-12.ja.txt), which then replace the ones built into vouchd; testers \
                are shown the newest version, which must exist in en and ja. Empty: the texts built in. A text \
                testers agreed to stays readable by its version however the files change (docs/invitations.md).
                """),
        ]),
        DaemonSettingSection("Evidence export (docs/evidence.md)", settings: [
            DaemonSetting("report.product_name", default: "", .text(maxCharacters: 200), """
                The product an Accessibility Conformance Report speaks for, such as Example TV, when the request \
                names none (vouch evidence report --product, the console's report page). Empty: each request must \
                name it. The report's author is operator.name.
                """),
        ]),
    ]

    static let all: [DaemonSetting] = sections.flatMap(\.settings)

    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })

    /// The setting of a key, or nil for a key vouchd does not know.
    static func setting(_ key: String) -> DaemonSetting? { byKey[key] }
}
