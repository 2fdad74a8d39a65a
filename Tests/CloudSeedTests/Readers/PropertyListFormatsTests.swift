import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct PropertyListFormatsTests {
    @Test func readsEntitiesCDATAAndComments() throws {
        let xml = """
            <?xml version="1.0"?><!-- made by hand -->
            <plist version="1.0"><dict><key>Item 2</key><dict>
              <key>say</key><string>&apos;hi&apos; &amp; &quot;bye&quot; &#233;&#x1F3A8; <![CDATA[<raw> & ]]></string>
              <!-- a comment between values -->
              <key>empty</key><string/>
            </dict><key>Item 10</key><dict><key>say</key><string>x</string></dict></dict></plist>
            """
        let read = try rows(xml, format: .propertyList)
        #expect(read.map(\.recordName) == ["Item 2", "Item 10"])
        #expect(read[0].values == ["say": .string("'hi' & \"bye\" é🎨 <raw> & "), "empty": .string("")])
    }

    @Test(arguments: [
        (
            "<plist><array><dict><key>a</key><integer>x</integer></dict></array></plist>",
            "x.plist:1:33: <integer>x</integer> is not a 64-bit integer"
        ),
        (
            "<plist><array><dict><key>a</key><date>yesterday</date></dict></array></plist>",
            "x.plist:1:33: <date>yesterday</date> is not an ISO 8601 date between the years 1 and 9999"
        ),
        (
            "<plist><array><dict><string>a</string></dict></array></plist>",
            "x.plist:1:21: expected <key> or </dict>, found <string>"
        ),
        (
            "<plist><array><dict><key>a</key><string>b</dict></array></plist>",
            "x.plist:1:49: expected </string> (opened on line 1), found </dict>; close each element in order"
        ),
        (
            "<plist><array><dict><key>a</key><foo>b</foo></dict></array></plist>",
            "x.plist:1:33: unknown element <foo>; property lists use dict, array, string, integer, real, true, false, date and data"
        ),
        (
            "<plist><array></array></plist>junk",
            "x.plist:1:31: unexpected content after the end of the property list; remove it"
        ),
        (
            "<plist><array><dict><key>a</key><string>&bogus;</string></dict></array></plist>",
            "x.plist:1:48: unknown entity &bogus;; declare it in the DOCTYPE, or write &amp; for '&'"
        ),
    ])
    func reportsMalformedXMLWithItsPosition(text: String, message: String) {
        #expect(readError(text, format: .propertyList, file: "x.plist") == message)
    }

    @Test func refusesDeepXMLNesting() {
        let deep = "<plist>" + String(repeating: "<array>", count: 100_000)
        #expect(
            readError(deep, format: .propertyList, file: "x.plist")
                == "x.plist:1:3592: nesting deeper than 512 levels; flatten the property list")
    }

    @Test func readsOpenStepPropertyLists() throws {
        let text = """
            // !$*UTF8*$!
            {
                archiveVersion = 1;
                objects = {
                    A1 = {isa = PBXGroup; children = (B2, "C 3", ); name = "Main \\"App\\""; };
                    B2 = {isa = PBXFileReference; data = <0fbd 7791>; /* inline comment */ };
                };
            }
            """
        let read = try rows(text, format: .propertyList, file: "project.pbxproj")
        #expect(read.map(\.recordType) == ["Object", "Object", nil])
        #expect(
            read[0].values == [
                "isa": .string("PBXGroup"), "children": .array([.string("B2"), .string("C 3")]),
                "name": .string("Main \"App\""),
            ])
        #expect(read[1].values["data"] == .data(Data([0x0f, 0xbd, 0x77, 0x91])))
        #expect(read[2].values == ["archiveVersion": .string("1")])
    }

    @Test func refusesDamagedBinaryPropertyLists() throws {
        var binary = Array(
            try PropertyListSerialization.data(fromPropertyList: [["a": 1]], format: .binary, options: 0))
        let good = try rows(bytes: binary, format: .propertyList)
        #expect(good.map(\.values) == [["a": .integer(1)]])
        binary[binary.count - 8] = 0x7F
        #expect(throws: CloudSeedError.self) { try rows(bytes: binary, format: .propertyList) }
        #expect(throws: CloudSeedError.self) { try rows(bytes: Array(binary.prefix(20)), format: .propertyList) }
    }

    /// Rows of a binary property list as Foundation writes them (keys shared by every row, text
    /// with non-ASCII characters as UTF-16), read field by field.
    @Test func readsBinaryRowsWithSharedKeysAndUTF16Text() throws {
        let source: [[String: Any]] = [
            [
                "title": "Zoë 漢字 🌊", "copies": 3, "price": 12.5, "onDisplay": true,
                "created": Date(timeIntervalSince1970: 1_700_000_000.25),
                "location": ["latitude": 48.5], "tags": ["oil", "水墨"], "thumbnail": Data([1, 2, 3]),
            ],
            [
                "title": "plain", "copies": 4, "price": 1.5, "onDisplay": false,
                "created": Date(timeIntervalSince1970: 0),
                "location": ["latitude": 1.25], "tags": [String](), "thumbnail": Data(),
            ],
            ["title": "fewer keys", "tags": [["nested": "dictionary"]]],
        ]
        let read = try rows(
            bytes: Array(PropertyListSerialization.data(fromPropertyList: source, format: .binary, options: 0)),
            format: .propertyList)
        #expect(
            read.map(\.values) == [
                [
                    "title": .string("Zoë 漢字 🌊"), "copies": .integer(3), "price": .real(12.5), "onDisplay": .bool(true),
                    "created": .date(1_700_000_000_250),
                    "location": .dictionary([PlainEntry("latitude", .real(48.5))]),
                    "tags": .array([.string("oil"), .string("水墨")]), "thumbnail": .data(Data([1, 2, 3])),
                ],
                [
                    "title": .string("plain"), "copies": .integer(4), "price": .real(1.5), "onDisplay": .bool(false),
                    "created": .date(0),
                    "location": .dictionary([PlainEntry("latitude", .real(1.25))]), "tags": .array([]),
                    "thumbnail": .data(Data()),
                ],
                [
                    "title": .string("fewer keys"),
                    "tags": .array([.dictionary([PlainEntry("nested", .string("dictionary"))])]),
                ],
            ])
        #expect(read[1].position == SourcePosition(file: "test", keyPath: "[1]"))
        // A field's position holds its row's path and its key apart; it is the same position as
        // the joined key path, prints it and hashes as it.
        let title = try #require(read[2].fields.first { $0.key == "title" }?.position)
        let joined = SourcePosition(file: "test", keyPath: "[2].title")
        #expect(title == joined)
        #expect(title.keyPath == "[2].title")
        #expect(title.description == "test:[2].title")
        #expect(Set([title, joined]).count == 1)
        #expect(
            read[1].fields.first { $0.key == "title" }?.position == SourcePosition(file: "test", keyPath: "[1].title"))
        #expect(read[1].fields.first { $0.key == "title" }?.position != joined)
    }

    /// A binary property list of hand-made objects: `[{"t": <UTF-16 text>, "list": [1, <UID>]}]`.
    private static func handMadeRows(text utf16: [UInt8]) -> [UInt8] {
        BadInputCorpusTests.binaryPlist(objects: [
            [0xA1, 0x01],  // 0: [object 1]
            [0xD2, 0x02, 0x03, 0x04, 0x05],  // 1: {object 2: object 4, object 3: object 5}
            [0x51, 0x74],  // 2: "t"
            [0x54] + Array("list".utf8),  // 3: "list"
            [0x60 | UInt8(utf16.count / 2)] + utf16,  // 4: UTF-16 text
            [0xA2, 0x06, 0x07],  // 5: [object 6, object 7]
            [0x10, 0x01],  // 6: 1
            [0x80, 0x00],  // 7: a UID, as keyed archives hold
        ])
    }

    @Test func readsUTF16TextAndNamesTheKeyPathOfAnErrorInsideAValue() throws {
        // "é", a lone high surrogate (read as U+FFFD, as the standard library reads it), "A".
        let bytes = Self.handMadeRows(text: [0x00, 0xE9, 0xD8, 0x00, 0x00, 0x41])
        #expect(String(decoding: [0x00E9, 0xD800, 0x0041] as [UInt16], as: UTF16.self) == "é\u{FFFD}A")
        #expect(
            throws: CloudSeedError(
                .malformedSource,
                "this binary property list holds UIDs, as NSKeyedArchiver archives do; export the objects as a plain property list first",
                at: SourcePosition(file: "test", keyPath: "[0].list[1]"))
        ) {
            try rows(bytes: bytes, format: .propertyList)
        }
        var readable = bytes
        readable[readable.firstIndex(of: 0x80)!] = 0x09  // the UID made `true`
        let read = try rows(bytes: readable, format: .propertyList)
        #expect(read.map(\.values) == [["t": .string("é\u{FFFD}A"), "list": .array([.integer(1), .bool(true)])]])
    }

    @Test func readsCloudKitRecordsFromABinaryPropertyList() throws {
        let records: [[String: Any]] = [
            ["recordType": "Artist", "recordName": "mei", "fields": ["name": ["value": "Mei Chen", "type": "STRING"]]]
        ]
        let read = try rows(
            bytes: Array(PropertyListSerialization.data(fromPropertyList: records, format: .binary, options: 0)),
            format: .propertyList)
        #expect(read.map(\.recordType) == ["Artist"])
        #expect(read.map(\.recordName) == ["mei"])
        #expect(read[0].values == ["name": .string("Mei Chen")])
    }

    @Test func refusesCyclesInBinaryPropertyLists() {
        // bplist00 with one array (object 0) that holds itself.
        var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
        let offsetTable = bytes.count
        bytes += [0x08]
        bytes +=
            [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [
                0, 0, 0, 0, 0, 0, 0, UInt8(offsetTable),
            ]
        #expect(
            throws: CloudSeedError(
                .malformedSource, "damaged binary property list: object 0 contains itself (a cycle)",
                at: SourcePosition(file: "test", keyPath: "[0]"))
        ) {
            try rows(bytes: bytes, format: .propertyList)
        }
    }

    @Test func refusesKeyedArchives() throws {
        let archive = try PropertyListSerialization.data(
            fromPropertyList: [
                "$archiver": "NSKeyedArchiver", "$objects": ["$null"], "$top": [:] as [String: Any], "$version": 100000,
            ],
            format: .binary, options: 0)
        #expect(readError(String(decoding: archive, as: UTF8.self), format: .propertyList) != nil)
        #expect(
            throws: CloudSeedError(
                .malformedSource,
                "this binary property list is an NSKeyedArchiver archive, not plain data; export the objects as a plain property list first",
                at: SourcePosition(file: "test", keyPath: "top level"))
        ) {
            try rows(bytes: Array(archive), format: .propertyList)
        }
    }
}
