/// What a person typed into a search, made safe for SQLite FTS5: whitespace-separated terms, each
/// quoted (so no FTS5 syntax — `OR`, `NEAR`, `*`, `:`, parentheses, quotes — is ever interpreted),
/// all of them required.
///
/// The index folds case and removes diacritics on both sides, so `sao paulo` finds São Paulo. A
/// term with several words in the index's sense (`2025-03`, `new-york`) matches them in a row.
public struct SearchQuery: Sendable, Hashable {
    /// Characters read from the text; the rest is ignored.
    public static let maximumCharacters = 200
    /// Terms kept; the rest are ignored.
    public static let maximumTerms = 12

    /// The terms, in the order typed, without control characters; none is empty or only punctuation.
    public let terms: [String]

    public init(_ text: String) {
        var terms: [String] = []
        for word in text.prefix(Self.maximumCharacters).split(whereSeparator: { $0.isWhitespace }) {
            let cleaned = String(String.UnicodeScalarView(word.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            guard cleaned.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            terms.append(cleaned)
            if terms.count == Self.maximumTerms { break }
        }
        self.terms = terms
    }

    /// No term: matches nothing.
    public var isEmpty: Bool { terms.isEmpty }

    /// The terms joined by single spaces: the same for every spelling of the same search (a cache key).
    public var normalized: String { terms.joined(separator: " ") }

    /// The FTS5 query: each term a string (`"` doubled inside), joined by FTS5's implicit AND.
    public var matchExpression: String {
        terms.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: " ")
    }
}
