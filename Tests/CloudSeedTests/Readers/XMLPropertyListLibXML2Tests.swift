import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// XML property lists as libxml2 reads them: every encoding a declaration or byte order mark
/// names, internal entities expanded, and nothing ever read from outside the file.
@Suite struct XMLPropertyListLibXML2Tests {
    static let body =
        "<plist version=\"1.0\"><array><dict><key>name</key><string>Zoë Café</string><key>born</key><integer>1901</integer><key>when</key><date>2020-01-02T03:04:05Z</date></dict></array></plist>\n"

    /// What Python's `plistlib` reads from each file below.
    static let expected: [String: PlainValue] = [
        "name": .string("Zoë Café"), "born": .integer(1901), "when": .date(1_577_934_245_000),
    ]

    /// Reads the rows of a file holding `bytes`, through ``SourceFile`` as an import does.
    private func rows(of bytes: [UInt8], in folder: TemporaryFolder) throws -> [SourceRow] {
        let path = folder.path("people.plist")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var read: [SourceRow] = []
        try SourceFile(path: path).reader().forEachRow { read.append($0) }
        return read
    }

    private func readError(of text: String, in folder: TemporaryFolder) -> String? {
        do {
            _ = try rows(of: Array(text.utf8), in: folder)
            return nil
        } catch {
            return "\(error)".replacingOccurrences(of: folder.url.path + "/", with: "")
        }
    }

    @Test func readsTheEncodingItsDeclarationNames() throws {
        let folder = try TemporaryFolder()
        let declared =
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
        let latin1 = try #require((declared + Self.body).data(using: .isoLatin1))
        #expect(try rows(of: Array(latin1), in: folder).map(\.values) == [Self.expected])
    }

    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
    func readsUTF16WithAByteOrderMark(_ encoding: String.Encoding) throws {
        let folder = try TemporaryFolder()
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + Self.body
        let mark: [UInt8] = encoding == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
        let bytes = mark + Array(try #require(text.data(using: encoding)))
        #expect(try rows(of: bytes, in: folder).map(\.values) == [Self.expected])
    }

    @Test func expandsTheEntitiesOfTheInternalSubset() throws {
        let folder = try TemporaryFolder()
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ENTITY zz \"Zoë\"> ]>\n<plist><array><dict><key>name</key><string>&zz; &amp; &#233;</string></dict></array></plist>\n"
        #expect(try rows(of: Array(text.utf8), in: folder).map(\.values) == [["name": .string("Zoë & é")]])
    }

    @Test func refusesAnEntityExpansionBomb() throws {
        let folder = try TemporaryFolder()
        var declarations = "<!ENTITY lol0 \"lol\">\n"
        for level in 1..<10 {
            declarations += "<!ENTITY lol\(level) \"\(String(repeating: "&lol\(level - 1);", count: 10))\">\n"
        }
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n\(declarations)]>\n<plist><array><dict><key>a</key><string>&lol9;</string></dict></array></plist>\n"
        #expect(
            readError(of: text, in: folder)
                == "people.plist:14:47: the DOCTYPE's entities expand past libxml2's limits (an entity expansion bomb); remove the entity declarations and write the text itself"
        )
    }

    @Test func neverReadsAnExternalEntity() throws {
        let folder = try TemporaryFolder()
        let secret = try folder.write("secret.txt", "do not read")
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ENTITY x SYSTEM \"file://\(secret)\"> ]>\n<plist><array><dict><key>a</key><string>&x;</string></dict></array></plist>\n"
        let error = try #require(readError(of: text, in: folder))
        #expect(
            error
                == "people.plist:2:\(46 + secret.utf8.count): the DOCTYPE declares the external entity 'x' (\"file://secret.txt\"); cloudseed reads nothing from outside the property list: write the text into the file instead"
        )
        #expect(!error.contains("do not read"))
    }

    @Test func namesWhereATruncatedFileEnds() throws {
        let folder = try TemporaryFolder()
        #expect(
            readError(of: "<plist><array><dict><key>a</key><string>b", in: folder)
                == "people.plist:1:33: unterminated <string>; add </string>")
    }
}
