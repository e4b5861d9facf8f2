/// A state shown as a word in a box: the word carries the meaning, the colour only repeats it (WCAG 1.4.1).
public struct StatusTag: Sendable {
    public enum Tone: String, Sendable {
        case neutral = "tag"
        case good = "tag tag--good"
        case bad = "tag tag--bad"
        case waiting = "tag tag--waiting"
    }

    public var text: String
    public var tone: Tone

    public init(_ text: String, tone: Tone = .neutral) {
        self.text = text
        self.tone = tone
    }

    public func render() -> HTML { "<strong class=\"\(tone.rawValue)\">\(text)</strong>" }
}
