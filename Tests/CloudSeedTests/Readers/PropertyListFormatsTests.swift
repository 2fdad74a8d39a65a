import Foundation
import Testing

@testable import CloudSeed

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
        ("<plist><array><dict><key>a</key><integer>x</integer></dict></array></plist>", "x.plist:1:33: <integer>x</integer> is not a 64-bit integer"),
        ("<plist><array><dict><key>a</key><date>yesterday</date></dict></array></plist>", "x.plist:1:33: <date>yesterday</date> is not an ISO 8601 date between the years 1 and 9999"),
        ("<plist><array><dict><string>a</string></dict></array></plist>", "x.plist:1:21: expected <key> or </dict>, found <string>"),
        ("<plist><array><dict><key>a</key><string>b</dict></array></plist>", "x.plist:1:42: expected </string>, found </dict>"),
        ("<plist><array><dict><key>a</key><foo>b</foo></dict></array></plist>", "x.plist:1:33: unknown element <foo>; property lists use dict, array, string, integer, real, true, false, date and data"),
        ("<plist><array></array></plist>junk", "x.plist:1:31: unexpected content after the end of the property list"),
        ("<plist><array><dict><key>a</key><string>&bogus;</string></dict></array></plist>", "x.plist:1:41: unknown entity &bogus;; property lists know &lt; &gt; &amp; &apos; &quot; and &#NN;"),
    ])
    func reportsMalformedXMLWithItsPosition(text: String, message: String) {
        #expect(readError(text, format: .propertyList, file: "x.plist") == message)
    }

    @Test func refusesDeepXMLNesting() {
        let deep = "<plist>" + String(repeating: "<array>", count: 100_000)
        #expect(readError(deep, format: .propertyList, file: "x.plist") == "x.plist:1:3592: nesting deeper than 512 levels; flatten the property list")
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
        #expect(read[0].values == [
            "isa": .string("PBXGroup"), "children": .array([.string("B2"), .string("C 3")]), "name": .string("Main \"App\""),
        ])
        #expect(read[1].values["data"] == .data(Data([0x0f, 0xbd, 0x77, 0x91])))
        #expect(read[2].values == ["archiveVersion": .string("1")])
    }

    @Test func refusesDamagedBinaryPropertyLists() throws {
        var binary = Array(try PropertyListSerialization.data(fromPropertyList: [["a": 1]], format: .binary, options: 0))
        let good = try rows(bytes: binary, format: .propertyList)
        #expect(good.map(\.values) == [["a": .integer(1)]])
        binary[binary.count - 8] = 0x7F
        #expect(throws: CloudSeedError.self) { try rows(bytes: binary, format: .propertyList) }
        #expect(throws: CloudSeedError.self) { try rows(bytes: Array(binary.prefix(20)), format: .propertyList) }
    }

    @Test func refusesCyclesInBinaryPropertyLists() {
        // bplist00 with one array (object 0) that holds itself.
        var bytes = Array("bplist00".utf8) + [0xA1, 0x00]
        let offsetTable = bytes.count
        bytes += [0x08]
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(offsetTable)]
        #expect(throws: CloudSeedError("damaged binary property list: object 0 contains itself (a cycle)", at: SourcePosition(file: "test", keyPath: "[0]"))) {
            try rows(bytes: bytes, format: .propertyList)
        }
    }

    @Test func refusesKeyedArchives() throws {
        let archive = try PropertyListSerialization.data(
            fromPropertyList: ["$archiver": "NSKeyedArchiver", "$objects": ["$null"], "$top": [:] as [String: Any], "$version": 100000],
            format: .binary, options: 0)
        #expect(readError(String(decoding: archive, as: UTF8.self), format: .propertyList) != nil)
        #expect(throws: CloudSeedError("this binary property list is an NSKeyedArchiver archive, not plain data; export the objects as a plain property list first", at: SourcePosition(file: "test", keyPath: "top level"))) {
            try rows(bytes: Array(archive), format: .propertyList)
        }
    }
}
