import Foundation

/// The span of a run's phases: the instructions of the busiest thread, beside the phase's
/// total (its work). Work over span is the parallelism the phase had; a change that puts the
/// work on fewer threads (workers forced to one, a serial section, a lost task group) leaves
/// the total alone and makes the span grow, exactly, as counts do under callgrind.
///
/// Measured in a second callgrind run of the child with `--separate-threads=yes`
/// (``Callgrind/commandLine(program:arguments:folder:separateThreads:)``). A dump then writes the
/// dumping thread's counts only, so a phase mark (``InstructionProfile/marks``) splits the
/// marking thread's work by phase, and `--dump-before=__call_tls_dtors`, which glibc runs in
/// every thread that ends (and in `exit`), writes each other thread's whole life when it ends.
/// Dumps are numbered across threads, so each lands in the phase whose mark follows it. A
/// decoding worker ends inside `extract` (`JoinableThread`, joined by the extractor), its codec
/// threads inside the worker: `extract`'s span is exact. Threads of pools that outlive a phase
/// (Swift's cooperative pool, OpenMP's) are written only when the process ends; they count in
/// the `process` span but no phase's, which is why `compose` (parallel composers run on those
/// pools) has no span. The marks themselves run on one of Swift's pool threads (the child's async
/// code), not the main thread, whose start-up work is written only at exit (`process`). The totals stay those of the ordinary run, where a dump writes every
/// thread's counts.
package enum InstructionSpan {
    /// glibc's function every ending thread calls (`start_thread`, and `exit` for the main thread).
    package static let threadEnds = "__call_tls_dtors"

    /// The phases whose span is exact (see above), and the whole process.
    package static let spannedParts: [InstructionProfile.Part] = [.extract]

    /// Busiest thread's instructions per part of the marked process, and over its whole life.
    package static func spans(of parts: [CallgrindPart]) -> (parts: [InstructionProfile.Part: Int], process: Int?) {
        let marks = Set(InstructionProfile.marks)
        guard let pid = parts.first(where: { $0.trigger.map(marks.contains) ?? false })?.pid else { return ([:], nil) }
        let ordered = parts.filter { $0.pid == pid }.sorted { ($0.number, $0.thread) < ($1.number, $1.thread) }
        let sawCompose = ordered.contains { $0.trigger == InstructionProfile.composeBegins }
        // Each dump belongs to the phase whose mark comes next (or is its own trigger).
        var phaseOf: [Int: InstructionProfile.Part] = [:]
        var pending: [Int] = []
        for (index, part) in ordered.enumerated() {
            pending.append(index)
            let phase: InstructionProfile.Part? = switch part.trigger {
            case InstructionProfile.measuredBegins: .startup
            case InstructionProfile.composeBegins: .extract
            case InstructionProfile.measuredEnds: sawCompose ? .compose : .measured
            default: nil
            }
            guard let phase else { continue }
            for waiting in pending { phaseOf[waiting] = phase }
            pending.removeAll()
        }
        // Valgrind gives an ended thread's number to the next thread it starts, so parts are not
        // summed by number within a phase: there each part is one thread's (a worker dumps once, when
        // it ends; the marking thread once, at the mark that ends the phase). A thread's life, for
        // the process's span, is its number's parts up to the one written as it ended.
        var busiest: [InstructionProfile.Part: Int] = [:], running: [Int: Int] = [:], lives: [Int] = []
        for (index, part) in ordered.enumerated() {
            let phase = phaseOf[index] ?? .teardown
            busiest[phase] = max(busiest[phase] ?? 0, part.instructions)
            running[part.thread, default: 0] += part.instructions
            if part.trigger == threadEnds || part.trigger == nil {
                lives.append(running.removeValue(forKey: part.thread) ?? 0)
            }
        }
        lives += running.values
        var result: [InstructionProfile.Part: Int] = [:]
        for part in spannedParts { if let count = busiest[part] { result[part] = count } }
        return (result, lives.max())
    }
}
