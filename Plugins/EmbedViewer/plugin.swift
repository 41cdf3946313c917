import Foundation
import PackagePlugin

/// Builds the web viewer's files (the target's `Viewer` folder) into the executable: a generated
/// Swift source with each file's bytes, so a `shoebox` copied alone still serves its viewer.
@main
struct EmbedViewer: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Viewer")
        let files = try viewerFiles(in: folder)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedViewer+Files.swift")
        return [
            .buildCommand(
                displayName: "Embedding the web viewer (\(files.count) files)",
                executable: try context.tool(named: "embed-viewer").url,
                arguments: [folder.path, output.path],
                inputFiles: files,
                outputFiles: [output])
        ]
    }

    /// Every regular file under `folder`, so changing, adding or removing one rebuilds the source.
    private func viewerFiles(in folder: URL) throws -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return try walk.compactMap { item in
            guard let url = item as? URL, try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { return nil }
            return url
        }.sorted { $0.path < $1.path }
    }
}
