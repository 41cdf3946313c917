import Foundation

/// Why a photo is shown as a placeholder, as one log line says it.
enum PlaceholderReason {
    /// `message` with the descriptor path libvips was handed (`/proc/self/fd/N`) written as the
    /// photo's path under the root, which is what a reader of the log can look up.
    static func text(_ message: String, openedAs procPath: String, path: String) -> String {
        // Not the digits of a longer descriptor number: /proc/self/fd/2 is no part of /proc/self/fd/23.
        message.replacingOccurrences(
            of: NSRegularExpression.escapedPattern(for: procPath) + "(?![0-9])",
            with: NSRegularExpression.escapedTemplate(for: path), options: .regularExpression)
    }
}
