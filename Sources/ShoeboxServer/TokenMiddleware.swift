import Foundation
import Hummingbird

/// Requires the server's token on every request: `Authorization: Bearer TOKEN`, `?token=TOKEN`
/// (which also sets a cookie, so the viewer's images and links carry it, replacing one that holds
/// another token), or that cookie.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String
    static var cookieName: String { "shoebox_token" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let bearer = request.headers[.authorization].flatMap { value in
            value.hasPrefix("Bearer ") ? String(value.dropFirst(7)) : nil
        }
        let query = request.uri.queryParameters.get("token")
        let cookie = request.cookies[Self.cookieName]?.value
        guard [bearer, query, cookie].contains(where: { $0.map(matches) ?? false }) else {
            throw APIError(.unauthorized, code: "unauthorized", "This server needs its token: send `Authorization: Bearer TOKEN`, or open the viewer with ?token=TOKEN.")
        }
        var response = try await next(request, context)
        // A token in the address replaces an older cookie (say, of a server since restarted with another token).
        if let query, matches(query), cookie != query {
            response.setCookie(Cookie(name: Self.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }

    /// Compares in time independent of where the first difference is.
    private func matches(_ candidate: String) -> Bool {
        let a = Array(candidate.utf8), b = Array(token.utf8)
        var difference = a.count ^ b.count
        for i in 0..<max(a.count, b.count) {
            difference |= Int((i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0))
        }
        return difference == 0
    }
}
