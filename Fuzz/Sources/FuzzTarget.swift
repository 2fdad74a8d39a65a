import CloudSeedReaders
import CloudSeedSchema
import Foundation

/// Feeds one input to the parser `CLOUDSEED_FUZZ` names (csv, json, jsonl, plist or ckdb). Any
/// error the parser throws is a correct answer; a crash, a hang or a sanitizer report is a bug.
enum FuzzTarget {
    static let name = ProcessInfo.processInfo.environment["CLOUDSEED_FUZZ"] ?? "csv"

    static func run(_ bytes: [UInt8]) {
        do {
            if name == "ckdb" {
                _ = try CKSLParser.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.ckdb")
                return
            }
            let format = SourceFormat(rawValue: name) ?? .csv
            try InMemoryReading.forEachRow(in: bytes, format: format, file: "fuzz") { _ in }
        } catch {
            _ = "\(error)"
        }
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        FuzzTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }

    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
    ) -> CInt

    /// SwiftPM names an executable's entry point after its product; hand it to libFuzzer's driver.
    @_cdecl("cloudseed_fuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments, fuzzOneInput)
    }
#else
    /// Without the fuzzer: replays the files named on the command line (a corpus, or a crash to debug).
    @main
    struct Replay {
        static func main() {
            for path in CommandLine.arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                FuzzTarget.run(Array(data))
            }
            print("replayed \(CommandLine.arguments.count - 1) inputs through \(FuzzTarget.name)")
        }
    }
#endif
