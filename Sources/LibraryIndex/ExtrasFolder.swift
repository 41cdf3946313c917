import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder a library's extras move to, which must lie outside the library tree: neither the
/// root, nor inside it, nor holding it (the root's parent would take `photos/x.jpg` of a root
/// named `photos` back into the library).
enum ExtrasFolder {
    /// `path` made absolute with its links resolved, as far as it exists (the rest is appended
    /// as written, with `.` and `..` taken out).
    static func resolved(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path).standardizedFileURL.path
        var existing = absolute
        var missing: [String] = []
        while existing != "/" {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                let base = String(cString: real)
                return missing.isEmpty ? base : (base == "/" ? "" : base) + "/" + missing.reversed().joined(separator: "/")
            }
            missing.append((existing as NSString).lastPathComponent)
            existing = (existing as NSString).deletingLastPathComponent
        }
        return absolute
    }

    /// Why the folder at the absolute, resolved `folder` cannot take the extras of the library
    /// at `roots` (the root as the index names it and resolved), or nil.
    static func refusal(_ folder: String, roots: [String]) -> String? {
        func isInside(_ path: String, _ base: String) -> Bool { path == base || base == "/" || path.hasPrefix(base + "/") }
        for root in roots {
            if isInside(folder, root) { return "is inside the library folder \(root); the extras must leave the library tree" }
            if isInside(root, folder) { return "holds the library folder \(root), so extras could land back inside it; give a folder outside the library" }
        }
        return nil
    }

    /// Checks `destination`, creates it, and opens it; returns it and its resolved path.
    ///
    /// The check is made before anything is created (a refused folder inside the library leaves
    /// no empty folders there) and again on the folder opened, in case a link was swapped in.
    static func open(_ destination: String, root: String, library: NoFollowFolder) throws(MoveError) -> (folder: NoFollowFolder, path: String) {
        let roots = [root] + [library.resolvedPath].compactMap { $0 }
        let wanted = resolved(destination)
        if let refusal = refusal(wanted, roots: roots) { throw MoveError(path: destination, "\(destination) \(refusal).") }
        do {
            try FileManager.default.createDirectory(atPath: wanted, withIntermediateDirectories: true)
        } catch {
            throw MoveError(path: destination, "Cannot create \(destination): \(error.localizedDescription)")
        }
        let folder: NoFollowFolder
        do { folder = try NoFollowFolder(path: wanted) } catch { throw MoveError(path: destination, "Cannot open \(destination): \(error).") }
        guard let opened = folder.resolvedPath else { throw MoveError(path: destination, "Cannot tell where \(destination) is.") }
        if let refusal = refusal(opened, roots: roots) { throw MoveError(path: destination, "\(destination) \(refusal).") }
        return (folder, opened)
    }
}
