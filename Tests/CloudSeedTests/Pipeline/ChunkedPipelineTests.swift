import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct ChunkedPipelineTests {
    struct Failure: Error, Equatable {
        var chunk: Int
    }

    /// Chunk `c` holds `c % 4` items (some none), numbered `c * 10 + i`.
    static func items(of chunk: Int) -> [Int] { (0..<chunk % 4).map { chunk * 10 + $0 } }

    @Test(arguments: [1, 2, 3])
    func chunksAreConsumedInOrderWhateverProducesThem(producers: Int) throws {
        var consumed: [Int] = []
        try ChunkedPipeline.run(
            chunkCount: 40, producerCount: producers,
            produce: { producer, chunk, emit in
                #expect(chunk % producers == producer)
                for item in Self.items(of: chunk) { try emit(item) }
            }, consume: { consumed.append($0) })
        #expect(consumed == (0..<40).flatMap(Self.items(of:)))
    }

    @Test func aProducersErrorComesAfterTheChunksBeforeIt() {
        var consumed: [Int] = []
        #expect(throws: Failure(chunk: 9)) {
            try ChunkedPipeline.run(
                chunkCount: 40, producerCount: 2,
                produce: { _, chunk, emit in
                    if chunk == 9 { throw Failure(chunk: 9) }
                    for item in Self.items(of: chunk) { try emit(item) }
                }, consume: { consumed.append($0) })
        }
        #expect(consumed == (0..<9).flatMap(Self.items(of:)))
    }

    @Test func theConsumersErrorStopsTheProducers() {
        var consumed: [Int] = []
        #expect(throws: Failure(chunk: 5)) {
            try ChunkedPipeline.run(
                chunkCount: 1000, producerCount: 2,
                produce: { _, chunk, emit in
                    for item in 0..<100 { try emit(chunk * 100 + item) }
                },
                consume: { item in
                    if item == 512 { throw Failure(chunk: 5) }
                    consumed.append(item)
                })
        }
        #expect(consumed == Array(0..<512))
    }
}
