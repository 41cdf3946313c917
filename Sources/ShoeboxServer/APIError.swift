import Foundation
import Hummingbird
import LibraryIndex
import PhotoLibrary

/// An error answered as `{"error": {"code": "...", "message": "..."}}` with a 4xx or 5xx status.
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// The request field at fault, when one is (a correction's `shift`, `ids`, …).
    var field: String?
    /// Sent besides the JSON's own (e.g. `Allow` with a 405).
    var headers: HTTPFields

    init(_ status: HTTPResponse.Status, code: String, field: String? = nil, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.field = field
        self.message = message
        self.headers = headers
    }

    /// A bad query parameter.
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, code: "invalidRequest", message) }

    /// A library error, with the status its code calls for.
    init(_ error: LibraryError) {
        switch error.code {
        case .outOfRange: self.init(.notFound, code: "notFound", error.message)
        case .invalidRequest, .invalidSettings: self.init(.badRequest, code: "invalidRequest", error.message)
        case .fileUnavailable: self.init(.notFound, code: "fileUnavailable", error.message)
        default:
            let code = error.indexError.map { "\($0.code)" } ?? "\(error.code)"
            self.init(.serviceUnavailable, code: code, error.message)
        }
    }

    /// `{"error": {"code": …, "message": …}}`, with `field` when one is at fault.
    private struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var field: String?
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(code, forKey: .code)
                try c.encodeIfPresent(field, forKey: .field)
                try c.encode(message, forKey: .message)
            }
            enum CodingKeys: String, CodingKey { case code, field, message }
        }
        var error: Detail
    }

    /// The JSON body.
    var body: Data {
        (try? ContractJSON.encode(Body(error: .init(code: code, message: message, field: field)), compact: true)) ?? Data(#"{"error":{"code":"internal","message":"unencodable"}}"#.utf8)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        fields.append(contentsOf: headers)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// Turns every error a route throws into the JSON error shape (never Hummingbird's plain text).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as LibraryError {
            throw APIError(error)
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "notFound" : "httpError"
            throw APIError(error.status, code: code, error.body ?? error.status.reasonPhrase)
        } catch {
            throw APIError(.internalServerError, code: "internal", "The server failed: \(error).")
        }
    }
}
