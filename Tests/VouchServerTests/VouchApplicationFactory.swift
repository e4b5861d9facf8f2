import Foundation
@testable import VouchServer
import VouchServices
import VouchStore

enum VouchApplicationFactory {
    /// A second application over the same database file, as after a restart.
    static func reopen(_ server: InProcessServer) throws -> VouchApplication {
        try VouchApplication(store: try RelationalStore(path: server.directory + "/vouch.sqlite3"), logger: Logger(level: .error, sink: { _ in }))
    }
}
