// libyaml, as Yams builds it (Yams' own C target, visible to every target that depends on Yams).
import CYaml

/// Why a YAML text could not be composed: libyaml's own problem, a duplicate key, or aliases that
/// expand past the node budget.
enum YAMLProblem: Error {
    /// A scanner, parser or composer error at a position, with libyaml's context text if any.
    case syntax(context: String?, problem: String, line: Int, column: Int)
    /// The input could not be read (not UTF-8, a control character).
    case reader(problem: String)
    /// Keys repeated in one mapping (sorted), located at the repeat of the first of them.
    case duplicateKeys([String], line: Int, column: Int)
    /// Aliases expand the document past this many nodes.
    case overBudget(Int)
    /// libyaml ran out of memory.
    case memory
}

/// Composes a YAML text into ``YAMLNode``s straight from libyaml's events: what Yams'
/// `compose(yaml:)` with the basic resolver does (one document, aliases resolved, duplicate keys
/// refused), into smaller nodes and without a dictionary per mapping.
///
/// Aliases share the anchored node's storage; the nodes they stand for are counted, and a document
/// that expands past `budget` nodes is refused.
final class YAMLComposer {
    private let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
    // The composer is private to one `compose` call on one thread: the stacks below are used
    // without the runtime's exclusivity checks, which cost more than the appends they guard.
    @exclusivity(unchecked) private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var sawAlias = false
    /// The pairs and items of the mappings and sequences being composed, innermost last: each
    /// collection's elements are gathered here and copied into an array of exactly their number
    /// when it ends, so that a large document's nodes carry no growth slack (most of a version
    /// file's memory while it is parsed).
    @exclusivity(unchecked) private var pendingPairs: [(key: YAMLNode, value: YAMLNode)] = []
    @exclusivity(unchecked) private var pendingItems: [YAMLNode] = []
    /// The ``keyHash(_:)`` of the ASCII keys of the mappings being composed, innermost last.
    @exclusivity(unchecked) private var pendingKeyHashes: [UInt64] = []
    private let budget: Int

    private init(budget: Int) {
        self.budget = budget
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
    }

    /// The root node of `text` (nil for an empty stream).
    static func compose(_ text: String, budget: Int) throws(YAMLProblem) -> YAMLNode? {
        var text = text
        text.makeContiguousUTF8()
        let composer = YAMLComposer(budget: budget)
        let result = text.utf8.withContiguousStorageIfAvailable { buffer -> Result<YAMLNode?, YAMLProblem> in
            yaml_parser_set_input_string(composer.parser, buffer.baseAddress, buffer.count)
            do throws(YAMLProblem) {
                return .success(try composer.document())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let root): return root
        case .failure(let problem): throw problem
        case nil: throw .reader(problem: "the text is not contiguous UTF-8")
        }
    }

    /// What the composer needs of one libyaml event (copied out, so the event is freed at once).
    private struct Event {
        var type: yaml_event_type_t
        var mark: YAMLNode.Mark
        var value = ""
        var tag = YAMLNode.ScalarTag.plain
        var anchor: String?
    }

    private func next() throws(YAMLProblem) -> Event {
        var raw = yaml_event_t()
        guard yaml_parser_parse(parser, &raw) == 1 else { throw problem() }
        defer { yaml_event_delete(&raw) }
        let mark = YAMLNode.Mark(
            line: Int32(clamping: raw.start_mark.line + 1), column: Int32(clamping: raw.start_mark.column + 1))
        // Each event made whole at once (filling in a variable's fields copied it on return).
        func anchor(_ name: UnsafeMutablePointer<yaml_char_t>?) -> String? { name.map { String(cString: $0) } }
        switch raw.type {
        case YAML_SCALAR_EVENT:
            let scalar = raw.data.scalar
            let tag: YAMLNode.ScalarTag =
                if scalar.quoted_implicit == 1 {
                    .quoted
                } else if let tag = scalar.tag {
                    .explicit(String(cString: tag))
                } else {
                    .plain
                }
            return Event(
                type: raw.type, mark: mark,
                value: String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self),
                tag: tag, anchor: anchor(scalar.anchor))
        case YAML_ALIAS_EVENT: return Event(type: raw.type, mark: mark, anchor: anchor(raw.data.alias.anchor))
        case YAML_SEQUENCE_START_EVENT:
            return Event(type: raw.type, mark: mark, anchor: anchor(raw.data.sequence_start.anchor))
        case YAML_MAPPING_START_EVENT:
            return Event(type: raw.type, mark: mark, anchor: anchor(raw.data.mapping_start.anchor))
        default: return Event(type: raw.type, mark: mark)
        }
    }

    /// The stream's single document, as Yams' `Parser.singleRoot()` reads it.
    private func document() throws(YAMLProblem) -> YAMLNode? {
        _ = try next()  // stream start
        guard try next().type != YAML_STREAM_END_EVENT else { return nil }  // document start
        let (root, size) = try self.node(from: try next())
        _ = try next()  // document end
        let after = try next()
        if after.type != YAML_STREAM_END_EVENT {
            throw .syntax(
                context: "expected a single document in the stream", problem: "but found another document",
                line: Int(after.mark.line), column: Int(after.mark.column))
        }
        if sawAlias && size > budget { throw .overBudget(budget) }
        return root
    }

    /// The node that starts with `event`, and how many nodes it stands for (aliases expanded,
    /// counted up to just past the budget).
    private func node(from event: Event) throws(YAMLProblem) -> (YAMLNode, Int) {
        let composed: (YAMLNode, Int)
        switch event.type {
        case YAML_ALIAS_EVENT:
            guard let name = event.anchor, let anchored = anchors[name] else {
                throw .syntax(
                    context: nil, problem: "found undefined alias", line: Int(event.mark.line),
                    column: Int(event.mark.column))
            }
            sawAlias = true
            return anchored
        case YAML_SCALAR_EVENT:
            let scalar = YAMLNode.scalar(YAMLNode.Scalar(string: event.value, tag: event.tag, mark: event.mark))
            // Most scalars: no anchor to record.
            guard let name = event.anchor else { return (scalar, 1) }
            anchors[name] = (scalar, 1)
            return (scalar, 1)
        case YAML_SEQUENCE_START_EVENT:
            let start = pendingItems.count
            var size = 1
            while true {
                let item = try next()
                if item.type == YAML_SEQUENCE_END_EVENT { break }
                let (child, count) = try self.node(from: item)
                pendingItems.append(child)
                size = min(size + count, budget + 1)
            }
            let items = Array(pendingItems[start...])
            pendingItems.removeSubrange(start...)
            composed = (.sequence(YAMLNode.List(items: items, mark: event.mark)), size)
        case YAML_MAPPING_START_EVENT:
            let start = pendingPairs.count
            let hashStart = pendingKeyHashes.count
            var hasNonASCIIKey = false
            var size = 1
            while true {
                let key = try next()
                if key.type == YAML_MAPPING_END_EVENT { break }
                let (keyNode, keyCount) = try self.node(from: key)
                switch Self.keyHash(keyNode) {
                case .ascii(let hash): pendingKeyHashes.append(hash)
                case .nonASCII: hasNonASCIIKey = true
                case .notScalar: break
                }
                let (valueNode, valueCount) = try self.node(from: try next())
                pendingPairs.append((keyNode, valueNode))
                size = min(size + keyCount + valueCount, budget + 1)
            }
            let pairs = Array(pendingPairs[start...])
            pendingPairs.removeSubrange(start...)
            // Keys are compared only when two of their hashes are equal (rarely without a repeat),
            // or when one is not ASCII (equal strings may differ in their bytes).
            if hasNonASCIIKey || Self.hasRepeat(pendingKeyHashes[hashStart...]) { try Self.checkDuplicates(pairs) }
            pendingKeyHashes.removeSubrange(hashStart...)
            composed = (.mapping(YAMLNode.Mapping(pairs: pairs, mark: event.mark)), size)
        default:
            throw .syntax(
                context: nil, problem: "unexpected event", line: Int(event.mark.line), column: Int(event.mark.column))
        }
        if let name = event.anchor { anchors[name] = composed }
        return composed
    }

    /// What ``keyHash(_:)`` makes of a key.
    private enum KeyHash {
        /// The hash of an ASCII key.
        case ascii(UInt64)
        /// A key with other characters: Swift compares strings by canonical equivalence (`K` and
        /// the Kelvin sign are the same key), which byte hashes do not follow.
        case nonASCII
        /// A mapping or list as a key, which ``checkDuplicates(_:)`` ignores.
        case notScalar
    }

    /// A hash (FNV-1a) of the bytes of what ``checkDuplicates(_:)`` compares of a key: ASCII
    /// keys that it finds the same have the same hash.
    private static func keyHash(_ node: YAMLNode) -> KeyHash {
        guard case .scalar(let scalar) = node else { return .notScalar }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Every byte or-ed together: ASCII when below 0x80.
        var bits: UInt8 = 0
        switch scalar.tag {
        case .plain, .quoted, .explicit("!"), .explicit("tag:yaml.org,2002:str"): break
        case .explicit(let tag):
            for byte in (tag + " ").utf8 {
                bits |= byte
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        for byte in scalar.string.utf8 {
            bits |= byte
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return bits < 0x80 ? .ascii(hash) : .nonASCII
    }

    /// True when two of `hashes` are equal.
    private static func hasRepeat(_ hashes: ArraySlice<UInt64>) -> Bool {
        guard hashes.count > 1 else { return false }
        if hashes.count <= 8 {
            for index in hashes.indices.dropFirst() where hashes[hashes.startIndex..<index].contains(hashes[index]) {
                return true
            }
            return false
        }
        let sorted = hashes.sorted()
        return zip(sorted, sorted.dropFirst()).contains { $0 == $1 }
    }

    /// Refuses a mapping whose scalar keys repeat (the same text and tag, as Yams compares them
    /// with the basic resolver: a plain and a quoted key are the same). Small mappings (a field's
    /// options) are compared pairwise, without a set.
    private static func checkDuplicates(_ pairs: [(key: YAMLNode, value: YAMLNode)]) throws(YAMLProblem) {
        guard pairs.count > 1 else { return }
        func identity(_ node: YAMLNode) -> String? {
            guard case .scalar(let scalar) = node else { return nil }
            switch scalar.tag {
            case .plain, .quoted, .explicit("!"), .explicit("tag:yaml.org,2002:str"): return scalar.string
            case .explicit(let tag): return tag + " " + scalar.string
            }
        }
        var repeats: [String: YAMLNode.Mark] = [:]
        func record(_ node: YAMLNode) {
            if case .scalar(let scalar) = node, repeats[scalar.string] == nil { repeats[scalar.string] = scalar.mark }
        }
        if pairs.count <= 8 {
            for index in 1..<pairs.count {
                guard let key = identity(pairs[index].key) else { continue }
                if pairs[..<index].contains(where: { identity($0.key) == key }) { record(pairs[index].key) }
            }
        } else {
            var seen = Set<String>(minimumCapacity: pairs.count)
            for pair in pairs {
                if let key = identity(pair.key), !seen.insert(key).inserted { record(pair.key) }
            }
        }
        let names = repeats.keys.sorted()
        guard let first = names.first, let mark = repeats[first] else { return }
        throw .duplicateKeys(names, line: Int(mark.line), column: Int(mark.column))
    }

    /// libyaml's error, as Yams reports it.
    private func problem() -> YAMLProblem {
        let state = parser.pointee
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        switch state.error {
        case YAML_MEMORY_ERROR: return .memory
        case YAML_READER_ERROR: return .reader(problem: text(state.problem))
        default:
            return .syntax(
                context: state.context.map { String(cString: $0) }, problem: text(state.problem),
                line: state.problem_mark.line + 1, column: state.problem_mark.column + 1)
        }
    }
}
