import VouchDomain

/// A principal asked for something their role or their tester does not reach. The description is a whole sentence
/// a person can act on, and the API answers it as a 403 problem's detail.
public struct AccessDenied: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    /// Refuses a principal whose role does not grant `permission`.
    public static func unless(_ principal: Principal, may permission: Permission) throws(AccessDenied) {
        guard principal.allows(permission) else { throw AccessDenied(lacking: permission, principal) }
    }

    /// Refuses a principal whose role grants none of `permissions`; the words name the first.
    public static func unless(_ principal: Principal, mayAnyOf permissions: [Permission]) throws(AccessDenied) {
        guard permissions.contains(where: principal.allows) else { throw AccessDenied(lacking: permissions[0], principal) }
    }

    /// "the role tester may not do this; it needs a role that can …".
    /// An sdk token without flag definitions hears how to make one that has them.
    public init(lacking permission: Permission, _ principal: Principal) {
        if principal.lacksFlagDefinitionsOption(for: permission) {
            self.init("this sdk token was not made for flag definitions, which list every targeted key; make one for your flagd with "
                + "'vouch token create --role sdk --flag-definitions' (API: \"flag_definitions\": true) and never build it into an app")
            return
        }
        self.init("the role \(principal.role.rawValue) may not do this; it needs a role that can \(permission.phrase)")
    }
}
