/// One line of figures per reliability test ("Figures: name: label value, …"), so a rerun shows what
/// RELIABILITY.md reports; `scripts/reliability` runs these tests and prints the lines.
public enum Figures {
    public static func report(_ test: String, _ values: KeyValuePairs<String, Int>) {
        print("Figures: \(test): " + values.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
}
