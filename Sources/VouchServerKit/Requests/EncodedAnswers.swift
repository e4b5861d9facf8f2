import VouchDomain
import VouchHTTP

/// Single evaluations' answers already encoded, for one snapshot, in one stripe of threads (see `SnapshotHolder`):
/// the same verdict of the same snapshot always gets the same bytes, and encoding them again, with the answer's
/// header list and body allocated anew, costs more than the evaluation itself.
///
/// A place per verdict, chosen from the flag's slot and the decision; a verdict whose place holds another is
/// encoded and takes the place. Emptied whenever the stripe moves to a newer snapshot.
package struct EncodedAnswers {
    struct Entry {
        var slot = -1
        var decisionCode = -1
        var response = HTTPResponse(status: 0)
    }

    /// Allocated when the stripe first answers, so idle stripes cost nothing.
    private var entries: [Entry] = []
    static let places = 128

    /// The answer kept for `verdict`, or the one `make` encodes, then kept.
    package mutating func answer(for verdict: FlagVerdict, make: () -> HTTPResponse) -> HTTPResponse {
        let code = verdict.decisionCode
        let place = (verdict.slot &* 11 &+ code) & (EncodedAnswers.places - 1)
        if !entries.isEmpty, entries[place].slot == verdict.slot, entries[place].decisionCode == code {
            return entries[place].response
        }
        let response = make()
        if entries.isEmpty { entries = Array(repeating: Entry(), count: EncodedAnswers.places) }
        entries[place] = Entry(slot: verdict.slot, decisionCode: code, response: response)
        return response
    }

    /// Answers kept now, for tests.
    var count: Int { entries.filter { $0.slot >= 0 }.count }
}
