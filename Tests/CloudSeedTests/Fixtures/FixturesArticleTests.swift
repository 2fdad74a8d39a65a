import CloudSeedTestSupport
import Foundation
import Testing

import CloudSeed

/// The example of the Fixtures article, run as written there (with paths found from the repository).
@Suite struct FixturesArticleTests {
    @Test func theGalleryHasFourArtworks() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        let manifest = FixtureManifest(container: "iCloud.com.example.Gallery", sources: [
            FixtureSource(file: Repository.sample("Gallery/artists.csv"), recordType: "Artist", recordName: "{firstName} {lastName}"),
            FixtureSource(file: Repository.sample("Gallery/artworks.plist"), recordType: "Artwork",
                          fields: ["artist": FixtureField(reference: "Artist"), "image": FixtureField(asset: true)]),
        ])
        let summary = try Seeder(store: store).run(manifest)
        #expect(summary.counts.map(\.created) == [3, 4])
        var artworks: [CloudRecord] = []
        try store.forEachRecord(in: manifest.scope, recordType: "Artwork") { artworks.append($0) }
        #expect(artworks.count == 4)
        #expect(artworks.allSatisfy { if case .reference? = $0.fields["artist"] { true } else { false } })
    }
}
