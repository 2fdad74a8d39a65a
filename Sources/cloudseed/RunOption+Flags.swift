import CloudSeed

extension RunOption {
    /// The flag that sets the option, or the command that does it, as a user types it.
    var flag: String {
        switch self {
        case .store: "--store"
        case .container: "--container"
        case .environment(let name): "--environment \(Self.typed(name))"
        case .database(let name): "--database \(Self.typed(name))"
        case .zone(let name): "--zone \(Self.typed(name))"
        case .user: "--user"
        case .recordType(let type): type.map { "--type \(Self.typed($0))" } ?? "--type"
        case .output: "--out"
        case .merge: "--merge"
        case .allowDangling: "--allow-dangling"
        case .allowOutsideAssets: "--allow-outside-assets"
        case .randomNames: "--uuid"
        case .nameTemplate(let template): template.map { "--name-template \(Self.typed($0))" } ?? "--name-template"
        case .fieldType(let text): "--field \(Self.typed(text))"
        case .reference(let text): "--reference \(Self.typed(text))"
        case .location(let text): "--location \(Self.typed(text))"
        case .dateFormat(let text): text.map { "--date-format \(Self.typed($0))" } ?? "--date-format"
        case .timeZone(let text): "--timezone \(Self.typed(text))"
        case .filter(let text): "--filter \(Self.typed(text))"
        case .saveMode(let name): "--mode \(Self.typed(name))"
        case .export(let type): "cloudseed export --type \(Self.typed(type))"
        case .inventory: "cloudseed inspect"
        case .roleAssignment: "cloudseed role assign"
        case .schemaImport: "cloudseed schema import"
        case .backup: "cloudseed backup"
        }
    }

    /// `value` as a shell takes it: in single quotes unless it holds only letters, digits and `_.:-`.
    private static func typed(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || "0123456789_.:-".unicodeScalars.contains($0)
            }
        return plain ? value : "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
