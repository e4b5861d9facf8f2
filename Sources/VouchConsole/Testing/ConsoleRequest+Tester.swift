import VouchHTTP

extension ConsoleRequest {
    /// The signed-in tester's pseudonym; routes open to testers only are reached with one.
    var testerID: String {
        get throws {
            guard let testerID = try signedIn.testerID else { throw Problem(status: 403, detail: "this page is for testers") }
            return testerID
        }
    }
}
