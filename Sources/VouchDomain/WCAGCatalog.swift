import Foundation

/// The WCAG 2.2 success criteria a fix or a feedback may cite.
///
/// Copied from the W3C list (WCAG 2.2, 2023); a test compares it with `Tests/VouchDomainTests/Fixtures/wcag22-success-criteria.tsv`.
/// 4.1.1 Parsing is listed because people still cite it, and refused because WCAG 2.2 removed it.
public enum WCAGCatalog {
    public struct Criterion: Sendable, Equatable {
        public var number: String
        public var name: String
        /// `A`, `AA`, `AAA`, or `obsolete`.
        public var level: String
    }

    public static let criteria: [Criterion] = [
        Criterion(number: "1.1.1", name: "Non-text Content", level: "A"),
        Criterion(number: "1.2.1", name: "Audio-only and Video-only (Prerecorded)", level: "A"),
        Criterion(number: "1.2.2", name: "Captions (Prerecorded)", level: "A"),
        Criterion(number: "1.2.3", name: "Audio Description or Media Alternative (Prerecorded)", level: "A"),
        Criterion(number: "1.2.4", name: "Captions (Live)", level: "AA"),
        Criterion(number: "1.2.5", name: "Audio Description (Prerecorded)", level: "AA"),
        Criterion(number: "1.2.6", name: "Sign Language (Prerecorded)", level: "AAA"),
        Criterion(number: "1.2.7", name: "Extended Audio Description (Prerecorded)", level: "AAA"),
        Criterion(number: "1.2.8", name: "Media Alternative (Prerecorded)", level: "AAA"),
        Criterion(number: "1.2.9", name: "Audio-only (Live)", level: "AAA"),
        Criterion(number: "1.3.1", name: "Info and Relationships", level: "A"),
        Criterion(number: "1.3.2", name: "Meaningful Sequence", level: "A"),
        Criterion(number: "1.3.3", name: "Sensory Characteristics", level: "A"),
        Criterion(number: "1.3.4", name: "Orientation", level: "AA"),
        Criterion(number: "1.3.5", name: "Identify Input Purpose", level: "AA"),
        Criterion(number: "1.3.6", name: "Identify Purpose", level: "AAA"),
        Criterion(number: "1.4.1", name: "Use of Color", level: "A"),
        Criterion(number: "1.4.2", name: "Audio Control", level: "A"),
        Criterion(number: "1.4.3", name: "Contrast (Minimum)", level: "AA"),
        Criterion(number: "1.4.4", name: "Resize Text", level: "AA"),
        Criterion(number: "1.4.5", name: "Images of Text", level: "AA"),
        Criterion(number: "1.4.6", name: "Contrast (Enhanced)", level: "AAA"),
        Criterion(number: "1.4.7", name: "Low or No Background Audio", level: "AAA"),
        Criterion(number: "1.4.8", name: "Visual Presentation", level: "AAA"),
        Criterion(number: "1.4.9", name: "Images of Text (No Exception)", level: "AAA"),
        Criterion(number: "1.4.10", name: "Reflow", level: "AA"),
        Criterion(number: "1.4.11", name: "Non-text Contrast", level: "AA"),
        Criterion(number: "1.4.12", name: "Text Spacing", level: "AA"),
        Criterion(number: "1.4.13", name: "Content on Hover or Focus", level: "AA"),
        Criterion(number: "2.1.1", name: "Keyboard", level: "A"),
        Criterion(number: "2.1.2", name: "No Keyboard Trap", level: "A"),
        Criterion(number: "2.1.3", name: "Keyboard (No Exception)", level: "AAA"),
        Criterion(number: "2.1.4", name: "Character Key Shortcuts", level: "A"),
        Criterion(number: "2.2.1", name: "Timing Adjustable", level: "A"),
        Criterion(number: "2.2.2", name: "Pause, Stop, Hide", level: "A"),
        Criterion(number: "2.2.3", name: "No Timing", level: "AAA"),
        Criterion(number: "2.2.4", name: "Interruptions", level: "AAA"),
        Criterion(number: "2.2.5", name: "Re-authenticating", level: "AAA"),
        Criterion(number: "2.2.6", name: "Timeouts", level: "AAA"),
        Criterion(number: "2.3.1", name: "Three Flashes or Below Threshold", level: "A"),
        Criterion(number: "2.3.2", name: "Three Flashes", level: "AAA"),
        Criterion(number: "2.3.3", name: "Animation from Interactions", level: "AAA"),
        Criterion(number: "2.4.1", name: "Bypass Blocks", level: "A"),
        Criterion(number: "2.4.2", name: "Page Titled", level: "A"),
        Criterion(number: "2.4.3", name: "Focus Order", level: "A"),
        Criterion(number: "2.4.4", name: "Link Purpose (In Context)", level: "A"),
        Criterion(number: "2.4.5", name: "Multiple Ways", level: "AA"),
        Criterion(number: "2.4.6", name: "Headings and Labels", level: "AA"),
        Criterion(number: "2.4.7", name: "Focus Visible", level: "AA"),
        Criterion(number: "2.4.8", name: "Location", level: "AAA"),
        Criterion(number: "2.4.9", name: "Link Purpose (Link Only)", level: "AAA"),
        Criterion(number: "2.4.10", name: "Section Headings", level: "AAA"),
        Criterion(number: "2.4.11", name: "Focus Not Obscured (Minimum)", level: "AA"),
        Criterion(number: "2.4.12", name: "Focus Not Obscured (Enhanced)", level: "AAA"),
        Criterion(number: "2.4.13", name: "Focus Appearance", level: "AAA"),
        Criterion(number: "2.5.1", name: "Pointer Gestures", level: "A"),
        Criterion(number: "2.5.2", name: "Pointer Cancellation", level: "A"),
        Criterion(number: "2.5.3", name: "Label in Name", level: "A"),
        Criterion(number: "2.5.4", name: "Motion Actuation", level: "A"),
        Criterion(number: "2.5.5", name: "Target Size (Enhanced)", level: "AAA"),
        Criterion(number: "2.5.6", name: "Concurrent Input Mechanisms", level: "AAA"),
        Criterion(number: "2.5.7", name: "Dragging Movements", level: "AA"),
        Criterion(number: "2.5.8", name: "Target Size (Minimum)", level: "AA"),
        Criterion(number: "3.1.1", name: "Language of Page", level: "A"),
        Criterion(number: "3.1.2", name: "Language of Parts", level: "AA"),
        Criterion(number: "3.1.3", name: "Unusual Words", level: "AAA"),
        Criterion(number: "3.1.4", name: "Abbreviations", level: "AAA"),
        Criterion(number: "3.1.5", name: "Reading Level", level: "AAA"),
        Criterion(number: "3.1.6", name: "Pronunciation", level: "AAA"),
        Criterion(number: "3.2.1", name: "On Focus", level: "A"),
        Criterion(number: "3.2.2", name: "On Input", level: "A"),
        Criterion(number: "3.2.3", name: "Consistent Navigation", level: "AA"),
        Criterion(number: "3.2.4", name: "Consistent Identification", level: "AA"),
        Criterion(number: "3.2.5", name: "Change on Request", level: "AAA"),
        Criterion(number: "3.2.6", name: "Consistent Help", level: "A"),
        Criterion(number: "3.3.1", name: "Error Identification", level: "A"),
        Criterion(number: "3.3.2", name: "Labels or Instructions", level: "A"),
        Criterion(number: "3.3.3", name: "Error Suggestion", level: "AA"),
        Criterion(number: "3.3.4", name: "Error Prevention (Legal, Financial, Data)", level: "AA"),
        Criterion(number: "3.3.5", name: "Help", level: "AAA"),
        Criterion(number: "3.3.6", name: "Error Prevention (All)", level: "AAA"),
        Criterion(number: "3.3.7", name: "Redundant Entry", level: "A"),
        Criterion(number: "3.3.8", name: "Accessible Authentication (Minimum)", level: "AA"),
        Criterion(number: "3.3.9", name: "Accessible Authentication (Enhanced)", level: "AAA"),
        Criterion(number: "4.1.1", name: "Parsing (Obsolete and removed)", level: "obsolete"),
        Criterion(number: "4.1.2", name: "Name, Role, Value", level: "A"),
        Criterion(number: "4.1.3", name: "Status Messages", level: "AA"),
    ]

    private static let byNumber: [String: Criterion] = Dictionary(uniqueKeysWithValues: criteria.map { ($0.number, $0) })

    public static func criterion(_ number: String) -> Criterion? { byNumber[number] }

    /// Checks each cited number: it must exist in WCAG 2.2 and not be obsolete.
    public static func validate(_ numbers: [String], field: String) -> [FieldError] {
        numbers.enumerated().compactMap { index, raw in
            // Exactly a number of the document's enum: ` 1.1.1` is not one.
            guard let criterion = byNumber[raw] else {
                return FieldError(field: "\(field)[\(index)]", message: "'\(raw)' is not a WCAG 2.2 success criterion; give its number, such as 1.1.1 or 4.1.2")
            }
            if criterion.level == "obsolete" {
                return FieldError(field: "\(field)[\(index)]", message: "\(raw) \(criterion.name) was removed from WCAG 2.2; cite 4.1.2 Name, Role, Value or another current criterion")
            }
            return nil
        }
    }

    /// Valid numbers in WCAG order without repeats.
    public static func normalized(_ numbers: [String]) -> [String] {
        let given = Set(numbers)
        return criteria.map(\.number).filter(given.contains)
    }
}
