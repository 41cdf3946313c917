#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one open file, read on demand with `pread` within a per-file budget.
///
/// The first read takes the head of the file (64 KiB), which holds everything most photos
/// need. Later reads are served from the head or from the last extra window when they can
/// be, so a reader asks for what it needs without counting system calls itself.
///
/// The budget covers bytes, `pread` calls and time: once `timeBudget` has passed since the file
/// was opened, the next request that reads the file throws `.budgetExceeded`, and so does one of
/// the next `viewsPerCheck` served from memory.
final class FileBytes {
    /// Bytes read at first, from offset 0.
    static let headSize = 64 * 1024
    /// Most bytes read from one file, all reads together.
    static let byteBudget = 16 * 1024 * 1024
    /// Most `pread` calls for one file.
    static let readBudget = 512
    /// Most time spent on one file, from opening to the last request.
    static let timeBudget: Duration = .seconds(5)

    /// Where the bytes come from: an open file, or (for fuzzing) bytes already in memory, which
    /// are copied out as `pread` would, with the same budgets.
    private enum Source {
        case descriptor(Int32)
        case memory([UInt8])
    }

    private let source: Source
    /// The file size when it was opened.
    let size: Int
    /// The file's first bytes (all of them for small files).
    private(set) var head: ByteView

    private var window = ByteView([])
    private var windowOffset = 0
    private var bytesLeft = FileBytes.byteBudget
    private var readsLeft = FileBytes.readBudget
    /// Bytes read from the file so far, all requests together.
    var bytesRead: Int { FileBytes.byteBudget - bytesLeft }
    /// `pread` calls (or copies from memory) made so far.
    var readCalls: Int { FileBytes.readBudget - readsLeft }
    private let timeBudget: Duration
    private let deadline: ContinuousClock.Instant
    /// Requests since the clock was last read, modulo `viewsPerCheck`: reading it for each one
    /// was a fiftieth of a first index's reading.
    private var viewsUnchecked = 0
    /// Requests between two readings of the clock (the first one reads it); a request that reads
    /// the file always reads it.
    static let viewsPerCheck = 64

    /// Opens the file at `path` and hands `body` its bytes (read on demand); the file is closed
    /// when `body` returns.
    static func reading<Result>(atPath path: String, _ body: (FileBytes) throws(MetadataError) -> Result) throws(MetadataError) -> Result {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw MetadataError(.unreadable, "The file cannot be opened: \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        return try body(try FileBytes(descriptor: descriptor))
    }

    convenience init(descriptor: Int32, timeBudget: Duration = FileBytes.timeBudget) throws(MetadataError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw MetadataError(.unreadable, "The file cannot be examined: \(FileBytes.errnoText()).")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw MetadataError(.notAnImage, "This is not a regular file.")
        }
        try self.init(regularFile: descriptor, size: Int(status.st_size), timeBudget: timeBudget)
    }

    /// A regular file whose size its opener has just taken (`fstat`), so it is not examined again.
    init(regularFile descriptor: Int32, size: Int, timeBudget: Duration = FileBytes.timeBudget) throws(MetadataError) {
        source = .descriptor(descriptor)
        self.size = size
        self.timeBudget = timeBudget
        deadline = .now + timeBudget
        head = ByteView([])
        head = try read(at: 0, count: min(size, FileBytes.headSize))
    }

    /// The bytes of a whole file already in memory, read within the same budgets (for fuzzing).
    init(bytes: [UInt8], timeBudget: Duration = FileBytes.timeBudget) throws(MetadataError) {
        source = .memory(bytes)
        size = bytes.count
        self.timeBudget = timeBudget
        deadline = .now + timeBudget
        head = ByteView([])
        head = try read(at: 0, count: min(size, FileBytes.headSize))
    }

    /// Throws `.budgetExceeded` once the time budget has run out; loops that may run long
    /// without asking for bytes call it themselves.
    func checkDeadline() throws(MetadataError) {
        guard ContinuousClock.now < deadline else {
            throw MetadataError(.budgetExceeded, "Reading this file takes longer than the per-file budget of \(timeBudget).")
        }
    }

    /// Exactly `count` bytes at file offset `offset`.
    ///
    /// - Parameter readAhead: how many bytes to read when the range is not cached yet, so that
    ///   neighbouring reads that follow are served without another system call.
    func view(at offset: Int, count: Int, readAhead: Int = 4096) throws(MetadataError) -> ByteView {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw .truncated(offset, count)
        }
        if viewsUnchecked == 0 { try checkDeadline() }
        viewsUnchecked = (viewsUnchecked + 1) % Self.viewsPerCheck
        if offset + count <= head.count { return try head.view(offset, count) }
        if offset >= windowOffset, offset - windowOffset + count <= window.count {
            return try window.view(offset - windowOffset, count)
        }
        try checkDeadline()
        let length = min(max(count, readAhead), size - offset)
        window = try read(at: offset, count: length)
        windowOffset = offset
        return try window.view(0, count)
    }

    /// Up to `count` bytes at `offset`: fewer when the file ends first.
    func view(at offset: Int, upTo count: Int, readAhead: Int = 4096) throws(MetadataError) -> ByteView {
        guard offset >= 0, offset <= size else { throw .truncated(offset, count) }
        return try view(at: offset, count: min(count, size - offset), readAhead: readAhead)
    }

    private func read(at offset: Int, count: Int) throws(MetadataError) -> ByteView {
        guard count > 0 else { return ByteView([]) }
        guard count <= bytesLeft, readsLeft > 0 else {
            throw MetadataError(.budgetExceeded, "Reading this file needs more than the per-file budget of \(FileBytes.byteBudget) bytes.")
        }
        bytesLeft -= count
        guard case .descriptor(let descriptor) = source else {
            guard case .memory(let all) = source, offset >= 0, offset <= all.count, count <= all.count - offset else {
                throw .truncated(offset, count)
            }
            readsLeft -= 1
            return ByteView(Array(all[offset..<offset + count]))
        }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                readsLeft -= 1
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if got > 0 {
                    done += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
            initialized = done
        }
        if failure != 0 {
            throw MetadataError(.unreadable, "The file cannot be read: \(String(cString: strerror(failure))).")
        }
        guard bytes.count == count else { throw .truncated(offset, count) }
        return ByteView(bytes)
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
