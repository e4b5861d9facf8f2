import VouchDomain

/// The list of testers a request names for a change (enrollment, a panel's members): present unless something else
/// stands for it, and of a size one change may hold.
enum TesterList {
    /// The most testers one change may name.
    static let maxCount = 500

    /// What is wrong with the list as sent; `readErrors` are what reading it found already.
    /// - Parameters:
    ///   - purpose: what the testers are for, completing "the tester ids (t_…) to …".
    ///   - optional: whether the request may leave the list out, because it names testers another way.
    static func errors(_ testers: [String]?, purpose: String, optional: Bool = false, readErrors: [FieldError]) -> [FieldError] {
        if let testers, testers.isEmpty || testers.count > maxCount {
            return [FieldError(field: "testers", message: "must list 1 to \(maxCount) tester ids (t_…)")]
        }
        if testers == nil, !optional, !readErrors.contains(where: { $0.field.hasPrefix("testers") }) {
            return [FieldError(field: "testers", message: "is required: the tester ids (t_…) to \(purpose)")]
        }
        return []
    }
}
