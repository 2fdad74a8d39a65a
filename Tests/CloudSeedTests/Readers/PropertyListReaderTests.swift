import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct PropertyListReaderTests {
    static let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><array><dict>
          <key>title</key><string>Get apples</string>
          <key>done</key><false/>
          <key>count</key><integer>3</integer>
          <key>ratio</key><real>2</real>
          <key>due</key><date>1960-01-01T00:00:00Z</date>
          <key>blob</key><data>AAE=</data>
        </dict></array></plist>
        """

    @Test func readsEveryScalarWithItsOwnType() throws {
        let read = try rows(Self.xml, format: .propertyList)
        #expect(read.count == 1)
        #expect(
            read[0].values == [
                "title": .string("Get apples"), "done": .bool(false), "count": .integer(3), "ratio": .real(2),
                "due": .date(-315_619_200_000), "blob": .data(Data([0, 1])),
            ])
        #expect(read[0].fields.first { $0.key == "count" }?.position.description == "test:6:19")
        #expect(read[0].position.keyPath == "[0]")
    }

    @Test func readsBinaryTwinsToTheSameRows() throws {
        let object = try PropertyListSerialization.propertyList(from: Data(Self.xml.utf8), format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let fromBinary = try rows(bytes: Array(binary), format: .propertyList)
        #expect(fromBinary.map(\.values) == (try rows(Self.xml, format: .propertyList)).map(\.values))
        #expect(fromBinary[0].fields.first { $0.key == "count" }?.position.description == "test:[0].count")
    }

    @Test func namesRecordsByTheKeysOfADictionaryOfDictionaries() throws {
        let plist =
            "<plist><dict><key>Item 0</key><dict><key>a</key><integer>1</integer></dict><key>Item 1</key><dict><key>a</key><integer>2</integer></dict></dict></plist>"
        #expect(try rows(plist, format: .propertyList).map(\.recordName) == ["Item 0", "Item 1"])
    }

    @Test func refusesATruncatedFile() {
        #expect(
            readError(String(Self.xml.prefix(200)), format: .propertyList, file: "x.plist")
                == "x.plist:4:19: unterminated tag <stri; close it with '>'")
    }
}
