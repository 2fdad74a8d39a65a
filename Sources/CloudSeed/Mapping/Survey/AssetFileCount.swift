/// How many of a field's values name existing files, of those that name media or document files:
/// a field is ASSET where most do, and each value that names no file is then an error naming the
/// closest one (or left out with `--allow-dangling`), as one image of 31 spelt in another case is.
struct AssetFileCount: Sendable {
    private(set) var existing = 0
    private(set) var missing = 0
    /// The first paths that name no file, for the plan.
    private(set) var missingExamples: [String] = []

    /// Counts the paths, relative to `folder`.
    mutating func count(_ paths: [String], in folder: String) {
        for path in paths {
            if AssetLoader.isFile(path, in: folder) {
                existing += 1
            } else {
                missing += 1
                if missingExamples.count < 3 { missingExamples.append(path) }
            }
        }
    }

    mutating func merge(_ other: AssetFileCount) {
        existing += other.existing
        missing += other.missing
        missingExamples = Array((missingExamples + other.missingExamples).prefix(3))
    }

    /// Whether most paths name existing files.
    var isMostlyExisting: Bool { existing > missing }

    /// Whether so many paths name no file that the field is taken for text, not files, without
    /// looking for more: ten, and more than those found.
    var isText: Bool { missing >= 10 && missing > existing }
}
