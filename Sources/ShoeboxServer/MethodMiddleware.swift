import HTTPTypes
import Hummingbird

/// Every route answers GET and HEAD only: HEAD is the GET's answer (status and headers, with its
/// `Content-Length`) without the body; any other method is 405 with `Allow: GET, HEAD`. The
/// corrections (`writeRoutes`) take POST only.
///
/// The outermost middleware, so a HEAD's error answer (made by `JSONErrorMiddleware` inside it)
/// loses its body too.
struct MethodMiddleware<Context: RequestContext>: RouterMiddleware {
    static var allowed: String { "GET, HEAD" }
    /// The routes that write (corrections): POST, and nothing else.
    static var writeRoutes: Set<String> { ["/api/adjust", "/api/adjust/undo"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.writeRoutes.contains(request.uri.path), request.method != .post {
            throw APIError(.methodNotAllowed, code: "methodNotAllowed", "\(request.uri.path) takes POST with a JSON body (got \(request.method.rawValue)).", headers: [.allow: "POST"])
        }
        switch request.method {
        case .get:
            return try await next(request, context)
        case .head:
            var head = request.head
            head.method = .get
            do {
                return try await next(Request(head: head, body: request.body), context).createHeadResponse()
            } catch let error as any HTTPResponseError {
                return try error.response(from: request, context: context).createHeadResponse()
            }
        case .post where Self.writeRoutes.contains(request.uri.path):
            return try await next(request, context)
        default:
            throw APIError(
                .methodNotAllowed, code: "methodNotAllowed", "Shoebox answers only GET and HEAD (got \(request.method.rawValue)).",
                headers: [.allow: Self.allowed])
        }
    }
}
