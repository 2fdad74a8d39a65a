import CLibXML2
package import CloudSeedCore
import Foundation

/// The elements a property list is made of.
package enum PropertyListElement: String {
    case plist, dict, array, key, string, integer, real, `true`, `false`, date, data

    /// Whether the element holds other elements rather than text.
    package var isContainer: Bool { self == .plist || self == .dict || self == .array }
}

/// What libxml2's parser meets in an XML property list, in order: where a container starts and
/// ends, each value element with its text, or why the file cannot be read.
package enum PropertyListEvent {
    case start(PropertyListElement, SourcePosition)
    case end(PropertyListElement, SourcePosition)
    /// A value element (`<string>`, `<key>`, `<true/>`, …) with its text, entities expanded.
    case leaf(PropertyListElement, String, SourcePosition)
    indirect case failure(CloudSeedError)
}

/// Parses an XML property list with libxml2's SAX2 push parser a slice at a time, turning what
/// it meets into ``PropertyListEvent``s for ``XMLPropertyListCursor``.
///
/// libxml2 reads every encoding it knows from the declaration or the byte order mark and expands
/// the entities an internal DTD subset declares within its limits. Nothing is ever read from
/// outside the file: the network is off, the external DTD subset is not loaded, and a
/// declaration of an external entity is refused before anything could refer to it.
package final class XMLPropertyListEvents {
    /// The deepest nesting of containers read: the cursor's readers recurse into each.
    package static let maximumDepth = 512

    /// How many bytes the parser takes at a time: the events of one slice wait to be read.
    private static let sliceSize = 1 << 16

    private var input: ChunkedInput
    private let origin: SourcePosition
    private var context: xmlParserCtxtPtr?
    /// The bytes of ``input``'s buffer handed to the parser.
    private var fed = 0
    private var isTerminated = false
    @exclusivity(unchecked) private var events: [PropertyListEvent] = []
    @exclusivity(unchecked) private var nextEvent = 0
    /// Whether the parser met an error: later events are dropped.
    @exclusivity(unchecked) private var failed = false
    /// The containers open, innermost last, and the value element open inside the innermost, with its text so far.
    @exclusivity(unchecked) private var openContainers: [(element: PropertyListElement, position: SourcePosition)] = []
    @exclusivity(unchecked) private var openLeaf: (element: PropertyListElement, position: SourcePosition)?
    @exclusivity(unchecked) private var text: [UInt8] = []
    /// The element names met so far, by their address in the parser's dictionary.
    @exclusivity(unchecked) private var knownNames:
        [(name: UnsafePointer<UInt8>, element: PropertyListElement?, text: String)] = []

    package init(input: ChunkedInput, file: String) {
        self.input = input
        origin = SourcePosition(file: file)
        _ = Self.initializeLibrary
        var handler = Self.handler()
        // The first bytes go with the parser's creation: libxml2 tells the encoding from them.
        while self.input.buffer.count < 4, self.input.fill() {}
        fed = min(4, self.input.buffer.count)
        context = self.input.buffer.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                xmlCreatePushParserCtxt(&handler, nil, $0.baseAddress, Int32(fed), file)
            }
        }
        guard let context else { return }
        xmlCtxtUseOptions(
            context, Int32(XML_PARSE_NOENT.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue))
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        guard let context else { return }
        if let document = context.pointee.myDoc { xmlFreeDoc(document) }
        xmlFreeParserCtxt(context)
    }

    /// Once per process, before any thread parses.
    private static let initializeLibrary: Void = xmlInitParser()

    /// The next event without taking it; `nil` once the document has ended.
    package func peek() -> PropertyListEvent? {
        while nextEvent == events.count {
            if isTerminated { return nil }
            events.removeAll(keepingCapacity: true)
            nextEvent = 0
            parseMore()
        }
        return events[nextEvent]
    }

    /// Takes the event ``peek()`` returns.
    package func take() {
        nextEvent += 1
    }

    /// Hands the parser its next slice of the file, or tells it the file has ended.
    private func parseMore() {
        guard let context else {
            events.append(.failure(CloudSeedError(.malformedSource, "libxml2 could not start a parser", at: origin)))
            isTerminated = true
            return
        }
        if fed == input.buffer.count {
            fed -= input.compact(before: fed)
            if !input.fill() {
                isTerminated = true
                xmlParseChunk(context, nil, 0, 1)
                return
            }
        }
        let count = min(Self.sliceSize, input.buffer.count - fed)
        input.buffer.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.advanced(by: fed).withMemoryRebound(to: CChar.self, capacity: count) {
                _ = xmlParseChunk(context, $0, Int32(count), 0)
            }
        }
        fed += count
    }

    // MARK: What the parser meets

    private func fail(_ error: CloudSeedError) {
        guard !failed else { return }
        failed = true
        events.append(.failure(error))
        isTerminated = true
        if let context { xmlStopParser(context) }
    }

    /// Where the parser is: just past what it met last.
    private var here: SourcePosition {
        guard let input = context?.pointee.input?.pointee else { return origin }
        return origin.at(line: Int(input.line), column: Int(input.col))
    }

    /// Where the start tag the parser has just read begins: it stands at the tag's `>` (or `/>`).
    private var startOfTag: SourcePosition {
        guard let input = context?.pointee.input?.pointee, var cursor = input.cur, let base = input.base else {
            return here
        }
        var distance = 0
        while cursor > base, cursor.pointee != UInt8(ascii: "<") {
            guard cursor.pointee != 0x0A else { return here }
            cursor -= 1
            distance += 1
        }
        guard cursor.pointee == UInt8(ascii: "<") else { return here }
        return origin.at(line: Int(input.line), column: max(1, Int(input.col) - distance))
    }

    /// The element libxml2 names `name`: names are kept once in the parser's dictionary, so each
    /// is found again by its address rather than compared as text.
    private func element(named name: UnsafePointer<UInt8>) -> (PropertyListElement?, String) {
        if let known = knownNames.first(where: { $0.name == name }) { return (known.element, known.text) }
        let text = String(cString: name)
        if knownNames.count < 32 { knownNames.append((name, PropertyListElement(rawValue: text), text)) }
        return (PropertyListElement(rawValue: text), text)
    }

    fileprivate func started(_ pointer: UnsafePointer<UInt8>) {
        guard !failed else { return }
        let (known, name) = element(named: pointer)
        let position = startOfTag
        if let input = context?.pointee.input?.pointee, let cursor = input.cur, let end = input.end, cursor >= end {
            return fail(CloudSeedError(.malformedSource, "unterminated tag <\(name); close it with '>'", at: position))
        }
        if let openLeaf {
            return fail(
                CloudSeedError(
                    .malformedSource, "expected </\(openLeaf.element.rawValue)>, found <\(name)>", at: position))
        }
        guard let element = known, element != .plist || openContainers.isEmpty else {
            return fail(
                CloudSeedError(
                    .malformedSource,
                    "unknown element <\(name)>; property lists use dict, array, string, integer, real, true, false, date and data",
                    at: position))
        }
        if element.isContainer {
            let depth = openContainers.count - (openContainers.first?.element == .plist ? 1 : 0)
            guard depth < Self.maximumDepth else {
                return fail(
                    CloudSeedError(
                        .limitExceeded, "nesting deeper than \(Self.maximumDepth) levels; flatten the property list",
                        at: position))
            }
            openContainers.append((element, position))
            events.append(.start(element, position))
        } else {
            openLeaf = (element, position)
            text.removeAll(keepingCapacity: true)
        }
    }

    fileprivate func ended(_ pointer: UnsafePointer<UInt8>) {
        guard !failed, case (let element?, _) = element(named: pointer) else { return }
        if let openLeaf {
            events.append(.leaf(openLeaf.element, String(decoding: text, as: UTF8.self), openLeaf.position))
            self.openLeaf = nil
        } else {
            openContainers.removeLast()
            events.append(.end(element, here))
        }
    }

    fileprivate func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !failed else { return }
        if openLeaf != nil {
            text.append(contentsOf: bytes)
        } else if bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            fail(
                CloudSeedError(
                    .malformedSource,
                    "unexpected text outside an element; values belong inside <string>, <integer> and the like",
                    at: here))
        }
    }

    fileprivate func declaredExternalEntity(_ name: String, system: String?) {
        let source = system.map { " (\"\($0)\")" } ?? ""
        fail(
            CloudSeedError(
                .malformedSource,
                "the DOCTYPE declares the external entity '\(name)'\(source); cloudseed reads nothing from outside the property list: write the text into the file instead",
                at: here))
    }

    fileprivate func libxml2Failed(_ error: xmlError) {
        // libxml2's push parser says a file that ends inside an element has extra content at its end.
        if xmlParserErrors(rawValue: UInt32(error.code)) == XML_ERR_DOCUMENT_END,
            let open = openLeaf ?? openContainers.last
        {
            let name = open.element.rawValue
            return fail(CloudSeedError(.malformedSource, "unterminated <\(name)>; add </\(name)>", at: open.position))
        }
        var failure = Self.failure(error, file: origin.file)
        // An error inside an entity's text is placed where the entity is used.
        if error.file == nil { failure.position = here }
        fail(failure)
    }

    /// libxml2's error in cloudseed's words: where, what, and what to do.
    private static func failure(_ error: xmlError, file: String) -> CloudSeedError {
        let position = SourcePosition(
            file: file, line: error.line > 0 ? Int(error.line) : nil, column: error.int2 > 0 ? Int(error.int2) : nil)
        let said = error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let first = error.str1.map { String(cString: $0) } ?? ""
        let second = error.str2.map { String(cString: $0) } ?? ""
        let message: String
        switch xmlParserErrors(rawValue: UInt32(error.code)) {
        case XML_ERR_ENTITY_LOOP:
            message =
                "the DOCTYPE's entities expand past libxml2's limits (an entity expansion bomb); remove the entity declarations and write the text itself"
        case XML_ERR_DOCUMENT_END:
            message = "unexpected content after the end of the property list; remove it"
        case XML_ERR_DOCUMENT_EMPTY:
            message = "the file holds no XML; give a property list"
        case XML_ERR_UNDECLARED_ENTITY, XML_WAR_UNDECLARED_ENTITY:
            message = "unknown entity &\(first);; declare it in the DOCTYPE, or write &amp; for '&'"
        case XML_ERR_TAG_NOT_FINISHED:
            message = "the file ends inside <\(first)> (opened on line \(error.int1)); the property list is incomplete"
        case XML_ERR_TAG_NAME_MISMATCH:
            message =
                "expected </\(first)> (opened on line \(error.int1)), found </\(second)>; close each element in order"
        case XML_ERR_INVALID_CHAR, XML_ERR_INVALID_ENCODING, XML_ERR_UNSUPPORTED_ENCODING:
            message =
                "\(Self.lowercasingFirst(said)); re-save the file as UTF-8, or name its encoding in the XML declaration"
        default:
            message = "the XML is malformed (libxml2: \(said)); fix it at this place"
        }
        return CloudSeedError(.malformedSource, message, at: position)
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, text.dropFirst().first?.isUppercase != true else {
            return text
        }
        return first.lowercased() + text.dropFirst()
    }

    // MARK: libxml2's callbacks

    /// The SAX2 handler: libxml2's own for the document and its DTD (which keeps the internal
    /// subset's entities), these for the elements, their text and errors.
    private static func handler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = { context, name, _, _, _, _, _, _, _ in
            guard let name else { return }
            XMLPropertyListEvents.events(of: context)?.started(name)
        }
        handler.endElementNs = { context, name, _, _ in
            guard let name else { return }
            XMLPropertyListEvents.events(of: context)?.ended(name)
        }
        handler.characters = { context, bytes, count in
            guard let bytes, count > 0 else { return }
            XMLPropertyListEvents.events(of: context)?.characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
        }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = handler.characters
        handler.entityDecl = { context, name, type, publicID, systemID, content in
            switch xmlEntityType(rawValue: UInt32(type)) {
            case XML_INTERNAL_GENERAL_ENTITY, XML_INTERNAL_PARAMETER_ENTITY, XML_INTERNAL_PREDEFINED_ENTITY:
                xmlSAX2EntityDecl(context, name, type, publicID, systemID, content)
            default:
                XMLPropertyListEvents.events(of: context)?.declaredExternalEntity(
                    name.map { String(cString: $0) } ?? "", system: systemID.map { String(cString: $0) })
            }
        }
        handler.unparsedEntityDecl = { context, name, _, systemID, _ in
            XMLPropertyListEvents.events(of: context)?.declaredExternalEntity(
                name.map { String(cString: $0) } ?? "", system: systemID.map { String(cString: $0) })
        }
        handler.externalSubset = nil
        handler.resolveEntity = nil
        handler.comment = nil
        handler.processingInstruction = nil
        handler.reference = nil
        handler.warning = nil
        handler.error = nil
        handler.serror = { context, error in
            guard let error, error.pointee.level != XML_ERR_WARNING else { return }
            XMLPropertyListEvents.events(of: context)?.libxml2Failed(error.pointee)
        }
        return handler
    }

    /// The events a callback's parser fills: the parser of the file, or one libxml2 made for an
    /// entity's text, which inherits its `_private`.
    private static func events(of context: UnsafeMutableRawPointer?) -> XMLPropertyListEvents? {
        guard let owner = context?.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<XMLPropertyListEvents>.fromOpaque(owner).takeUnretainedValue()
    }
}
