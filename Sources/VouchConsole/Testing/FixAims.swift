import VouchConsoleKit
import VouchDomain

/// What a fix should make better, in a tester's words, from its WCAG criteria: tester pages never show WCAG numbers or
/// the guidelines' own names, and ask only about what the fix touches (docs/console.md, "Tester pages").
struct FixAims {
    /// The questions of the announcements page, by the API's field names, in the page's order.
    static let announcementFields = ["name_announced", "role_announced", "state_announced", "focus_order"]

    let fix: Fix

    /// "Pictures and icons are read out in words that say what they are", one line per criterion the fix cites; a
    /// criterion without words of its own here is said as a change of another kind, never by its number or name.
    func aims(_ messages: Messages) -> [String] {
        var seen: Set<MessageKey> = []
        return fix.wcag.compactMap { number in
            let aim = FixAims.words[number]?.aim ?? .aimOther
            return seen.insert(aim).inserted ? messages[aim] : nil
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

    private static let name = "name_announced"
    private static let role = "role_announced"
    private static let state = "state_announced"
    private static let order = "focus_order"

    /// The criteria fixes cite most, as what a person notices when they are met, and which questions they concern.
    private static let words: [String: (aim: MessageKey, asks: [String])] = [
        "1.1.1": (.aimTextAlternatives, [name]),
        "1.3.1": (.aimInfoAndRelationships, [name, role]),
        "1.3.2": (.aimMeaningfulSequence, [order]),
        "1.3.5": (.aimInputPurpose, [name]),
        "1.4.1": (.aimUseOfColor, []),
        "1.4.3": (.aimContrast, []),
        "1.4.4": (.aimResizeText, []),
        "1.4.10": (.aimReflow, []),
        "1.4.11": (.aimNonTextContrast, []),
        "1.4.12": (.aimTextSpacing, []),
        "1.4.13": (.aimContentOnHover, []),
        "2.1.1": (.aimKeyboard, [order]),
        "2.1.2": (.aimNoKeyboardTrap, [order]),
        "2.4.1": (.aimBypassBlocks, []),
        "2.4.2": (.aimPageTitled, [name]),
        "2.4.3": (.aimFocusOrder, [order]),
        "2.4.4": (.aimLinkPurpose, [name]),
        "2.4.6": (.aimHeadingsAndLabels, [name]),
        "2.4.7": (.aimFocusVisible, []),
        "2.4.11": (.aimFocusNotObscured, [order]),
        "2.5.3": (.aimLabelInName, [name]),
        "2.5.8": (.aimTargetSize, []),
        "3.2.1": (.aimOnFocus, [order]),
        "3.2.2": (.aimOnInput, []),
        "3.3.1": (.aimErrorIdentification, [name]),
        "3.3.2": (.aimLabelsOrInstructions, [name]),
        "4.1.2": (.aimNameRoleValue, [name, role, state]),
        "4.1.3": (.aimStatusMessages, [name]),
    ]
}
