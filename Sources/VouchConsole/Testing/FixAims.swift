import VouchDomain

/// What a fix should make better, in a tester's words, from its WCAG criteria: tester pages never show WCAG numbers or
/// the guidelines' own names, and ask only about what the fix touches (docs/console.md, "Tester pages").
struct FixAims {
    /// The questions of the announcements page, by the API's field names, in the page's order.
    static let announcementFields = ["name_announced", "role_announced", "state_announced", "focus_order"]

    let fix: Fix

    /// "Pictures and icons are read out in words that say what they are", one line per criterion the fix cites; a
    /// criterion without words of its own here is said as the change it is about, never by its number.
    var aims: [String] {
        var seen: Set<String> = []
        return fix.wcag.compactMap { number in
            let aim = FixAims.words[number]?.aim ?? FixAims.fallback(number)
            return seen.insert(aim).inserted ? aim : nil
        }
    }

    /// The announcement questions that concern this fix: those its criteria are about, and those its expected
    /// announcement spells out ("NHK, button, selected": a name, a kind and a state). A fix that says neither is asked
    /// all four, since nothing tells which do not apply.
    var announcementQuestions: [String] {
        var fields = Set(fix.wcag.flatMap { FixAims.words[$0]?.asks ?? [] })
        let parts = (fix.expectedAnnouncement ?? "").split(separator: ",").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        fields.formUnion(FixAims.announcementFields.prefix(min(parts.count, 3)))
        return fields.isEmpty ? FixAims.announcementFields : FixAims.announcementFields.filter(fields.contains)
    }

    private static func fallback(_ number: String) -> String {
        let name = WCAGCatalog.criteria.first { $0.number == number }?.name.lowercased() ?? "accessibility"
        return "It improves the app's \(name)"
    }

    private static let name = "name_announced"
    private static let role = "role_announced"
    private static let state = "state_announced"
    private static let order = "focus_order"

    /// The criteria fixes cite most, as what a person notices when they are met, and which questions they concern.
    private static let words: [String: (aim: String, asks: [String])] = [
        "1.1.1": ("Pictures, logos and icons are read out in words that say what they are", [name]),
        "1.3.1": ("Headings, lists, tables and labels are announced as what they are", [name, role]),
        "1.3.2": ("Things are read out in an order that makes sense", [order]),
        "1.3.5": ("Form fields say what they are for, so they can be filled in for you", [name]),
        "1.4.1": ("Nothing is shown by colour alone", []),
        "1.4.3": ("Text stands out clearly from its background", []),
        "1.4.4": ("Text can be made twice as large without anything being cut off", []),
        "1.4.10": ("Everything fits the screen when zoomed in, without scrolling sideways", []),
        "1.4.11": ("Buttons, fields and icons stand out clearly from their background", []),
        "1.4.12": ("Text stays readable with more space between letters, words and lines", []),
        "1.4.13": ("Pop-ups that appear on hover or focus stay put and can be closed", []),
        "2.1.1": ("Everything works with a keyboard, a switch or other input, not only touch or a mouse", [order]),
        "2.1.2": ("You can always move away from any part, without getting stuck", [order]),
        "2.4.1": ("You can skip past blocks that repeat on every screen", []),
        "2.4.2": ("Each screen has a title that says what it is", [name]),
        "2.4.3": ("Moving through it goes in a sensible order", [order]),
        "2.4.4": ("Each link says where it goes", [name]),
        "2.4.6": ("Headings and labels say what they are about", [name]),
        "2.4.7": ("You can see where you are as you move through it", []),
        "2.4.11": ("What you move to is not hidden behind other things", [order]),
        "2.5.3": ("What you see on a control is part of what it is called, so voice control finds it", [name]),
        "2.5.8": ("Controls are big enough to tap easily", []),
        "3.2.1": ("Nothing changes unexpectedly when you move to something", [order]),
        "3.2.2": ("Nothing changes unexpectedly when you choose or type something", []),
        "3.3.1": ("Mistakes in a form are pointed out in words", [name]),
        "3.3.2": ("Form fields have labels or instructions", [name]),
        "4.1.2": ("Each control says its name, what kind of control it is and its state", [name, role, state]),
        "4.1.3": ("Messages about what happened are read out without moving you", [name]),
    ]
}
