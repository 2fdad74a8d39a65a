import CLibXML2
import CloudSeedCore
import Foundation

/// Reads a Core Data model's `contents` file (the XML inside a `.xcdatamodel`) with libxml2.
enum CoreDataModelFile {
    /// The model in `data`, read from the file named `file` (for positions).
    static func read(_ data: Data, file: String) throws -> AppModel {
        let errors = FirstXMLError()
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(errors).toOpaque()) { context, error in
            guard let context, let error else { return }
            let errors = Unmanaged<FirstXMLError>.fromOpaque(context).takeUnretainedValue()
            guard errors.first == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let said = error.pointee.message.map { String(cString: $0) } ?? ""
            errors.first = (Int(error.pointee.line), Int(error.pointee.int2), said)
        }
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let document = data.withUnsafeBytes { bytes in
            xmlReadMemory(
                bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil, nil,
                Int32(XML_PARSE_NONET.rawValue))
        }
        guard let document else { throw malformed(errors.first, file: file) }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), XMLElement(root).name == "model" else {
            throw CloudSeedError(
                .malformedSource,
                "this is not a Core Data model: its root element is not <model>; give a .xcdatamodeld, a .xcdatamodel or its contents file",
                at: SourcePosition(file: file, line: 1, column: 1))
        }
        let lines = LineColumns(data)
        let model = XMLElement(root)
        func position(_ element: XMLElement) -> SourcePosition {
            lines.position(of: element, file: file)
        }
        var entities: [ModelEntity] = []
        var configurations: [ModelConfiguration] = []
        for child in model.children {
            switch child.name {
            case "entity":
                entities.append(try entity(child, position: position))
            case "configuration":
                configurations.append(
                    ModelConfiguration(
                        name: child["name"] ?? "", isUsedWithCloudKit: child["usedWithCloudKit"] == "YES",
                        entityNames: child.children.filter { $0.name == "memberEntity" }.compactMap { $0["name"] },
                        position: position(child)))
            default: continue
            }
        }
        return AppModel(
            entities: entities, configurations: configurations, isUsedWithCloudKit: model["usedWithCloudKit"] == "YES")
    }

    private static func entity(_ element: XMLElement, position: (XMLElement) -> SourcePosition) throws -> ModelEntity {
        var entity = ModelEntity(
            name: element["name"] ?? "", parentName: element["parentEntity"], position: position(element))
        entity.isAbstract = element["isAbstract"] == "YES"
        for child in element.children {
            switch child.name {
            case "attribute":
                let typeName = child["attributeType"] ?? "Undefined"
                guard let type = AttributeType(rawValue: typeName) else {
                    throw CloudSeedError(
                        .malformedSource,
                        "\(entity.name).\(child["name"] ?? ""): unknown attributeType '\(typeName)'; Core Data's types are \(AttributeType.allCases.map(\.rawValue).joined(separator: ", "))",
                        at: position(child))
                }
                var attribute = ModelAttribute(name: child["name"] ?? "", type: type, position: position(child))
                attribute.isOptional = child["optional"] == "YES"
                attribute.isTransient = child["transient"] == "YES"
                attribute.defaultValue = child["defaultValueString"] ?? child["defaultDateTimeInterval"]
                attribute.isEncrypted = child["allowsCloudEncryption"] == "YES"
                entity.attributes.append(attribute)
            case "relationship":
                var relationship = ModelRelationship(
                    name: child["name"] ?? "", destination: child["destinationEntity"] ?? "", position: position(child))
                relationship.inverseName = child["inverseName"]
                relationship.isToMany = child["toMany"] == "YES"
                relationship.isOrdered = child["ordered"] == "YES"
                relationship.isOptional = child["optional"] == "YES"
                relationship.deleteRule = child["deletionRule"].flatMap(ModelRelationship.DeleteRule.init) ?? .nullify
                entity.relationships.append(relationship)
            case "uniquenessConstraints":
                for constraint in child.children where constraint.name == "uniquenessConstraint" {
                    entity.uniquenessConstraints.append(
                        constraint.children.filter { $0.name == "constraint" }.compactMap { $0["value"] })
                }
            default: continue
            }
        }
        return entity
    }

    /// libxml2's reason a document could not be read, where it found the first fault.
    private static func malformed(_ error: FirstXMLError.Found?, file: String) -> CloudSeedError {
        guard let error else {
            return CloudSeedError(
                .malformedSource, "the model file is empty; give a .xcdatamodeld, a .xcdatamodel or its contents file",
                at: SourcePosition(file: file))
        }
        let said = error.message.trimmingCharacters(in: .whitespacesAndNewlines)
        return CloudSeedError(
            .malformedSource, "the model file is not well-formed XML (libxml2: \(said)); fix it at this place",
            at: SourcePosition(
                file: file, line: error.line > 0 ? error.line : nil, column: error.column > 0 ? error.column : nil))
    }
}

/// The first error libxml2 reports while reading a document (its last is often a consequence).
private final class FirstXMLError {
    typealias Found = (line: Int, column: Int, message: String)
    var first: Found?
}

/// An element of a libxml2 document, read without copying the document.
private struct XMLElement {
    let node: xmlNodePtr

    init(_ node: xmlNodePtr) { self.node = node }

    var name: String { String(cString: node.pointee.name) }

    var line: Int { Int(xmlGetLineNo(node)) }

    /// The child elements, in order.
    var children: [XMLElement] {
        var elements: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { elements.append(XMLElement(current)) }
            child = current.pointee.next
        }
        return elements
    }

    /// The value of the attribute `name`, if the element has it.
    subscript(_ name: String) -> String? {
        var attribute = node.pointee.properties
        while let current = attribute {
            if String(cString: current.pointee.name) == name {
                guard let text = current.pointee.children, let content = text.pointee.content else { return "" }
                return String(cString: content)
            }
            attribute = current.pointee.next
        }
        return nil
    }
}

/// Where an element starts in its line, which libxml2's tree does not keep: the column of its `<`.
private struct LineColumns {
    let lines: [Substring]

    init(_ data: Data) {
        lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    func position(of element: XMLElement, file: String) -> SourcePosition {
        let line = element.line
        guard line >= 1, line <= lines.count, let start = lines[line - 1].range(of: "<" + element.name) else {
            return SourcePosition(file: file, line: line)
        }
        return SourcePosition(
            file: file, line: line,
            column: lines[line - 1].distance(from: lines[line - 1].startIndex, to: start.lowerBound) + 1)
    }
}
