extension Int {
    /// The count with its noun, singular for exactly one: "1 photo", "12,345 photos", "0 photos".
    ///
    /// `plural` is for nouns that do not just add an "s" ("1 entry", "2 entries").
    package func counted(_ singular: String, _ plural: String? = nil) -> String {
        let digits = String(magnitude)
        var grouped = self < 0 ? "-" : ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return grouped + " " + (self == 1 ? singular : plural ?? singular + "s")
    }
}
