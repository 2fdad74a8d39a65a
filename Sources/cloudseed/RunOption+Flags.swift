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
        case .fieldType(let text): text.map { "--field \(Self.typed($0))" } ?? "--field"
        case .reference(let text): text.map { "--reference \(Self.typed($0))" } ?? "--reference"
        case .location(let text): text.map { "--location \(Self.typed($0))" } ?? "--location"
        case .dateFormat(let text): text.map { "--date-format \(Self.typed($0))" } ?? "--date-format"
        case .attribute(let text): text.map { "--attribute \(Self.typed($0))" } ?? "--attribute"
        case .timeZone(let text): text.map { "--timezone \(Self.typed($0))" } ?? "--timezone"
        case .filter(let text): text.map { "--filter \(Self.typed($0))" } ?? "--filter"
        case .saveMode(let name): "--mode \(Self.typed(name))"
        case .export(let type): "cloudseed export --type \(Self.typed(type))"
        case .inventory: "cloudseed inspect"
        case .roleAssignment: "cloudseed role assign"
        case .schemaImport: "cloudseed schema import"
        case .backup: "cloudseed backup"
        case .settings: "flags"
        }
    }

    /// `value` as a shell takes it: in single quotes where it holds `=`, braces, quotes or spaces.
    private static func typed(_ value: String) -> String {
        guard value.contains(where: { "={}'\" ".contains($0) || $0.isWhitespace }) else { return value }
        return "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
