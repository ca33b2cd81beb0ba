import Filmstrip

/// What a row ran: its `pipeline`, `extractor` and `composer` cells, parsed once into the form
/// the runner wrote them in. Readers switch on the case instead of testing prefixes (`cli:`,
/// `interactive:`) or placeholder cells (`peer`, `generator`, `sheet`).
///
/// The parts stay names, not registry values: files of other builds and the peers' rows carry
/// names this build's registries may not know, and a row read and written again must keep its
/// cells. Where a role matters, the registry is asked (``Extractors/role(ofNamed:)``).
package enum PipelineName: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// An extractor and a composer timed in the bench child (`forward+rowcopy`); also the
    /// placeholders of the kinds without one of them (`synthetic+rowcopy`, `calibration+memcpy`).
    case strategies(extractor: String, composer: String)
    /// filmstrip's `strip` command timed as a whole process (`cli:forward+rowcopy`).
    case commandLine(extractor: String, composer: String)
    /// An external tool doing the same job (`ffmpeg-exact`; extractor `peer`).
    case peer(Peer)
    /// An interactive strategy behind the thumbnail generator (`interactive:standard`).
    case interactive(strategy: String)
    /// A sprite contender (`sprite:filmstrip`).
    case sprite(contender: String)
    /// Cells in no form this build writes (another build's file, a hand-made row): kept as they are.
    case other(pipeline: String, extractor: String, composer: String)

    /// The three cells as a file has them: the form they were written in, or ``other`` when the
    /// extractor and composer cells are not the ones that form gives (so writing gives them back).
    package init(pipeline: String, extractor: String, composer: String) {
        if let parsed = Self.parse(pipeline), parsed.extractor == extractor, parsed.composer == composer {
            self = parsed
        } else {
            self = .other(pipeline: pipeline, extractor: extractor, composer: composer)
        }
    }

    /// The form `cell` names on its own (`"forward+rowcopy"`, `"cli:forward+fused"`,
    /// `"ffmpeg-exact"`); a cell in no such form is ``other`` with empty parts.
    package init(cell: String) {
        self = Self.parse(cell) ?? .other(pipeline: cell, extractor: "", composer: "")
    }

    /// A literal is a cell (`"forward+rowcopy"`): how tests and fixtures name what ran.
    package init(stringLiteral cell: String) { self.init(cell: cell) }

    /// The form a `pipeline` cell names on its own, nil when it names none.
    private static func parse(_ cell: String) -> PipelineName? {
        func parts(_ text: Substring) -> (extractor: String, composer: String)? {
            guard let plus = text.firstIndex(of: "+") else { return nil }
            return (String(text[..<plus]), String(text[text.index(after: plus)...]))
        }
        if cell.hasPrefix(Self.commandLinePrefix) {
            return parts(cell.dropFirst(Self.commandLinePrefix.count)).map { .commandLine(extractor: $0.extractor, composer: $0.composer) }
        }
        if cell.hasPrefix(Self.interactivePrefix) { return .interactive(strategy: String(cell.dropFirst(Self.interactivePrefix.count))) }
        if cell.hasPrefix(Self.spritePrefix) { return .sprite(contender: String(cell.dropFirst(Self.spritePrefix.count))) }
        if let peer = Peer(rawValue: cell) { return .peer(peer) }
        return parts(cell[...]).map { .strategies(extractor: $0.extractor, composer: $0.composer) }
    }

    /// `strip`'s default pipeline (``Pipeline/default``) timed in the bench child.
    package static var stripDefault: PipelineName {
        .strategies(extractor: Pipeline.default.extractor.name, composer: Pipeline.default.destination.name)
    }

    private static let commandLinePrefix = "cli:", interactivePrefix = "interactive:", spritePrefix = "sprite:"
    /// The placeholder cells of the kinds that have no extractor or composer of a registry
    /// (the runner writes them; `RunKind.inferred` reads them in files without a `kind` column).
    package static let peerExtractor = "peer", generatorComposer = "generator", sheetComposer = "sheet"
    package static let syntheticExtractor = "synthetic", calibrationExtractor = "calibration", memcpyComposer = "memcpy"

    /// The `pipeline` cell.
    package var description: String {
        switch self {
        case let .strategies(extractor, composer): "\(extractor)+\(composer)"
        case let .commandLine(extractor, composer): "\(Self.commandLinePrefix)\(extractor)+\(composer)"
        case .peer(let peer): peer.rawValue
        case .interactive(let strategy): Self.interactivePrefix + strategy
        case .sprite(let contender): Self.spritePrefix + contender
        case .other(let pipeline, _, _): pipeline
        }
    }

    /// The `extractor` cell: the extraction strategy's name, the interactive strategy's, the
    /// sprite contender's, or `peer`.
    package var extractor: String {
        switch self {
        case .strategies(let extractor, _), .commandLine(let extractor, _), .other(_, let extractor, _): extractor
        case .peer: Self.peerExtractor
        case .interactive(let strategy): strategy
        case .sprite(let contender): contender
        }
    }

    /// The `composer` cell: the composition strategy's name, the peer's, `generator` or `sheet`.
    package var composer: String {
        switch self {
        case .strategies(_, let composer), .commandLine(_, let composer), .other(_, _, let composer): composer
        case .peer(let peer): peer.rawValue
        case .interactive: Self.generatorComposer
        case .sprite: Self.sheetComposer
        }
    }

    /// Orders by the `pipeline` cell.
    package static func < (lhs: PipelineName, rhs: PipelineName) -> Bool { lhs.description < rhs.description }
}
