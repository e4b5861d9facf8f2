import VouchServerKit
extension ConsoleRoutes {
    /// A page and the form it posts to itself, both open to `access`.
    func form(_ router: inout APIRouter, _ pattern: String, _ access: ConsoleAccess, show: @escaping Handler, submit: @escaping Handler) {
        get(&router, pattern, access, show)
        post(&router, pattern, access, submit)
    }
}
