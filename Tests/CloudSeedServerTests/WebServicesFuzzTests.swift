import CloudSeed
import CloudSeedServer
import CloudSeedTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `serve` tried on requests drawn from the OpenAPI description of CloudKit Web Services in
/// `../shared/cloudkit-ws` (published by others): whatever comes in, the answer is CloudKit's JSON
/// and never a server error.
@Suite struct WebServicesFuzzTests {
    static let specification = Repository.root.deletingLastPathComponent()
        .appendingPathComponent("shared/cloudkit-ws/openapi.yaml")

    /// Requests per operation of the description.
    static let requestsPerOperation = 100

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: specification.path),
            "../shared/cloudkit-ws/openapi.yaml is absent; it is published by others, beside the project"))
    func answersEveryRequestWithCloudKitsJSONAndNoServerError() async throws {
        let folder = try RecordsQueryTests.seededGallery()
        let server = try CloudKitServer(store: ContainerStore(folder.path("cloudseed.sqlite")))
        var requests = try OpenAPIRequests(
            specification: Self.specification,
            pathValues: [
                "version": ["1", "2"], "container": ["iCloud.com.example.Gallery", "iCloud.com.example.Other"],
                "environment": ["development", "production"], "database": ["public", "private", "shared"],
            ], seed: 57)
        try #require(requests.operations.count >= 15)
        try await RunningServer.with(server) { server in
            var failures: [String] = []
            var sent = 0
            for operation in requests.operations {
                for round in 0..<Self.requestsPerOperation {
                    var request = requests.request(for: operation)
                    if round % 10 == 9 { request.path += "?ckAPIToken=unknown&ckWebAuthToken=someone" }
                    let answer = try await server.send(
                        request.path, method: request.method, body: request.body,
                        headers: ["Content-Type": round % 2 == 0 ? "application/json" : "text/plain"])
                    sent += 1
                    if let problem = Self.problem(with: answer) { failures.append("\(problem): \(request)") }
                }
            }
            for path in ["/database/2/x/development/public/records/query", "/nothing", "/database/1"] {
                let answer = try await server.send(path, method: "POST", body: Data("{}".utf8), headers: [:])
                if let problem = Self.problem(with: answer) { failures.append("\(problem): POST \(path)") }
                #expect(answer.status == 404)
            }
            #expect(sent == requests.operations.count * Self.requestsPerOperation)
            #expect(
                failures.isEmpty,
                "\(failures.count) answers were not CloudKit's:\n\(failures.prefix(20).joined(separator: "\n"))")
        }
    }

    /// What is wrong with an answer: a server error, a body that is no JSON object, an error
    /// without CloudKit's `uuid`, `serverErrorCode` and `reason`.
    static func problem(with answer: RunningServer.Answer) -> String? {
        guard answer.status < 500 else { return "status \(answer.status) \(answer.body.prefix(300))" }
        guard answer.contentType?.hasPrefix("application/json") == true else {
            return "content type \(answer.contentType ?? "none")"
        }
        guard let object = try? JSONSerialization.jsonObject(with: answer.data) as? [String: Any] else {
            return "not a JSON object: \(answer.body.prefix(300))"
        }
        if answer.status >= 400 {
            guard object["uuid"] is String, object["serverErrorCode"] is String, object["reason"] is String else {
                return "status \(answer.status) without CloudKit's error: \(answer.body.prefix(300))"
            }
        }
        return nil
    }
}
