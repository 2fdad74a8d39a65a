import CloudSeed
import Crypto
import Foundation

/// `assets/upload` and the asset bytes: a request asks for upload URLs, the bytes posted to one are
/// stored by their SHA-256 and answered with the `singleFile` dictionary a record's ASSETID field
/// takes; a record's asset carries a `downloadURL` back to this server.
enum Assets {
    /// The path bytes are posted to, on the server's root.
    static let uploadPath = "assets/upload"

    /// `tokens[{recordName, recordType, fieldName}]` → `tokens[{recordName, fieldName, url}]`.
    static func tokens(_ request: DatabaseRequest) throws -> String {
        guard let entries = try request.json()["tokens"]?.items else {
            throw ServerError(.badRequest, "the request needs tokens, as [{\"recordType\": …, \"fieldName\": …}]")
        }
        let tokens = try entries.map { entry in
            guard let fieldName = entry["fieldName"]?.string else {
                throw ServerError(.badRequest, "each token needs a fieldName")
            }
            return JSONText.object([
                ("recordName", JSONText.quoted(entry["recordName"]?.string ?? UUID().uuidString)),
                ("fieldName", JSONText.quoted(fieldName)), ("url", JSONText.quoted("\(request.baseURL)/\(uploadPath)")),
            ])
        }
        return JSONText.object([("tokens", JSONText.array(tokens))])
    }

    /// Stores posted bytes as an asset: `{"singleFile": {fileChecksum, size, receipt}}`.
    static func upload(_ bytes: [UInt8], store: ContainerStore) throws -> String {
        let checksum = SHA256.hexDigest(of: bytes)
        let asset = AssetReference(fileChecksum: checksum, size: Int64(bytes.count))
        try store.exclusively { try store.backend.write { try $0.saveAsset(asset, content: Data(bytes)) } }
        return JSONText.object([
            (
                "singleFile",
                JSONText.object([
                    ("fileChecksum", JSONText.quoted(checksum)), ("size", String(bytes.count)),
                    ("receipt", JSONText.quoted(checksum)),
                ])
            )
        ])
    }

    /// The bytes of the asset with `checksum`, or NOT_FOUND.
    static func download(_ checksum: String, store: ContainerStore) throws -> Data {
        guard let content = try store.assetContent(checksum: checksum) else {
            throw ServerError(.notFound, "no asset with the checksum '\(checksum)'")
        }
        return content
    }
}
