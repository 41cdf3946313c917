import LibraryIndex
import Testing

/// Reading what a person typed: words, and the exact place fields `/api/places` writes.
@Suite("Search query")
struct SearchQueryTests {
    typealias Field = SearchQuery.PlaceField

    @Test("Place fields are read apart from words, bare or quoted; an empty quoted value means no name", arguments: [
        ("country:PT region:Lisbon city:Sintra 2025", ["2025"], [Field(.country, "PT"), Field(.region, "Lisbon"), Field(.city, "Sintra")]),
        ("city:\"São Paulo\" brazil", ["brazil"], [Field(.city, "São Paulo")]),
        ("CITY:Porto", [], [Field(.city, "Porto")]),
        ("country:MC region:\"\" city:Monaco", [], [Field(.country, "MC"), Field(.region, nil), Field(.city, "Monaco")]),
        ("city:\"Say \"\"Hi\"\"\"", [], [Field(.city, "Say \"Hi\"")]),
        ("city:\"unclosed quote", [], [Field(.city, "unclosed quote")]),
        // Not fields: another prefix, or nothing after the colon.
        ("words:lisbon city: lisbon", ["words:lisbon", "city:", "lisbon"], []),
    ])
    func parses(text: String, terms: [String], fields: [Field]) {
        let query = SearchQuery(text)
        #expect(query.terms == terms)
        #expect(query.placeFields == fields)
        #expect(query.isEmpty == (terms.isEmpty && fields.isEmpty))
    }

    @Test("A field's text reads back as the same field, whatever the name holds", arguments: [
        "Sintra", "São Paulo", "Say \"Hi\"", "a:b", "\"quoted\"", "two  spaces", "Ōsaka-shi",
    ])
    func roundTrip(name: String) {
        for level in Field.Level.allCases {
            for field in [Field(level, name), Field(level, nil)] {
                let read = SearchQuery(field.text + " 2025")
                #expect(read.placeFields == [field], "\(field.text)")
                #expect(read.terms == ["2025"], "\(field.text)")
            }
        }
    }

    @Test("The normalized form is the same for every spelling and tells fields apart")
    func normalized() {
        #expect(SearchQuery("  lisbon   city:Sintra ").normalized == SearchQuery("lisbon city:\"Sintra\"").normalized)
        #expect(SearchQuery("city:Sintra").normalized != SearchQuery("region:Sintra").normalized)
        #expect(SearchQuery("city:Sintra").normalized != SearchQuery("sintra").normalized)
    }
}
