import Foundation

/// A real `vouchd` on port 0 in a unique temporary state directory, for tests that talk to a server.
///
/// Call `stop()` in a `defer`, so the daemon gets SIGTERM even when the test fails.
final class LiveServer {
    let directory: URL
    let url: String
    let adminToken: String
    private let process: Process

    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// - Parameter environment: `VOUCHD_*` settings for this daemon, over the test process's own environment.
    init(environment: [String: String] = [:]) throws {
        directory = try BuiltProduct.makeTemporaryDirectory("vouch-cli-test")
        let stateDirectory = directory.appendingPathComponent("state")
        let logURL = directory.appendingPathComponent("vouchd.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProduct.path("vouchd"))
        process.arguments = ["--state-dir", stateDirectory.path, "--listen", "127.0.0.1:0"]
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log
        try process.run()
        // vouchd logs `msg=listening http.host=127.0.0.1 http.port=40123` once it accepts connections.
        var port: String?
        let deadline = Date().addingTimeInterval(10)
        while port == nil && Date() < deadline && process.isRunning {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.contains("msg=listening") }),
               let field = line.split(separator: " ").first(where: { $0.hasPrefix("http.port=") }) {
                port = String(field.dropFirst("http.port=".count))
            } else {
                usleep(20_000)
            }
        }
        let token = try? String(contentsOf: stateDirectory.appendingPathComponent("admin.token"), encoding: .utf8)
        guard let port, let token else {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            LiveServer.terminate(process)
            try? FileManager.default.removeItem(at: directory)
            throw StartFailure(description: "vouchd did not start within 10 s; its log:\n\(text)")
        }
        url = "http://127.0.0.1:\(port)"
        adminToken = token.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Which token a run sends through VOUCH_TOKEN.
    enum Credential {
        case admin
        case token(String)
        case none
    }

    /// Runs `vouch` against this server through VOUCH_URL, with the admin token unless told otherwise.
    func vouch(_ arguments: String..., as credential: Credential = .admin) throws -> VouchRun {
        try vouch(arguments, as: credential)
    }

    func vouch(_ arguments: [String], as credential: Credential = .admin) throws -> VouchRun {
        try VouchRun.run(arguments, environment: environment(credential))
    }

    /// VOUCH_URL and, for the credential, VOUCH_TOKEN.
    func environment(_ credential: Credential = .admin) -> [String: String] {
        var environment = ["VOUCH_URL": url]
        switch credential {
        case .admin: environment["VOUCH_TOKEN"] = adminToken
        case .token(let token): environment["VOUCH_TOKEN"] = token
        case .none: break
        }
        return environment
    }

    /// Sends SIGTERM, waits for the daemon to exit, and removes its directory.
    func stop() {
        LiveServer.terminate(process)
        try? FileManager.default.removeItem(at: directory)
    }

    private static func terminate(_ process: Process) {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
