/// What a person typed into a search, made safe for SQLite FTS5: whitespace-separated terms, each
/// quoted (so no FTS5 syntax — `OR`, `NEAR`, `*`, `:`, parentheses, quotes — is ever interpreted),
/// all of them required, plus exact place fields.
///
/// The index folds case and removes diacritics on both sides, so `sao paulo` finds São Paulo. A
/// term with several words in the index's sense (`2025-03`, `new-york`) matches them in a row.
///
/// A word alone can match more than one place (a city named like a folder, a region, or a city of
/// another country). The fields `country:`, `region:` and `city:` name one place exactly, the way
/// `/api/places` writes them: `country:PT region:Lisbon city:Sintra`. A value with spaces is
/// quoted (`city:"São Paulo"`, a `"` inside doubled); `region:""` means *no region name*.
/// `country:` takes the country code (or, for a place without a code, the country name).
///
/// The word `undated` (any case) is no term: it finds the photos dated only by their file's time
/// (`fileModified`), such as scans and messenger copies.
public struct SearchQuery: Sendable, Hashable {
    /// Characters read from the text; the rest is ignored.
    public static let maximumCharacters = 200
    /// Terms kept; the rest are ignored.
    public static let maximumTerms = 12

    /// The terms, in the order typed, without control characters; none is empty or only punctuation.
    public let terms: [String]
    /// The place fields, in the order typed (at most ``maximumTerms``).
    public let placeFields: [PlaceField]
    /// Whether the word `undated` was typed: only photos dated by their file's time match.
    public let undated: Bool

    /// One exact place name: `city:Sintra`.
    public struct PlaceField: Sendable, Hashable {
        public enum Level: String, Sendable, CaseIterable {
            case country, region, city
        }

        public var level: Level
        /// The name, compared without ASCII case; `nil` for a photo with no name at this level.
        public var name: String?

        public init(_ level: Level, _ name: String?) {
            self.level = level
            self.name = name
        }

        /// The field as a query writes it: `city:Sintra`, `city:"São Paulo"`, `region:""`.
        public var text: String {
            guard let name, !name.isEmpty,
                  !name.contains(where: { $0.isWhitespace || $0 == "\"" || $0.unicodeScalars.first?.properties.generalCategory == .control })
            else { return level.rawValue + ":\"" + (name ?? "").replacing("\"", with: "\"\"") + "\"" }
            return level.rawValue + ":" + name
        }
    }

    public init(_ text: String) {
        var terms: [String] = []
        var fields: [PlaceField] = []
        var undated = false
        for token in Self.tokens(String(text.prefix(Self.maximumCharacters))) {
            if let field = token.field {
                fields.append(field)
                if fields.count == Self.maximumTerms { break }
                continue
            }
            let cleaned = String(String.UnicodeScalarView(token.word.unicodeScalars.filter { $0.properties.generalCategory != .control }))
            guard cleaned.contains(where: { $0.isLetter || $0.isNumber }) else { continue }
            if cleaned.lowercased() == "undated" {
                undated = true
                continue
            }
            terms.append(cleaned)
            if terms.count == Self.maximumTerms { break }
        }
        self.terms = terms
        self.placeFields = fields
        self.undated = undated
    }

    /// No term, no field and not `undated`: matches nothing.
    public var isEmpty: Bool { terms.isEmpty && placeFields.isEmpty && !undated }

    /// The terms joined by single spaces, then the fields: the same for every spelling of the same
    /// search (a cache key).
    public var normalized: String { (terms + placeFields.map(\.text) + (undated ? ["undated"] : [])).joined(separator: " ") }

    /// The FTS5 query: each term a string (`"` doubled inside), joined by FTS5's implicit AND;
    /// empty when there are only fields.
    public var matchExpression: String {
        terms.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: " ")
    }

    /// A piece of the text: a plain word, or a place field.
    private struct Token {
        var word: Substring = ""
        var field: PlaceField?
    }

    /// Splits `text` at whitespace, reading `level:value` and `level:"quoted value"` as fields.
    private static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            guard !rest.isEmpty else { return tokens }
            if let (field, after) = placeField(at: rest) {
                tokens.append(Token(field: field))
                rest = after
                continue
            }
            let word = rest.prefix(while: { !$0.isWhitespace })
            tokens.append(Token(word: word))
            rest = rest[word.endIndex...]
        }
    }

    /// The field at the start of `text` and what follows it, or `nil` when `text` starts with a word.
    private static func placeField(at text: Substring) -> (PlaceField, Substring)? {
        guard let colon = text.firstIndex(of: ":"),
              let level = PlaceField.Level(rawValue: text[..<colon].lowercased()) else { return nil }
        var value = text[text.index(after: colon)...]
        guard let first = value.first, !first.isWhitespace else { return nil }
        guard first == "\"" else {
            let name = value.prefix(while: { !$0.isWhitespace })
            return (PlaceField(level, String(name)), value[name.endIndex...])
        }
        // Quoted: up to the next single `"`; `""` inside is one quote. An unclosed quote runs to the end.
        value = value.dropFirst()
        var name = ""
        while let character = value.first {
            value = value.dropFirst()
            if character == "\"" {
                guard value.first == "\"" else { break }
                value = value.dropFirst()
            }
            name.append(character)
        }
        let cleaned = String(String.UnicodeScalarView(name.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        return (PlaceField(level, cleaned.isEmpty ? nil : cleaned), value)
    }
}
