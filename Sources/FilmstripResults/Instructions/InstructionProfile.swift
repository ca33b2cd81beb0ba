import Foundation

/// The instructions one `bench-run` child executed, per phase, from its callgrind parts.
///
/// The child calls the functions of `CInstructionMarks` at its phase boundaries and
/// ``Callgrind`` dumps a part before each, so each part is named by the boundary that ended it:
/// - ended by `filmstrip_mark_measured_begins`: **startup** (loader, runtime, argument and
///   configuration parsing, probing the video and planning: everything before the clocks start);
/// - ended by `filmstrip_mark_compose_begins`: **extract**;
/// - ended by `filmstrip_mark_measured_ends`: **compose** when an extract part came before it,
///   else the configuration's one measured phase (synthetic composition, calibration);
/// - the end of the program: teardown, which counts only in **process** (the whole child).
/// An executable built before the marks existed has only the end-of-program part: its profile
/// holds ``Phase/process`` alone, which is still comparable.
package struct InstructionProfile: Sendable, Hashable {
    package static let measuredBegins = "filmstrip_mark_measured_begins"
    package static let composeBegins = "filmstrip_mark_compose_begins"
    package static let measuredEnds = "filmstrip_mark_measured_ends"
    package static let marks = [measuredBegins, composeBegins, measuredEnds]

    /// What a part of the profile covers.
    package enum Part: String, Sendable, Hashable, CaseIterable, Comparable {
        case startup, extract, compose
        /// The one measured phase of a configuration without an extract/compose split.
        case measured
        case teardown

        package static func < (lhs: Part, rhs: Part) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// Total instructions per part; the process total is their sum (plus other processes).
    package var instructions: [Part: Int]
    /// Self instructions per function per part.
    package var functions: [Part: [CallgrindPart.Function: Int]]
    /// Every instruction the child executed, in all its processes.
    package var processInstructions: Int
    /// The busiest thread's instructions per part (``InstructionSpan``), from the span run; empty without one.
    package var span: [Part: Int] = [:]
    /// The busiest thread's instructions over the child's whole life; nil without a span run.
    package var processSpan: Int?

    package init(instructions: [Part: Int], functions: [Part: [CallgrindPart.Function: Int]], processInstructions: Int) {
        self.instructions = instructions
        self.functions = functions
        self.processInstructions = processInstructions
    }

    /// Assembles the parts of one run (all its processes). The process whose parts carry the
    /// marks is the child; processes it started (none for pipelines) count in the process total.
    package init(parts: [CallgrindPart]) {
        var instructions: [Part: Int] = [:], functions: [Part: [CallgrindPart.Function: Int]] = [:]
        let marked = Set(parts.filter { $0.trigger != nil }.map(\.pid))
        let main = parts.filter { marked.contains($0.pid) }.sorted { $0.number < $1.number }
        let sawCompose = main.contains { $0.trigger == Self.composeBegins }
        for part in main {
            let name: Part = switch part.trigger {
            case Self.measuredBegins: .startup
            case Self.composeBegins: .extract
            case Self.measuredEnds: sawCompose ? .compose : .measured
            default: .teardown
            }
            instructions[name, default: 0] += part.instructions
            if !part.selfInstructions.isEmpty { functions[name, default: [:]].merge(part.selfInstructions, uniquingKeysWith: +) }
        }
        self.init(instructions: instructions, functions: functions, processInstructions: parts.map(\.instructions).reduce(0, +))
    }

    /// The instructions of a results row's `phase`: nil when the profile has no such part.
    package func instructions(for phase: Phase) -> Int? {
        switch phase {
        case .startup: instructions[.startup]
        case .extract: instructions[.extract]
        case .compose: instructions[.compose] ?? instructions[.measured]
        case .total: instructions[.extract].flatMap { extract in instructions[.compose].map { extract + $0 } }
        case .calibration: instructions[.measured] ?? instructions[.extract].flatMap { extract in instructions[.compose].map { extract + $0 } }
        case .process: processInstructions
        case .peer, .open, .zoomIn, .drag, .zoomBack, .coldSingle, .soak, .sprite: nil
        }
    }

    /// The busiest thread's instructions in a results row's `phase`: nil where not measured
    /// (``InstructionSpan`` says which phases are).
    package func span(for phase: Phase) -> Int? {
        switch phase {
        case .extract: span[.extract]
        case .process: processSpan
        default: nil
        }
    }

    /// Adds the spans of the span run's parts (``InstructionSpan/spans(of:)``).
    package mutating func addSpans(from parts: [CallgrindPart]) {
        let spans = InstructionSpan.spans(of: parts)
        span = spans.parts
        processSpan = spans.process
    }

    /// Self instructions per function over the parts that make up `phase`.
    package func functions(for phase: Phase) -> [CallgrindPart.Function: Int] {
        let parts: [Part] = switch phase {
        case .startup: [.startup]
        case .extract: [.extract]
        case .compose: instructions[.compose] != nil ? [.compose] : [.measured]
        case .total, .calibration: instructions[.measured] != nil ? [.measured] : [.extract, .compose]
        case .process: Part.allCases
        case .peer, .open, .zoomIn, .drag, .zoomBack, .coldSingle, .soak, .sprite: []
        }
        return parts.reduce(into: [:]) { result, part in result.merge(functions[part] ?? [:], uniquingKeysWith: +) }
    }

    // MARK: The profile file kept beside the results

    /// Functions kept per part in the file: the rest are summed into one `(other functions)` line.
    static let functionsKept = 400

    /// Tab-separated `part`, `object`, `function`, `instructions`: each part's total first
    /// (function `(total)`), its span (function `(span)`) where measured, then its functions by
    /// cost, largest first.
    package var fileText: String {
        var lines = ["part\tobject\tfunction\tinstructions"]
        for part in Part.allCases {
            guard let total = instructions[part] else { continue }
            lines.append("\(part.rawValue)\t\t(total)\t\(total)")
            if let busiest = span[part] { lines.append("\(part.rawValue)\t\t(span)\t\(busiest)") }
            let sorted = (functions[part] ?? [:]).sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            for (function, cost) in sorted.prefix(Self.functionsKept) {
                lines.append("\(part.rawValue)\t\(Self.clean(function.object))\t\(Self.clean(function.name))\t\(cost)")
            }
            let rest = sorted.dropFirst(Self.functionsKept).map(\.value).reduce(0, +)
            if rest != 0 { lines.append("\(part.rawValue)\t\t(other functions)\t\(rest)") }
        }
        lines.append("process\t\t(total)\t\(processInstructions)")
        if let processSpan { lines.append("process\t\t(span)\t\(processSpan)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads ``fileText`` back.
    package init(fileText: String) throws(CallgrindPart.FormatError) {
        var instructions: [Part: Int] = [:], functions: [Part: [CallgrindPart.Function: Int]] = [:], process: Int?
        var span: [Part: Int] = [:], processSpan: Int?
        for line in fileText.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let cost = Int(fields[3]) else {
                throw CallgrindPart.FormatError(description: "instruction profile: bad line \(line.prefix(80))")
            }
            if fields[0] == "process" {
                if fields[2] == "(span)" { processSpan = cost } else { process = cost }
                continue
            }
            guard let part = Part(rawValue: String(fields[0])) else {
                throw CallgrindPart.FormatError(description: "instruction profile: unknown part \(fields[0])")
            }
            if fields[1].isEmpty && fields[2] == "(total)" {
                instructions[part] = cost
            } else if fields[1].isEmpty && fields[2] == "(span)" {
                span[part] = cost
            } else {
                functions[part, default: [:]][CallgrindPart.Function(object: String(fields[1]), name: String(fields[2]))] = cost
            }
        }
        guard let process else { throw CallgrindPart.FormatError(description: "instruction profile: no process total") }
        self.init(instructions: instructions, functions: functions, processInstructions: process)
        self.span = span
        self.processSpan = processSpan
    }

    /// Tabs and line breaks cannot occur in symbol names, but a file name is anyone's.
    private static func clean(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
