extension String {
    /// This text with every whole `name` replaced by `words`: "the role release_manager" becomes "the role release manager",
    /// while a longer name that contains it (`release_manager_2`) stays as it is. The command line and the console use it to
    /// say the API's names in words inside the API's prose.
    public func replacingWholeName(_ name: String, with words: String) -> String {
        func isNamePart(_ character: Character?) -> Bool {
            guard let character else { return false }
            return character.isLetter || character.isNumber || character == "_"
        }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: name) {
            let before = range.lowerBound == rest.startIndex ? result.last : rest[rest.index(before: range.lowerBound)]
            let after = range.upperBound == rest.endIndex ? nil : rest[range.upperBound]
            result += rest[..<range.lowerBound]
            result += isNamePart(before) || isNamePart(after) ? name : words
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
