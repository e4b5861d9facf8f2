import Foundation

extension HostResolver {
    /// getaddrinfo for any address family; blocks for as long as the system's resolver takes.
    public static let systemLookup: Lookup = { name in
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0 else {
            return notFoundStatuses.contains(status) ? .notFound : .failed(String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var cursor = list
        while let entry = cursor {
            if let text = numericHost(entry.pointee.ai_addr, length: entry.pointee.ai_addrlen), !addresses.contains(text) {
                addresses.append(text)
            }
            cursor = entry.pointee.ai_next
        }
        return addresses.isEmpty ? .notFound : .addresses(addresses)
    }

    /// getaddrinfo's answers for a name that does not exist or has no address: EAI_NONAME, and glibc's EAI_NODATA (-5)
    /// and EAI_ADDRFAMILY (-9), which netdb.h defines only for _GNU_SOURCE, so Swift does not see their names.
    static let notFoundStatuses: Set<Int32> = [EAI_NONAME, -5, -9]

    static func numericHost(_ address: UnsafeMutablePointer<sockaddr>?, length: socklen_t) -> String? {
        guard let address else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
