import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct TemplateNamingTests {
    @Test func splitsATemplateIntoTextAndFields() {
        let parts = TemplateNaming.parts(of: "art-{catalogNumber} {a{b} x}")
        let described = parts.map { part -> String in
            switch part {
            case .text(let text): "text(\(text))"
            case .field(let field): "field(\(field))"
            }
        }
        #expect(described == ["text(art-)", "field(catalogNumber)", "text( {a)", "field(b)", "text( x})"])
    }

    @Test func fillsEachFieldOnceWithItsText() {
        let parts = TemplateNaming.parts(of: "{first} {last}, {first}")
        // A value that reads like a placeholder stays as it is.
        let texts = ["first": "{last}", "last": "Chen"]
        #expect(TemplateNaming.fill(parts) { texts[$0] } == "{last} Chen, {last}")
        #expect(TemplateNaming.fill(parts) { $0 == "last" ? nil : "x" } == nil)
    }

    @Test func namesNoFieldWithoutBraces() throws {
        #expect(throws: CloudSeedError.self) { try NameTemplate(parsing: "Artwork=plain") }
        #expect(try NameTemplate(parsing: "Artwork=a-{b}").placeholders == ["b"])
    }
}
