import Foundation
import VouchConsoleKit
import VouchStore

/// Whether a personal link still signs its tester in, in words.
enum LinkStatus {
    case active
    case expired
    case revoked

    init(_ link: TesterLink, at time: Date) {
        self = link.revokedAt != nil ? .revoked : (link.opens(at: time) ? .active : .expired)
    }

    func tag(_ messages: Messages = .english) -> StatusTag {
        switch self {
        case .active: StatusTag(messages[.testerWordsActive], tone: .good)
        case .expired: StatusTag(messages[.linkStatusExpired])
        case .revoked: StatusTag(messages[.linkStatusRevoked])
        }
    }
}
