import CloudSeed

/// What a push did, printed as text or, with `--json`, as one JSON object.
package struct PushSummary: Sendable {
    /// Records the server confirmed.
    package var sent = 0
    /// Records the journal shows were sent as they are, so not sent again.
    package var unchanged = 0
    /// Asset files uploaded.
    package var assetsUploaded = 0
    package var zonesCreated = 0
    package var requests = 0
    package var retries = 0
    /// Each record the server refused: its name and CloudKit's code and reason.
    package var refused: [(recordName: String, code: String, reason: String)] = []

    /// Adds what another part of the push did.
    mutating func add(_ other: PushSummary) {
        sent += other.sent
        unchanged += other.unchanged
        assetsUploaded += other.assetsUploaded
        zonesCreated += other.zonesCreated
        refused += other.refused
    }

    package var text: String {
        "Pushed \(sent) records (\(assetsUploaded) assets, \(zonesCreated) zones created) in \(requests) requests, "
            + "\(retries) tried again; \(unchanged) unchanged since the last push; \(refused.count) refused\n"
    }

    package var json: String {
        JSONText.object([
            ("sent", String(sent)), ("unchanged", String(unchanged)), ("assetsUploaded", String(assetsUploaded)),
            ("zonesCreated", String(zonesCreated)), ("requests", String(requests)), ("retries", String(retries)),
            (
                "refused",
                JSONText.array(
                    refused.map {
                        JSONText.object([
                            ("recordName", JSONText.quoted($0.recordName)),
                            ("serverErrorCode", JSONText.quoted($0.code)),
                            ("reason", JSONText.quoted($0.reason)),
                        ])
                    })
            ),
        ]) + "\n"
    }
}
