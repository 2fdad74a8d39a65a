import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A damaged bundle is refused whole, naming the file at fault, and the target store is left untouched.
@Suite struct BackupVerificationTests {
    let fixture: BackupFixture
    let bundle: String
    let target: SQLiteContainerStore

    static let artworks = "records/development/public/__defaultOwner__/_defaultZone/Artwork.jsonl"
    static let asset = "assets/2945ba77d86b89e2cebb517fcb9ced0de61877130329db1ae4965de18775d792"

    init() throws {
        fixture = try BackupFixture()
        bundle = fixture.folder.path("backup")
        try BackupWriter(store: ContainerStore(backend: try fixture.filledStore()), now: 0).write(to: bundle)
        target = try SQLiteContainerStore(path: fixture.folder.path("target.sqlite"))
    }

    /// What restoring the bundle throws; the target must be as empty afterwards as before.
    func refusal() throws -> String? {
        let error = BackupFixture.error {
            try Restorer(store: ContainerStore(backend: target)).restore(BackupBundle(verifying: bundle))
        }
        #expect(try target.inventory().zones.isEmpty)
        #expect(try target.inventory().schemas.isEmpty)
        return error
    }

    func url(_ path: String) -> URL { URL(fileURLWithPath: bundle).appendingPathComponent(path) }

    func editManifest(_ edit: (String) -> String) throws {
        let text = try String(contentsOf: url("manifest.json"), encoding: .utf8)
        try Data(edit(text).utf8).write(to: url("manifest.json"))
    }

    @Test func aFlippedByteIsACheckSumMismatch() throws {
        var data = try Data(contentsOf: url(Self.artworks))
        data[100] ^= 0x01
        try data.write(to: url(Self.artworks))
        #expect(
            try refusal()
                == "\(bundle)/\(Self.artworks): checksum mismatch: the file was changed or damaged; restore from an intact backup"
        )
    }

    @Test func aTruncatedFileIsASizeMismatch() throws {
        let data = try Data(contentsOf: url(Self.artworks))
        try data.dropLast(10).write(to: url(Self.artworks))
        #expect(
            try refusal()
                == "\(bundle)/\(Self.artworks): size mismatch: the manifest says 3916 bytes, the file has 3906: the file was changed or damaged; restore from an intact backup"
        )
    }

    @Test func aMissingAssetIsNamed() throws {
        try FileManager.default.removeItem(at: url(Self.asset))
        #expect(
            try refusal()
                == "\(bundle)/\(Self.asset): missing: the manifest lists it but the bundle does not hold it; restore from a complete backup"
        )
    }

    @Test func anExtraFileIsNamed() throws {
        try Data("notes".utf8).write(to: url("records/notes.txt"))
        #expect(
            try refusal()
                == "\(bundle)/records/notes.txt: not listed in the manifest: the bundle holds a file its backup did not write; remove it, or restore from an intact backup"
        )
    }

    @Test func aPathLeavingTheBundleIsRefused() throws {
        try editManifest {
            $0.replacingOccurrences(of: "\"path\":\"\(Self.asset)\"", with: "\"path\":\"../\(Self.asset)\"")
        }
        #expect(
            try refusal()
                == "\(bundle)/manifest.json:17:13: the path \"../\(Self.asset)\" leaves the bundle; restore from an intact backup"
        )
    }

    @Test(arguments: ["/etc/passwd", "assets/../../x", "assets//x", "./schema/development.ckdb", ""])
    func pathsThatAreNotPlainRelativePathsAreRefused(path: String) throws {
        try editManifest { $0.replacingOccurrences(of: "\"path\":\"\(Self.asset)\"", with: "\"path\":\"\(path)\"") }
        #expect(
            try refusal()
                == "\(bundle)/manifest.json:17:13: the path \"\(path)\" leaves the bundle; restore from an intact backup"
        )
    }

    @Test func aSymbolicLinkIsRefused() throws {
        let data = try Data(contentsOf: url(Self.asset))
        let outside = fixture.folder.path("outside")
        try data.write(to: URL(fileURLWithPath: outside))
        try FileManager.default.removeItem(at: url(Self.asset))
        try FileManager.default.createSymbolicLink(atPath: url(Self.asset).path, withDestinationPath: outside)
        #expect(
            try refusal()
                == "\(bundle)/\(Self.asset): a symbolic link: a backup holds only plain files; remove it, or restore from an intact backup"
        )
    }

    @Test func aLinkedFolderIsRefused() throws {
        try FileManager.default.moveItem(
            at: url("assets"), to: URL(fileURLWithPath: fixture.folder.path("assets-elsewhere")))
        try FileManager.default.createSymbolicLink(
            atPath: url("assets").path, withDestinationPath: fixture.folder.path("assets-elsewhere"))
        #expect(
            try refusal()
                == "\(bundle)/assets: a symbolic link: a backup holds only plain files; remove it, or restore from an intact backup"
        )
    }

    @Test func aCountThatDisagreesWithTheFileIsRefused() throws {
        try editManifest { $0.replacingOccurrences(of: "\"Artwork\":4", with: "\"Artwork\":5") }
        #expect(
            try refusal()
                == "\(bundle)/\(Self.artworks): holds 4 records but the manifest counts 5; restore from an intact backup"
        )
    }

    @Test func aMissingManifestMeansNoBackup() throws {
        try FileManager.default.removeItem(at: url("manifest.json"))
        #expect(
            try refusal()
                == "\(bundle)/manifest.json: missing: the folder is not a backup, or its backup did not finish; name a complete backup folder"
        )
    }

    @Test func aDamagedManifestIsRefusedWithItsPosition() throws {
        try editManifest { String($0.dropLast(30)) }
        let message = try #require(try refusal())
        #expect(message.hasPrefix("\(bundle)/manifest.json:28:"))
        #expect(
            message.hasSuffix(
                ": the manifest is not valid JSON (unterminated string; add the closing '\"'); restore from an intact backup"
            ))
        try editManifest { _ in "{\"format\":1,\"tool\":\"cloudseed 0.1\"}" }
        #expect(
            try refusal()
                == "\(bundle)/manifest.json:1:1: the manifest has no \"created\"; restore from an intact backup")
    }

    @Test func aNewerFormatIsNamed() throws {
        try editManifest { $0.replacingOccurrences(of: "\"format\":1", with: "\"format\":2") }
        #expect(
            try refusal()
                == "\(bundle)/manifest.json:2:12: this backup has format 2, which cloudseed 0.1 cannot read; restore it with the cloudseed that wrote it"
        )
    }

    @Test func aFileTheCountsDoNotCallForIsRefused() throws {
        try editManifest { $0.replacingOccurrences(of: "\"Artwork\":4,", with: "") }
        #expect(
            try refusal()
                == "\(bundle)/manifest.json:23:13: \(Self.artworks) is not a file of a backup of this manifest's environments and counts; restore from an intact backup"
        )
    }

    @Test func aNonBundleFolderIsRefused() throws {
        let path = fixture.folder.path("nowhere")
        #expect(
            BackupFixture.error { _ = try BackupBundle(verifying: path) }
                == "\(path): no such folder; name a backup folder that BackupWriter wrote")
    }

    @Test func anIntactBundleVerifies() throws {
        let verified = try BackupBundle(verifying: bundle + "/")
        #expect(verified.path == bundle)
        #expect(verified.manifest.files.count == 12)
        #expect(verified.manifest.recordCount == 16)
    }
}
