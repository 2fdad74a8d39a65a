// Only the library's public API, as an app's tests import it: no `@testable`, no test support.
import CloudSeed
import Foundation
import Testing

/// The examples of the "Seeding a store in tests" article, run as a Swift user writes them.
@Suite struct PublicAPITests {
    /// The repository's `SampleData` folder, found from this file.
    static let sampleData = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleData")

    static func sample(_ path: String) -> String { sampleData.appendingPathComponent(path).path }

    static let gallery = FixtureManifest(
        container: "iCloud.com.example.Gallery",
        sources: [
            FixtureSource(
                file: sample("Gallery/artists.csv"), recordType: "Artist", recordName: "{firstName} {lastName}"),
            FixtureSource(
                file: sample("Gallery/artworks.plist"), recordType: "Artwork",
                fields: ["artist": FixtureField(reference: "Artist"), "image": FixtureField(asset: true)]),
        ])

    @Test func theGalleryHasFourArtworksEachWithItsArtist() throws {
        let store = try ContainerStore.inMemory()
        let summary = try Seeder(store: store).run(Self.gallery)
        #expect(summary.counts.map(\.recordType) == ["Artist", "Artwork"])
        #expect(summary.counts.map(\.created) == [3, 4])

        let artists = try store.records(in: Self.gallery.scope, ofType: "Artist")
        #expect(artists.map(\.recordID.recordName) == ["Mei Chen", "Tomas Ortega", "Zoe Muller"])
        let artworks = try store.records(in: Self.gallery.scope, ofType: "Artwork")
        #expect(artworks.count == 4)
        let artistNames = Set(
            artworks.compactMap { artwork -> String? in
                guard case .reference(let artist)? = artwork.fields["artist"] else { return nil }
                return artist.recordName
            })
        #expect(artistNames.isSubset(of: Set(artists.map(\.recordID.recordName))))
        #expect(artworks.allSatisfy { if case .asset? = $0.fields["image"] { true } else { false } })
    }

    @Test func aSecondRunChangesNothing() throws {
        let store = try ContainerStore.inMemory()
        _ = try Seeder(store: store).run(Self.gallery)
        let again = try Seeder(store: store).run(Self.gallery)
        #expect(again.counts.map(\.created) == [0, 0])
        #expect(again.counts.map(\.unchanged) == [3, 4])
    }

    @Test func aReferenceToNothingIsCaughtByItsCodeAndNothingIsWritten() throws {
        let store = try ContainerStore.inMemory()
        let withoutArtists = FixtureManifest(
            container: "iCloud.com.example.Gallery",
            sources: [
                FixtureSource(
                    file: Self.sample("Gallery/artworks.csv"), recordType: "Artwork",
                    fields: ["artist": FixtureField(reference: "Artist")])
            ])
        var caught: CloudSeedError?
        do {
            _ = try Seeder(store: store).run(withoutArtists)
        } catch let error as CloudSeedError where error.code == .unresolvedReference {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.position?.file == Self.sample("Gallery/artworks.csv"))
        #expect(error.position?.line == 2)
        #expect(error.message.hasPrefix("no Artist record matches '"))
        #expect(error.allErrors.allSatisfy { $0.code == .unresolvedReference })
        #expect(try store.records(in: withoutArtists.scope).isEmpty)
    }

    @Test func aStoreIsSharedBetweenTasks() async throws {
        let store = try ContainerStore.inMemory()
        _ = try Seeder(store: store).run(Self.gallery)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for type in ["Artist", "Artwork", "Artist", "Artwork"] {
                group.addTask { try store.records(in: Self.gallery.scope, ofType: type).count }
            }
            return try await group.reduce(0, +)
        }
        #expect(counts == 14)
    }
}
