import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output with every write checked: a full disk or a closed pipe ends the command with
/// one clear line and a non-zero exit, instead of a "success" that lost the output.
enum Output {
    /// Writes all of `bytes` to standard output.
    static func write(_ bytes: some Collection<UInt8>) throws {
        try Array(bytes).withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CLIError("Cannot write the output: \(String(cString: strerror(errno))).")
                }
                offset += written
            }
        }
    }

    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) throws {
        try write(Array((text + "\n").utf8))
    }

    /// A message for the person at the terminal, on standard error; best effort.
    static func note(_ text: String) {
        noteWithoutNewline(text + "\n")
    }

    /// `text` on standard error as it is (a progress line rewrites itself with `\r`).
    static func noteWithoutNewline(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { _ = systemWrite(STDERR_FILENO, $0.baseAddress!, $0.count) }
    }
}

/// `write(2)`, named apart from `Output.write`.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

extension String {
    /// The text with control characters made visible, as `ls -b` and git do, so a file name
    /// cannot split a table row or send escape sequences to the terminal: `\n`, `\r`, `\t`, ESC
    /// as `\x1b`, other C0 controls and DEL as `\xHH`, C1 controls as `\u{HH}`.
    var terminalSafe: String {
        guard unicodeScalars.contains(where: { $0.needsTerminalEscape }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            case _ where (0x80...0x9F).contains(scalar.value):
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension Unicode.Scalar {
    /// C0 and C1 control characters and DEL: never sent to a terminal as they are.
    fileprivate var needsTerminalEscape: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}
