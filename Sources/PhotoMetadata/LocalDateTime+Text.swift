// Temporary: replaced by the metadata module's own formatting.
extension LocalDateTime {
    public var iso8601: String {
        func pad(_ v: Int, _ n: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, n - s.count)) + s }
        var s = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if let ms = millisecond { s += "." + pad(ms, 3) }
        return s
    }

    public init?(iso8601 text: String) {
        let parts = text.split(whereSeparator: { "-T:.".contains($0) }).compactMap { Int($0) }
        guard parts.count >= 6 else { return nil }
        self.init(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5], millisecond: parts.count > 6 ? parts[6] : nil)
    }
}
