import Dispatch
import Foundation

// The table file `scripts/places-data` writes, all integers little-endian:
//
//   header   "SHBXPLC3", then UInt32 × 8: places, countries, regions, zones, strings, string bytes,
//            the credit's string, 0
//   strings  UInt32 × (strings + 1) offsets into the bytes, then the UTF-8 bytes padded to 4
//   countries  × (2 ASCII bytes of the ISO code, UInt16 0, UInt32 name string)
//   regions    × UInt32 name string
//   zones      × UInt32 IANA name string
//   places     × (Int32 latitude µ°, Int32 longitude µ°, UInt32 population, UInt32 name string,
//                 UInt32 region or 0xFFFFFFFF, UInt16 country, UInt16 zone), in k-d tree slot order
//   axes     UInt8 × places: the split axis (0 x, 1 y, 2 z of the unit vector) at each node's slot
//            (see SphereTree), padded to 4
//   vectors  Float64 × 3 × places: each place's unit vector (`SphereTree.unitVector` of its stored
//            micro-degrees), in slot order
//
// So a process that loads the table reads its index and its vectors instead of computing them
// (building the tree was most of a load, then the trigonometry of 235,000 vectors was: some 15 ms
// of CPU at the start of every index run, while the readers wanted the cores). Files written by
// older set-ups still load: "SHBXPLC2" has no vectors, which are computed; "SHBXPLC1" has the
// places in any order and no axes either, and the index is built.

extension PlaceTable {
    static let headerSize = 40
    static let placeSize = 24
    static let vectorSize = 24

    /// The file layouts a load understands, newest last.
    package enum FileLayout: CaseIterable, Sendable {
        /// "SHBXPLC1": places in input order; the load builds the index.
        case unordered
        /// "SHBXPLC2": places in k-d tree order with each node's axis.
        case treeOrdered
        /// "SHBXPLC3": as `treeOrdered`, then each place's unit vector: what `scripts/places-data` writes.
        case treeOrderedWithVectors

        var magic: [UInt8] {
            switch self {
            case .unordered: Array("SHBXPLC1".utf8)
            case .treeOrdered: Array("SHBXPLC2".utf8)
            case .treeOrderedWithVectors: Array("SHBXPLC3".utf8)
            }
        }
    }

    /// Reads a table written by the set-up (`scripts/places-data`) and indexes it.
    ///
    /// - Throws: ``PlaceTableError`` with `.missing` when there is no file at `path`, `.unreadable`
    ///   when it cannot be read, `.malformed` when it is not a whole places table of this version.
    public static func load(path: String) throws(PlaceTableError) -> PlaceTable {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw PlaceTableError(.missing, "There is no places table at \(path).", subject: path)
        }
        let table = try withMappedFile(path) { decode($0) }
        guard let table else {
            throw PlaceTableError(
                .malformed, "\(path) is not a places table this Shoebox can read; run the set-up again.", subject: path)
        }
        return table
    }

    /// Calls `body` with the bytes of the file at `path`, mapped read-only: reading a whole table
    /// into fresh memory took about a quarter of a load, most of it the kernel zeroing pages to copy into.
    /// The set-up replaces a table by renaming a new file over it, so a mapped one never shrinks.
    private static func withMappedFile<T>(_ path: String, _ body: (UnsafeRawBufferPointer) -> T) throws(PlaceTableError) -> T {
        func unreadable() -> PlaceTableError {
            let reason = String(cString: strerror(errno))
            return PlaceTableError(.unreadable, "The places table \(path) could not be read (\(reason)).", subject: path)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable() }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable() }
        let size = Int(status.st_size)
        guard size > 0 else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let start = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0), start != MAP_FAILED else {
            throw unreadable()
        }
        defer { munmap(start, size) }
        return body(UnsafeRawBufferPointer(start: start, count: size))
    }

    /// The table in `bytes`, or `nil` when they are not a whole, consistent table.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> PlaceTable? {
        func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        func u16(_ offset: Int) -> UInt16 { UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
        func i32(_ offset: Int) -> Int32 { Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)) }

        guard bytes.count >= headerSize, let layout = FileLayout.allCases.first(where: { $0.magic.elementsEqual(bytes[0..<8]) }) else {
            return nil
        }
        let treeOrdered = layout != .unordered
        let placeCount = Int(u32(8)), countryCount = Int(u32(12)), regionCount = Int(u32(16)), zoneCount = Int(u32(20))
        let stringCount = Int(u32(24)), stringBytes = Int(u32(28)), creditID = Int(u32(32))
        let paddedStringBytes = (stringBytes + 3) / 4 * 4
        let offsetsStart = headerSize
        let bytesStart = offsetsStart + 4 * (stringCount + 1)
        let countriesStart = bytesStart + paddedStringBytes
        let regionsStart = countriesStart + 8 * countryCount
        let zonesStart = regionsStart + 4 * regionCount
        let placesStart = zonesStart + 4 * zoneCount
        // Counts are UInt32, so none of these sums can overflow Int on a 64-bit machine.
        let axesStart = placesStart + placeSize * placeCount
        let axesBytes = treeOrdered ? (placeCount + 3) / 4 * 4 : 0
        let vectorsStart = axesStart + axesBytes
        let vectorsBytes = layout == .treeOrderedWithVectors ? vectorSize * placeCount : 0
        guard vectorsStart + vectorsBytes == bytes.count, creditID < stringCount,
              countryCount <= Int(UInt16.max) + 1, zoneCount <= Int(UInt16.max) + 1
        else { return nil }

        var offsets: [UInt32] = []
        offsets.reserveCapacity(stringCount + 1 + countryCount)
        for i in 0...stringCount {
            let offset = u32(offsetsStart + 4 * i)
            guard Int(offset) <= stringBytes, i > 0 ? offset >= offsets[i - 1] : offset == 0 else { return nil }
            offsets.append(offset)
        }
        var strings = StringTable(block: UnsafeRawBufferPointer(rebasing: bytes[bytesStart..<bytesStart + stringBytes]), offsets: offsets)

        var countries: [Country] = []
        countries.reserveCapacity(countryCount)
        for i in 0..<countryCount {
            let base = countriesStart + 8 * i
            let code = bytes[base..<base + 2]
            let name = u32(base + 4)
            guard code.allSatisfy({ (65...90).contains($0) }), Int(name) < stringCount else { return nil }
            countries.append(Country(code: strings.append(String(decoding: code, as: UTF8.self)), name: name))
        }
        var regions: [UInt32] = []
        for i in 0..<regionCount {
            let name = u32(regionsStart + 4 * i)
            guard Int(name) < stringCount else { return nil }
            regions.append(name)
        }
        var zones: [UInt32] = []
        for i in 0..<zoneCount {
            let name = u32(zonesStart + 4 * i)
            guard Int(name) < stringCount else { return nil }
            zones.append(name)
        }

        var rows: [Row] = []
        rows.reserveCapacity(placeCount)
        for i in 0..<placeCount {
            let base = placesStart + placeSize * i
            let latitude = i32(base), longitude = i32(base + 4)
            let name = u32(base + 12), region = u32(base + 16)
            let country = u16(base + 20), zone = u16(base + 22)
            guard (-90_000_000...90_000_000).contains(latitude), (-180_000_000...180_000_000).contains(longitude),
                  Int(name) < stringCount, region == Row.none || Int(region) < regionCount,
                  Int(country) < countryCount, Int(zone) < zoneCount
            else { return nil }
            rows.append(Row(
                population: u32(base + 8), name: name, region: region == Row.none ? Row.none : regions[Int(region)],
                timeZone: zones[Int(zone)], country: country))
        }
        guard let points = layout == .treeOrderedWithVectors
            ? storedVectors(bytes, at: vectorsStart, count: placeCount) : computedVectors(bytes, at: placesStart, count: placeCount)
        else { return nil }
        var axes: [UInt8]?
        if treeOrdered {
            let stored = Array(UnsafeRawBufferPointer(rebasing: bytes[axesStart..<axesStart + placeCount]))
            guard stored.allSatisfy({ $0 <= 2 }) else { return nil }
            axes = stored
        }
        return PlaceTable(
            strings: strings, countries: countries, rows: rows, points: points, axes: axes,
            credit: strings[creditID])
    }

    /// The unit vectors a table file stores from `start`, or `nil` when one is not a unit vector.
    private static func storedVectors(_ bytes: UnsafeRawBufferPointer, at start: Int, count placeCount: Int) -> [SIMD3<Double>]? {
        func f64(_ offset: Int) -> Double {
            Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
        }
        var points: [SIMD3<Double>] = []
        points.reserveCapacity(placeCount)
        for i in 0..<placeCount {
            let at = start + vectorSize * i
            let point = SIMD3(f64(at), f64(at + 8), f64(at + 16))
            // Not NaN, and of length 1 within rounding.
            guard abs((point * point).sum() - 1) <= 1e-9 else { return nil }
            points.append(point)
        }
        return points
    }

    /// The unit vectors of the places stored from `start` (a file without them), from their
    /// micro-degrees, on every core.
    private static func computedVectors(_ bytes: UnsafeRawBufferPointer, at placesStart: Int, count placeCount: Int) -> [SIMD3<Double>] {
        [SIMD3<Double>](unsafeUninitializedCapacity: placeCount) { buffer, count in
            let chunks = min(8, max(1, placeCount / 16_384))
            let chunk = (placeCount + chunks - 1) / chunks
            nonisolated(unsafe) let base = buffer.baseAddress, file = bytes
            DispatchQueue.concurrentPerform(iterations: chunks) { part in
                for i in part * chunk..<min(placeCount, (part + 1) * chunk) {
                    let at = placesStart + placeSize * i
                    let latitude = Int32(littleEndian: file.loadUnaligned(fromByteOffset: at, as: Int32.self))
                    let longitude = Int32(littleEndian: file.loadUnaligned(fromByteOffset: at + 4, as: Int32.self))
                    (base! + i).initialize(to: SphereTree.unitVector(latitude: Double(latitude) / 1e6, longitude: Double(longitude) / 1e6))
                }
            }
            count = placeCount
        }
    }

    /// The file `scripts/places-data` would write for these places, for tests and tools; with an
    /// older `layout`, the file an older set-up wrote.
    package static func encode(_ input: [Entry], credit: String, layout: FileLayout = .treeOrderedWithVectors) -> [UInt8] {
        var entries = input
        var axes: [UInt8] = []
        var vectors: [UInt8] = []
        if layout != .unordered {
            // The positions as the file stores them (whole micro-degrees), so the loaded tree holds.
            func stored(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }
            let tree = SphereTree(points: input.map {
                SphereTree.unitVector(latitude: stored($0.latitude), longitude: stored($0.longitude))
            })
            entries = tree.order.map { input[Int($0)] }
            axes = tree.axes + repeatElement(0, count: (4 - input.count % 4) % 4)
            if layout == .treeOrderedWithVectors {
                for point in tree.points {
                    for value in [point.x, point.y, point.z] {
                        withUnsafeBytes(of: value.bitPattern.littleEndian) { vectors.append(contentsOf: $0) }
                    }
                }
            }
        }
        var strings: [String] = []
        var ids: [String: UInt32] = [:]
        func intern(_ text: String) -> UInt32 {
            if let id = ids[text] { return id }
            ids[text] = UInt32(strings.count)
            strings.append(text)
            return UInt32(strings.count - 1)
        }
        let creditID = intern(credit)
        var countryIndex: [String: UInt16] = [:], countryRecords: [(String, UInt32)] = []
        var regionIndex: [String: UInt32] = [:], regionRecords: [UInt32] = []
        var zoneIndex: [String: UInt16] = [:], zoneRecords: [UInt32] = []
        var places: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        for entry in entries {
            let name = intern(entry.name)
            let country = countryIndex[entry.countryCode] ?? {
                countryRecords.append((entry.countryCode, intern(entry.countryName)))
                countryIndex[entry.countryCode] = UInt16(countryRecords.count - 1)
                return UInt16(countryRecords.count - 1)
            }()
            let zone = zoneIndex[entry.timeZone] ?? {
                zoneRecords.append(intern(entry.timeZone))
                zoneIndex[entry.timeZone] = UInt16(zoneRecords.count - 1)
                return UInt16(zoneRecords.count - 1)
            }()
            var region = Row.none
            if let regionName = entry.region {
                region = regionIndex[regionName] ?? {
                    regionRecords.append(intern(regionName))
                    regionIndex[regionName] = UInt32(regionRecords.count - 1)
                    return UInt32(regionRecords.count - 1)
                }()
            }
            append(Int32((entry.latitude * 1e6).rounded()), to: &places)
            append(Int32((entry.longitude * 1e6).rounded()), to: &places)
            append(UInt32(clamping: entry.population), to: &places)
            append(name, to: &places)
            append(region, to: &places)
            append(country, to: &places)
            append(zone, to: &places)
        }
        var blob: [UInt8] = [], offsets: [UInt32] = [0]
        for text in strings {
            blob.append(contentsOf: text.utf8)
            offsets.append(UInt32(blob.count))
        }
        let stringBytes = blob.count
        blob.append(contentsOf: repeatElement(0, count: (4 - stringBytes % 4) % 4))

        var file = layout.magic
        for count in [entries.count, countryRecords.count, regionRecords.count, zoneRecords.count, strings.count, stringBytes, Int(creditID), 0] {
            append(UInt32(count), to: &file)
        }
        for offset in offsets { append(offset, to: &file) }
        file += blob
        for (code, name) in countryRecords {
            file += Array(code.utf8.prefix(2))
            append(UInt16(0), to: &file)
            append(name, to: &file)
        }
        for name in regionRecords { append(name, to: &file) }
        for name in zoneRecords { append(name, to: &file) }
        return file + places + axes + vectors
    }
}
