/// A failure the user can act on; printed as one sentence, exit code 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// A library's message ("section 9 is out of range: …") as a sentence like the CLI's own.
    init(sentence message: String) {
        let capitalized = message.prefix(1).uppercased() + message.dropFirst()
        description = capitalized.hasSuffix(".") ? capitalized : capitalized + "."
    }
}
