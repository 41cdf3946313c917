import HTTPTypes
import Hummingbird

/// Refuses what a web page elsewhere could make a browser send: a `Host` the server does not go by
/// (DNS rebinding: evil.example resolving to 127.0.0.1) with 421, and API requests a browser marks
/// `Sec-Fetch-Site: cross-site` with 403.
///
/// Accepted hosts: `localhost`, `127.0.0.1`, `[::1]`, the bound address and the configured names,
/// each with or without a port. A server bound to every address (`0.0.0.0`, `::`) cannot know its
/// names, so it checks `Host` only when names are configured; its token protects it.
struct HostMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Lower-case host names without ports; nil accepts any.
    let accepted: Set<String>?

    init(boundHost: String, names: [String]) {
        let bound = boundHost.lowercased()
        let wildcard = ["0.0.0.0", "::", "[::]", "*", ""].contains(bound)
        if wildcard && names.isEmpty {
            accepted = nil
        } else {
            var hosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
            if !wildcard { hosts.insert(bound.contains(":") && !bound.hasPrefix("[") ? "[\(bound)]" : bound) }
            for name in names { hosts.insert(Self.hostPart(name.lowercased())) }
            accepted = hosts
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // HTTP/1.1's Host arrives as the authority. An HTTP/1.0 request may have none; no browser
        // sends one without it, so it cannot be a rebinding attack.
        if let accepted, let host = request.head.authority {
            guard accepted.contains(Self.hostPart(host.lowercased())) else {
                throw APIError(
                    .misdirectedRequest, code: "misdirectedRequest",
                    "This server does not answer to the host \(Query.shown(host)); open it as http://localhost or http://127.0.0.1, or add the name with --host-name.")
            }
        }
        if request.headers[.secFetchSite] == "cross-site", request.uri.path == "/api" || request.uri.path.hasPrefix("/api/") {
            throw APIError(.forbidden, code: "crossSite", "The API does not answer requests made by other web sites.")
        }
        return try await next(request, context)
    }

    /// `name` without its port: `[::1]:8080` → `[::1]`, `localhost:8080` → `localhost`.
    static func hostPart(_ name: String) -> String {
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return name }
            return String(name[...close])
        }
        guard let colon = name.lastIndex(of: ":"), name.firstIndex(of: ":") == colon else { return name }
        return String(name[..<colon])
    }
}

extension HTTPField.Name {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}
