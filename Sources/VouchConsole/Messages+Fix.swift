import Foundation
import VouchConsoleKit
import VouchDomain

/// A fix's own words on a page, each marked with the language its author wrote them in where the page's differs.
extension Messages {
    func title(of fix: Fix) -> HTML { authored(fix.title, language: fix.language) }

    func area(of fix: Fix) -> HTML { authored(fix.uiArea, language: fix.language) }

    func expectedAnnouncement(of fix: Fix) -> HTML? { fix.expectedAnnouncement.map { authored($0, language: fix.language) } }
}

/// The staff pages' words that are not the catalog's.
extension Messages {
    /// Times on staff pages: in English as they have always read ("2 December 2026 at 14:03 UTC"), which staff
    /// tools and tests quote; in Japanese as `Messages` writes them ("2026年12月2日 14:03 UTC").
    func staffTime(_ date: Date) -> String { language == .en ? Words.time(date) : time(date) }

    func staffTimeElement(_ date: Date) -> HTML { language == .en ? Words.timeElement(date) : timeElement(date) }

    /// The services' and the criteria's English prose (docs/console.md, "Languages"), marked as English on a page in
    /// another language so a screen reader reads it in an English voice.
    func prose(_ text: String) -> HTML { authored(Words.prose(text), language: Language.en.rawValue) }
}
