import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct TransliterationTests {
    @Test func givesTheASCIIFormsPeopleExpect() {
        #expect(Transliteration.ascii("Zoë Müller") == "Zoe Muller")
        #expect(Transliteration.ascii("Distant Fenêtre 🔥 #100002") == "Distant Fenetre  #100002")
        #expect(Transliteration.ascii("🔥") == "")
    }

    /// The transform kept open gives what Foundation's, opened for each text, gives.
    @Test func aTransformKeptOpenAgreesWithFoundation() {
        let transform = ICUTransliterator("Any-Latin; Latin-ASCII")
        let texts = [
            "", "plain", "Zoë Müller", "漢字", "京都の海 12", "Skagen漢字Boat", "美咲 山田", "Москва", "Ἀθῆναι", "서울", "القاهرة",
            "Hội An", "ß Æ Œuvre", "e\u{301}", "ｶﾀｶﾅ", "🖼️ ⛵", "静かな Harbour, 京都 No. 100002",
            String(repeating: "漢", count: 300),
            // A ligature ICU spells out in 30 letters: more than the first buffer holds.
            String(repeating: "\u{FDFA}", count: 50),
        ]
        for text in texts {
            #expect(
                transform.apply(text)
                    == text.applyingTransform(StringTransform("Any-Latin; Latin-ASCII"), reverse: false), "\(text)")
        }
    }

    /// The table and the remembered runs are only shortcuts: every text must come out exactly as
    /// ICU makes it of the whole text.
    @Test func agreesWithICUOnWholeTexts() {
        let table = Transliteration.singleCharacterForms.keys.sorted().compactMap(Unicode.Scalar.init)
        #expect(table.count > 150)
        let others = [
            "漢字", "の", "美咲 山田", "Москва", "Ἀθῆναι", "서울", "القاهرة", "ß", "Æ", "Œuvre", "©", "«", "e\u{301}",
            "\u{200D}", "\u{FE0F}", "ｶﾀｶﾅ", "ﬁ", "½", "№", "Ø",
        ]
        let pictographs = ["🔥", "🎨", "🖼", "😀", "🀄", "👩‍🎨"]
        var texts: [String] = []
        for (offset, scalar) in table.enumerated() {
            let letter = String(Character(scalar))
            let neighbour = String(Character(table[(offset * 7 + 3) % table.count]))
            let other = others[offset % others.count]
            let pictograph = pictographs[offset % pictographs.count]
            texts += [
                letter, "a\(letter)b", "\(letter)\(neighbour)", "Le \(letter)\(pictograph) \(neighbour)x",
                "\(pictograph)\(letter)",
                "\(other)\(letter)", "\(letter)\(other)", "Skagen\(other)Boat \(letter)",
                "\(other) \(other)\(pictograph)\(other)",
            ]
        }
        var disagreements: [String] = []
        for text in texts {
            let fast = Transliteration.ascii(text)
            let icu = Transliteration.icuASCII(text)
            if fast != icu { disagreements.append("\(text): \(fast) but ICU gives \(icu)") }
        }
        #expect(disagreements == [])
    }
}
