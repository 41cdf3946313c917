import Foundation
import GRDB
public import Duplicates
import PhotoMetadata
import WallClock

/// One photo as the duplicate finder and stack finder see it, with its stored hashes.
public struct DuplicateRow: Sendable, Hashable {
    public var id: Int64
    public var path: RelativePath
    public var fileSize: Int64
    /// Nanoseconds since 1970.
    public var modified: Int64
    /// The local capture time as stored (`YYYY-MM-DDTHH:MM:SS[.fff]`).
    public var captured: String
    /// The capture date came from the file's metadata, not its name or modification time.
    public var capturedFromMetadata: Bool
    /// Display size, when the file could be read.
    public var width: Int?
    public var height: Int?
    public var hasPosition: Bool
    public var make: String?
    public var model: String?
    public var format: String?
    /// The SHA-256 of this version of the file, when it was computed.
    public var sha256: SHA256Value?
    /// The fingerprint of this version, when it was made; `fingerprinted` says whether it was tried.
    public var fingerprint: PictureFingerprint?
    public var fingerprinted: Bool
    public var stack: Int64?

    /// Camera make and model, or nil when the file names neither.
    public var camera: String? {
        let parts = [make, model].compactMap { $0?.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The capture time in milliseconds since 1970 (local wall clock), when it came from metadata.
    public var capturedMillisecond: Int64? {
        guard capturedFromMetadata else { return nil }
        return Self.millisecond(ofStored: captured)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]` as milliseconds since 1970, or nil when it is not that.
    static func millisecond(ofStored text: String) -> Int64? {
        var text = text
        return text.withUTF8 { millisecond(ofStored: UnsafeRawBufferPointer($0)) }
    }

    /// ``millisecond(ofStored:)`` of the text's UTF-8 bytes.
    static func millisecond(ofStored bytes: UnsafeRawBufferPointer) -> Int64? {
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var millisecond = 0
        if bytes.count >= 21, bytes[19] == UInt8(ascii: ".") {
            let digits = bytes[20...].prefix(3)
            guard let fraction = number(20..<(20 + digits.count)) else { return nil }
            millisecond = fraction * [100, 10, 1][digits.count - 1]
        }
        let days = Int64(CivilCalendar.daysSince1970(year: year, month: month, day: day))
        return ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000 + Int64(second) * 1000 + Int64(millisecond)
    }
}

/// A stored duplicate group, its files in order (the kept one first).
public struct StoredDuplicateGroup: Sendable, Hashable {
    public var kind: DuplicateKind
    public var reason: String
    public var members: [Member]

    public struct Member: Sendable, Hashable {
        public var id: Int64
        public var path: RelativePath
        public var match: DuplicateKind
        public var fileSize: Int64
        public var width: Int?
        public var height: Int?
        public var captured: String
    }
}

extension LibraryStore {
    /// Date sources that are not the file's name or modification time.
    static let metadataDateSources = "('DateTimeOriginal', 'DateTimeDigitized', 'DateTime', 'CreationDate', 'MediaCreateDate', 'xmpSidecar', 'takeoutJSON')"

    /// Every photo (not videos, not rows whose file is missing), ordered by path, with the hashes
    /// stored for its current version and its stack.
    ///
    /// - Complexity: one query; O(rows) memory.
    public func duplicateRows() throws(IndexError) -> [DuplicateRow] {
        try read { db in
            let current = "h.fileSize = p.fileSize AND h.modified = p.modified"
            let rows = try Row.fetchCursor(db, sql: """
                SELECT p.id, p.path, p.fileSize, p.modified, p.captured, p.dateSource IN \(Self.metadataDateSources),
                       p.width, p.height, p.latitude IS NOT NULL, p.make, p.model, p.format,
                       CASE WHEN \(current) THEN h.sha256 END, CASE WHEN \(current) THEN h.fingerprinted ELSE 0 END,
                       h.pixels, h.dHash, h.pHash, s.stackId, h.colour
                FROM photo p
                LEFT JOIN pictureHash h ON h.photoId = p.id
                LEFT JOIN stack s ON s.photoId = p.id
                WHERE p.mediaType = 'photo' AND p.missingSince IS NULL
                ORDER BY p.path
                """)
            var result: [DuplicateRow] = []
            while let row = try rows.next() {
                let fingerprinted = (row[13] as Int64?) == 1
                var fingerprint: PictureFingerprint?
                if fingerprinted, let pixels = row[14] as Int64?, let d = row[15] as Int64?, let p = row[16] as Int64?,
                   let colour = (row[18] as Data?).flatMap({ ColourRendition(bytes: [UInt8]($0)) }) {
                    fingerprint = PictureFingerprint(pixels: UInt64(bitPattern: pixels), dHash: UInt64(bitPattern: d), pHash: UInt64(bitPattern: p), colour: colour)
                }
                result.append(DuplicateRow(
                    id: row[0], path: RelativePath(bytes: Array(row[1] as Data)), fileSize: row[2], modified: row[3],
                    captured: row[4], capturedFromMetadata: row[5], width: row[6], height: row[7], hasPosition: row[8],
                    make: row[9], model: row[10], format: row[11],
                    sha256: (row[12] as Data?).flatMap { SHA256Value(bytes: $0) },
                    fingerprint: fingerprint, fingerprinted: fingerprinted, stack: row[17]))
            }
            return result
        }
    }

    /// The photos whose stored fingerprint is of their current version (made, or tried and undecodable).
    public func fingerprintedPhotoIDs() throws(IndexError) -> Set<Int64> {
        try read { db in
            guard try db.tableExists("pictureHash") else { return [] }
            return try Set(Int64.fetchAll(db, sql: """
                SELECT h.photoId FROM pictureHash h JOIN photo p ON p.id = h.photoId
                WHERE h.fingerprinted = 1 AND h.fileSize = p.fileSize AND h.modified = p.modified
                """))
        }
    }

    /// Stores the fingerprint (nil: the file could not be decoded) of photo `id`'s version
    /// `fileSize`/`modified`; a digest stored for the same version is kept.
    public func saveFingerprints(_ entries: [(id: Int64, fileSize: Int64, modified: Int64, fingerprint: PictureFingerprint?)]) throws(IndexError) {
        guard !entries.isEmpty else { return }
        try write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO pictureHash (photoId, fileSize, modified, fingerprinted, pixels, dHash, pHash, colour) VALUES (?, ?, ?, 1, ?, ?, ?, ?)
                ON CONFLICT (photoId) DO UPDATE SET
                    sha256 = CASE WHEN fileSize = excluded.fileSize AND modified = excluded.modified THEN sha256 END,
                    fileSize = excluded.fileSize, modified = excluded.modified, fingerprinted = 1,
                    pixels = excluded.pixels, dHash = excluded.dHash, pHash = excluded.pHash, colour = excluded.colour
                """)
            for entry in entries {
                let f = entry.fingerprint
                try statement.execute(arguments: [
                    entry.id, entry.fileSize, entry.modified,
                    f.map { Int64(bitPattern: $0.pixels) }, f.map { Int64(bitPattern: $0.dHash) }, f.map { Int64(bitPattern: $0.pHash) },
                    f.map { Data($0.colour.bytes) },
                ])
            }
        }
    }

    /// Stores the SHA-256 of photo `id`'s version `fileSize`/`modified`; a fingerprint stored for
    /// the same version is kept.
    public func saveDigests(_ entries: [(id: Int64, fileSize: Int64, modified: Int64, digest: SHA256Value)]) throws(IndexError) {
        guard !entries.isEmpty else { return }
        try write { db in
            let statement = try db.makeStatement(sql: """
                INSERT INTO pictureHash (photoId, fileSize, modified, sha256) VALUES (?, ?, ?, ?)
                ON CONFLICT (photoId) DO UPDATE SET
                    fingerprinted = CASE WHEN fileSize = excluded.fileSize AND modified = excluded.modified THEN fingerprinted ELSE 0 END,
                    fileSize = excluded.fileSize, modified = excluded.modified, sha256 = excluded.sha256
                """)
            for entry in entries {
                try statement.execute(arguments: [entry.id, entry.fileSize, entry.modified, Data(entry.digest.bytes)])
            }
        }
    }

    /// Replaces the stored groups of `tier` (the groups found with the tiers up to it).
    public func replaceDuplicateGroups(_ groups: [DuplicateGroup], tier: DuplicateKind) throws(IndexError) {
        try write { db in
            try db.execute(sql: "DELETE FROM duplicateMember WHERE tier = ?", arguments: [tier.rawValue])
            let statement = try db.makeStatement(sql: """
                INSERT INTO duplicateMember (tier, photoId, groupId, position, kind, match, reason) VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for group in groups {
                for (position, member) in group.members.enumerated() {
                    try statement.execute(arguments: [tier.rawValue, member.id, group.keep, position, group.kind.rawValue, member.match.rawValue, group.reason])
                }
            }
            try Self.indexDuplicateGroups(db, tier: tier.rawValue)
        }
    }

    /// Writes the pages' index of the stored groups of `tier`: each group's rank by its kept
    /// file's path, and the totals. A group whose kept file, or every other file, was removed
    /// from the index since (the rows' trigger drops their members) is no group any more: it gets
    /// no rank, and its remaining files count in no total.
    static func indexDuplicateGroups(_ db: Database, tier: String) throws {
        try db.execute(sql: "DELETE FROM duplicateGroup WHERE tier = ?", arguments: [tier])
        try db.execute(sql: """
            INSERT INTO duplicateGroup (tier, rank, groupId)
            SELECT ?1, row_number() OVER (ORDER BY k.path, d.groupId) - 1, d.groupId
            FROM duplicateMember d JOIN photo k ON k.id = d.groupId
            WHERE d.tier = ?1 AND d.position = 0
              AND EXISTS (SELECT 1 FROM duplicateMember e WHERE e.tier = ?1 AND e.groupId = d.groupId AND e.position > 0)
            """, arguments: [tier])
        try db.execute(sql: """
            INSERT OR REPLACE INTO duplicateTotal (tier, groups, extraFiles, extraBytes)
            SELECT ?1, (SELECT count(*) FROM duplicateGroup WHERE tier = ?1), count(*), coalesce(sum(p.fileSize), 0)
            FROM duplicateMember d JOIN photo p ON p.id = d.photoId
            WHERE d.tier = ?1 AND d.position > 0 AND d.groupId IN (SELECT groupId FROM duplicateGroup WHERE tier = ?1)
            """, arguments: [tier])
    }

    /// Called in `finishRun`'s transaction of a run that removed photo rows: ranks the stored
    /// duplicate groups and counts their totals again, so that pages and totals leave out the groups
    /// that lost their kept file or all of their other files.
    static func reindexDuplicateGroups(_ db: Database) throws {
        guard try db.tableExists("duplicateGroup") else { return }
        for tier in try String.fetchAll(db, sql: "SELECT DISTINCT tier FROM duplicateTotal") {
            try indexDuplicateGroups(db, tier: tier)
        }
    }

    /// The groups `shoebox duplicates` stored for `tier`, ordered by the kept file's path, from the
    /// `offset`-th on, at most `limit` of them (all when nil); empty before it ran.
    ///
    /// - Complexity: one pass over the kept files of `tier` (sorted by path) to find the page's
    ///   groups, then one indexed lookup per group: a page of a million photos' groups costs about
    ///   what the page holds, not every group's members.
    public func storedDuplicateGroups(tier: DuplicateKind = .similar, offset: Int = 0, limit: Int? = nil) throws(IndexError) -> [StoredDuplicateGroup] {
        try read { db in
            guard try db.tableExists("duplicateMember") else { return [] }
            // A group whose kept file is gone since (its row deleted) is left out, as its members are.
            let keeps = try db.tableExists("duplicateGroup")
                ? Int64.fetchAll(db, sql: """
                    SELECT g.groupId FROM duplicateGroup g JOIN photo k ON k.id = g.groupId
                    WHERE g.tier = ? AND g.rank >= ? ORDER BY g.rank LIMIT ?
                    """, arguments: [tier.rawValue, max(0, offset), limit ?? -1])
                : Int64.fetchAll(db, sql: """
                    SELECT d.groupId FROM duplicateMember d JOIN photo k ON k.id = d.groupId
                    WHERE d.tier = ? AND d.position = 0
                    ORDER BY k.path, d.groupId LIMIT ? OFFSET ?
                    """, arguments: [tier.rawValue, limit ?? -1, max(0, offset)])
            let members = try db.makeStatement(sql: """
                SELECT d.kind, d.reason, d.match, p.id, p.path, p.fileSize, p.width, p.height, p.captured
                FROM duplicateMember d JOIN photo p ON p.id = d.photoId
                WHERE d.tier = ? AND d.groupId = ?
                ORDER BY d.position
                """)
            return try keeps.map { keep in
                try members.setArguments([tier.rawValue, keep])
                var group = StoredDuplicateGroup(kind: .similar, reason: "", members: [])
                try Self.forEachRow(of: members, in: db) { row in
                    if group.members.isEmpty {
                        group.kind = row.text(0).flatMap(DuplicateKind.init(rawValue:)) ?? .similar
                        group.reason = row.text(1) ?? ""
                    }
                    group.members.append(.init(
                        id: row.int64(3), path: RelativePath(bytes: Array(row.bytes(4) ?? UnsafeRawBufferPointer(start: nil, count: 0))),
                        match: row.text(2).flatMap(DuplicateKind.init(rawValue:)) ?? .similar,
                        fileSize: row.int64(5), width: row.int(6), height: row.int(7), captured: row.text(8) ?? ""))
                }
                return group
            }
        }
    }

    /// How many groups `shoebox duplicates` stored for `tier`, and the files beside the kept ones
    /// with their bytes, as it left them: what a page of groups says of all of them.
    ///
    /// - Complexity: one row read (a pass over the group rows of a database from before v12).
    public func duplicateTotals(tier: DuplicateKind = .similar) throws(IndexError) -> (groups: Int, extraFiles: Int, extraBytes: Int64) {
        try read { db in
            if try db.tableExists("duplicateTotal") {
                let row = try Row.fetchOne(db, sql: "SELECT groups, extraFiles, extraBytes FROM duplicateTotal WHERE tier = ?", arguments: [tier.rawValue])
                return row.map { ($0[0], $0[1], $0[2]) } ?? (0, 0, 0)
            }
            guard try db.tableExists("duplicateMember"),
                  let row = try Row.fetchOne(db, sql: """
                    SELECT count(*) FILTER (WHERE d.position = 0), count(*) FILTER (WHERE d.position > 0),
                           coalesce(sum(p.fileSize) FILTER (WHERE d.position > 0), 0)
                    FROM duplicateMember d JOIN photo p ON p.id = d.photoId WHERE d.tier = ?
                    """, arguments: [tier.rawValue])
            else { return (0, 0, 0) }
            return (row[0], row[1], row[2])
        }
    }

    /// For every photo that is a non-kept member of a stored group (`similar` tier), the kept
    /// photo's path.
    public func duplicateOf() throws(IndexError) -> [Int64: RelativePath] {
        try read { db in
            guard try db.tableExists("duplicateMember") else { return [:] }
            var result: [Int64: RelativePath] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT d.photoId, k.path FROM duplicateMember d JOIN photo k ON k.id = d.groupId
                WHERE d.tier = 'similar' AND d.position > 0
                """)
            while let row = try rows.next() { result[row[0]] = RelativePath(bytes: Array(row[1] as Data)) }
            return result
        }
    }

    /// Every photo in a stack, with its stack's id.
    public func stacks() throws(IndexError) -> [Int64: Int64] {
        try read { db in
            guard try db.tableExists("stack") else { return [:] }
            var result: [Int64: Int64] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT photoId, stackId FROM stack")
            while let row = try rows.next() { result[row[0]] = row[1] }
            return result
        }
    }

    /// The number of photos in each stack, by its cover's id (the stack's id).
    public func stackCounts() throws(IndexError) -> [Int64: Int] {
        try read { db in
            guard try db.tableExists("stack") else { return [:] }
            var result: [Int64: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT stackId, count(*) FROM stack GROUP BY stackId")
            while let row = try rows.next() { result[row[0]] = row[1] }
            return result
        }
    }

    /// The ids of the photos of the stack whose cover is `cover`, the cover first, then in capture
    /// order; empty when `cover` is no stack's cover.
    public func stackMembers(of cover: Int64) throws(IndexError) -> [Int64] {
        try read { db in
            guard try db.tableExists("stack") else { return [] }
            return try Int64.fetchAll(db, sql: """
                SELECT p.id FROM stack s JOIN photo p ON p.id = s.photoId WHERE s.stackId = ?
                ORDER BY p.id != s.stackId, p.captured, p.path
                """, arguments: [cover])
        }
    }

    /// What ``storeStacks(_:)`` changes: the stacks wanted and those stored, of the photos in scope.
    struct StackPlan: Sendable {
        var wanted: [Int64: Int64] = [:]
        var stored: [Int64: Int64] = [:]
    }

    /// The stacks the photo rows make (`StackFinder`), against those stored, read on a reader
    /// connection: an index run finds them while its writer builds the search index, then stores
    /// the plan (``storeStacks(_:)``, which writes only what changed).
    ///
    /// Stacks never span folders, so a run that changed a few folders passes them as `folders` and
    /// only their photos are read (an incremental run on a large library stays cheap); `nil` reads
    /// every photo.
    func planStacks(inFolders folders: Set<RelativePath>?) throws(IndexError) -> StackPlan {
        try read { db in try Self.planStacks(db, inFolders: folders) }
    }

    /// Stores `plan`, made by ``planStacks(inFolders:)`` since the last write; returns the number
    /// of stacks.
    @discardableResult
    func storeStacks(_ plan: StackPlan) throws(IndexError) -> Int {
        try write { db in try Self.store(plan, db) }
    }

    private static func planStacks(_ db: Database, inFolders folders: Set<RelativePath>?) throws -> StackPlan {
        // Each scope: a condition on the photo rows `p`, and whether a path it matches may lie
        // deeper than the folder (a range of paths also holds the subfolders' files).
        var scopes: [(condition: String, arguments: StatementArguments, folder: [UInt8]?)] = []
        if let folders {
            for folder in folders.sorted(by: <) {
                if folder.bytes.isEmpty {
                    scopes.append(("instr(p.path, X'2F') = 0", [], nil))
                } else {
                    let low = Data(folder.bytes + [UInt8(ascii: "/")]), high = Data(folder.bytes + [UInt8(ascii: "0")])
                    scopes.append(("p.path > ? AND p.path < ?", [low, high], folder.bytes))
                }
            }
        } else {
            scopes.append(("1", [], nil))
        }
        /// Whether `path`, matched by a scope of `folder`, lies directly in it.
        func isDirectlyIn(_ folder: [UInt8]?, _ path: UnsafeRawBufferPointer) -> Bool {
            guard let folder else { return true }
            return !path.dropFirst(folder.count + 1).contains(UInt8(ascii: "/"))
        }

        var photos: [StackFinder.Photo] = []
        var plan = StackPlan()
        // Cameras and formats repeat from row to row: each is made once where it changes.
        var camera = RepeatedValue<String?>(), format = RepeatedValue<Bool>()
        for scope in scopes {
            // Read by position straight from SQLite (`RawRow`): through `Row` this loop was most of
            // a first index's stack finding.
            let rows = try db.makeStatement(sql: """
                SELECT p.id, p.path, p.format, p.make, p.model, p.captured, p.dateSource IN \(Self.metadataDateSources)
                FROM photo p WHERE \(scope.condition) AND p.mediaType = 'photo' AND p.missingSince IS NULL
                """)
            try rows.setArguments(scope.arguments)
            var folder: [UInt8] = []
            try forEachRow(of: rows, in: db) { row in
                guard let path = row.bytes(1), isDirectlyIn(scope.folder, path) else { return }
                let slash = path.lastIndex(of: UInt8(ascii: "/"))
                // One array per folder, shared by its photos (rows come folder by folder).
                let folderBytes = path[..<(slash ?? 0)]
                if !folder.elementsEqual(folderBytes) { folder = Array(folderBytes) }
                let make = Self.trimmed(row.bytes(3)), model = Self.trimmed(row.bytes(4))
                let fromMetadata = row.int64(6) != 0
                photos.append(StackFinder.Photo(
                    id: row.int64(0), folder: folder,
                    name: slash.map { Array(path[($0 + 1)...]) } ?? Array(path),
                    isRaw: format.value(for: row.bytes(2), nil) { format, _ in
                        format.flatMap { ImageFormat(rawValue: String(decoding: $0, as: UTF8.self)) }?.isRaw ?? false
                    },
                    camera: camera.value(for: make, model) { make, model in
                        // Make and model without their blanks, joined by one space; nil when both are empty.
                        let make = make.map { String(decoding: $0, as: UTF8.self) } ?? ""
                        let model = model.map { String(decoding: $0, as: UTF8.self) } ?? ""
                        let camera = make.isEmpty ? model : model.isEmpty ? make : make + " " + model
                        return camera.isEmpty ? nil : camera
                    },
                    captured: fromMetadata ? row.bytes(5).flatMap(DuplicateRow.millisecond(ofStored:)) : nil))
            }
            let current = try db.makeStatement(sql: """
                SELECT s.photoId, s.stackId, p.path FROM stack s JOIN photo p ON p.id = s.photoId WHERE \(scope.condition)
                """)
            try current.setArguments(scope.arguments)
            try forEachRow(of: current, in: db) { row in
                if let path = row.bytes(2), isDirectlyIn(scope.folder, path) { plan.stored[row.int64(0)] = row.int64(1) }
            }
        }
        plan.wanted = StackFinder.stacks(of: photos)
        return plan
    }

    /// `bytes` without the spaces and tabs at either end (SQLite's `trim(x, ' ' || char(9))`).
    private static func trimmed(_ bytes: UnsafeRawBufferPointer?) -> UnsafeRawBufferPointer? {
        guard var bytes else { return nil }
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while let first = bytes.first, isBlank(first) { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst()) }
        while let last = bytes.last, isBlank(last) { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
        return bytes
    }

    /// A value made from one or two columns' bytes, made again only when they differ from the
    /// last row's.
    private struct RepeatedValue<Value> {
        private var key = ColumnsKey(), candidate = ColumnsKey(), last: Value?

        mutating func value(
            for first: UnsafeRawBufferPointer?, _ second: UnsafeRawBufferPointer?,
            _ make: (UnsafeRawBufferPointer?, UnsafeRawBufferPointer?) -> Value
        ) -> Value {
            candidate.removeAll()
            candidate.append(first)
            candidate.append(second)
            if let last, candidate == key { return last }
            swap(&key, &candidate)
            let value = make(first, second)
            last = value
            return value
        }
    }

    private static func store(_ plan: StackPlan, _ db: Database) throws -> Int {
        let delete = try db.makeStatement(sql: "DELETE FROM stack WHERE photoId = ?")
        for (photo, _) in plan.stored where plan.wanted[photo] == nil { try delete.execute(arguments: [photo]) }
        let upsert = try db.makeStatement(sql: "INSERT OR REPLACE INTO stack (photoId, stackId) VALUES (?, ?)")
        for (photo, stack) in plan.wanted where plan.stored[photo] != stack { try upsert.execute(arguments: [photo, stack]) }
        return Set(plan.wanted.values).count
    }
}

