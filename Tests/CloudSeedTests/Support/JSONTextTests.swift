import Testing

@testable import CloudSeed

@Suite struct JSONTextTests {
    @Test func quotesAndEscapesWhatRFC8259Requires() {
        #expect(JSONText.quoted("Get apples") == #""Get apples""#)
        #expect(JSONText.quoted("Fenêtre 🔥 漢字") == #""Fenêtre 🔥 漢字""#)
        #expect(JSONText.quoted("say \"hi\"\\ \n\r\t\u{1}\u{1F}\u{7F}") == #""say \"hi\"\\ \n\r\t\u0001\u001f"# + "\u{7F}\"")
    }

    @Test func writesNumbersThatReadBackAsDoubles() {
        #expect(JSONText.number(1) == "1.0")
        #expect(JSONText.number(-0.5) == "-0.5")
        #expect(JSONText.number(1e-300) == "1e-300")
    }

    @Test func writesObjectsInTheOrderGiven() {
        #expect(JSONText.object([("b", "1"), ("a", #""x""#)]) == #"{"b":1,"a":"x"}"#)
        #expect(JSONText.object([]) == "{}")
    }
}
