/// The record types a field's name may point to while the first pass reads: the store's, those
/// declared with `--reference`, each source's own and those the rows name as they turn up. Only a
/// field whose name points to one of them keeps its values, to be tried as a reference.
struct PointableTypes {
    private var types: Set<String>

    init(_ types: Set<String>) {
        self.types = types
    }

    /// Adds a type; `true` when it was not known yet.
    mutating func insert(_ type: String) -> Bool {
        types.insert(type).inserted
    }

    /// Whether a field named `field` may point to one of the types.
    func mayPoint(from field: String) -> Bool {
        ReferenceNames.targetType(of: field, among: types, isList: true) != nil
            || ReferenceNames.targetType(of: field, among: types, isList: false) != nil
    }

    /// Marks the fields of `survey` that did not keep their values but whose names point to one of
    /// the types now: a later pass gathers their values.
    func markMissedValues(of survey: TypeSurvey) {
        for (name, field) in survey.fields where !field.keepsValues && !field.missedValues && mayPoint(from: name) {
            field.missedValues = true
        }
    }
}
