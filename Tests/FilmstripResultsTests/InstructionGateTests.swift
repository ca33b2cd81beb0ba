import CLITestSupport
import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

/// Instruction counts: the callgrind reader, the phases, the exact gate and its attribution,
/// and one real valgrind run end to end where valgrind is installed.
struct InstructionGateTests {

    @Test func readsAPartWithSelfCostsOnly() throws {
        let part = try CallgrindPart(text: CallgrindSample.part)
        #expect(part.pid == 4242 && part.number == 2)
        #expect(part.trigger == "filmstrip_mark_compose_begins")
        #expect(part.instructions == 1500)
        // The call's inclusive 400 belongs to the callee, not to avcodec_send_packet.
        #expect(part.selfInstructions[.init(object: "libavcodec.so.59.37.100", name: "avcodec_send_packet")] == 800)
        #expect(part.selfInstructions[.init(object: "shim.so", name: "helper")] == 400)
        #expect(part.selfInstructions.values.reduce(0, +) == part.instructions)
        #expect(throws: CallgrindPart.FormatError.self) { try CallgrindPart(text: "not a profile") }
    }

    @Test func namesPartsByTheMarkThatEndedThem() throws {
        let function = CallgrindPart.Function(object: "libavcodec.so", name: "decode")
        let parts = [
            CallgrindPart(pid: 7, number: 1, trigger: InstructionProfile.measuredBegins, instructions: 100, selfInstructions: [:]),
            CallgrindPart(pid: 7, number: 2, trigger: InstructionProfile.composeBegins, instructions: 50, selfInstructions: [function: 50]),
            CallgrindPart(pid: 7, number: 3, trigger: InstructionProfile.measuredEnds, instructions: 5, selfInstructions: [:]),
            CallgrindPart(pid: 7, number: 4, trigger: nil, instructions: 9, selfInstructions: [:]),
        ]
        let profile = InstructionProfile(parts: parts.shuffled())
        #expect(profile.instructions(for: .startup) == 100)
        #expect(profile.instructions(for: .extract) == 50)
        #expect(profile.instructions(for: .compose) == 5)
        #expect(profile.instructions(for: .total) == 55)
        #expect(profile.instructions(for: .process) == 164)
        #expect(profile.functions(for: .total)[function] == 50)
        // The file kept beside the results reads back the same.
        #expect(try InstructionProfile(fileText: profile.fileText) == profile)
        // An executable built before the marks: one part, the process only.
        let old = InstructionProfile(parts: [CallgrindPart(pid: 8, number: 1, trigger: nil, instructions: 99, selfInstructions: [:])])
        #expect(old.instructions(for: .extract) == nil && old.instructions(for: .process) == 99)
    }

    @Test func attributionNamesTheFunctionsThatGrew() {
        let shim = CallgrindPart.Function(object: "shim.so", name: "avcodec_send_packet")
        let decode = CallgrindPart.Function(object: "libavcodec.so", name: "decode")
        let changes = InstructionAttribution.changes(before: [decode: 1000], after: [decode: 1001, shim: 20],
                                                     baselineTotal: 1000, grew: true)
        #expect(changes.map(\.function) == [shim, decode])
        #expect(changes.first?.text == "avcodec_send_packet (shim.so) +2.0 pp")
        // Functions that moved by less than 0.05 pp are left out, and the profile's remainder
        // line (no library) is named without empty brackets.
        let rest = CallgrindPart.Function(object: "", name: "(other functions)")
        let small = InstructionAttribution.changes(before: [decode: 1_000_000, rest: 10], after: [decode: 1_000_000, shim: 20_000, rest: 30],
                                                   baselineTotal: 1_000_000, grew: true)
        #expect(small.map(\.function) == [shim])
        #expect(FunctionChange(function: rest, instructions: 900, percentagePoints: 0.09).text == "(other functions) +0.1 pp")
    }

    /// Counts are decided exactly at the threshold, with no pairs needed.
    @Test func instructionCountsAreDecidedAtOnce() throws {
        func rows(_ candidate: Int) -> [RawResultRow] {
            var before = Fixtures.row(phase: .extract), after = Fixtures.row(phase: .extract)
            before.build = .baseline
            after.build = .candidate
            before.instructions = 10_000_000
            after.instructions = candidate
            return [before, after]
        }
        let gate = RegressionGate(metric: .instructions)
        #expect(gate.threshold == 0.005)
        let grew = gate.comparePaired(rows(10_100_000))
        #expect(grew.outcome == .regressed && grew.comparisons.first?.verdict == .slower)
        let same = gate.comparePaired(rows(10_004_000))
        #expect(same.outcome == .passed && same.comparisons.first?.verdict == .same)
        // Beyond the share but under the floor of instructions: the noise of a small phase.
        #expect(RegressionGate(metric: .instructions).comparePaired(rows(10_000_000 + Int(RegressionGate.instructionFloor) - 1).map {
            var row = $0
            if row.build == .baseline { row.instructions = 1_000_000 } else { row.instructions = 1_000_000 + Int(RegressionGate.instructionFloor) - 1 }
            return row
        }).outcome == .passed)
        #expect(RegressionGate.automaticMetric(for: rows(1)) == .instructions)
        // A time metric on a file of counts says what to do instead of "same".
        guard case .badInput(let reason) = RegressionGate(metric: .cpuSeconds).comparePaired(rows(1).map { var row = $0; row.cpuUserSeconds = nil; row.cpuSysSeconds = nil; row.wallSeconds = nil; return row }).outcome else {
            Issue.record("a time metric on instruction rows must be bad input")
            return
        }
        #expect(reason.contains("--metric instructions"))
    }

    /// The real thing: a two-build instruction run whose candidate is the same executable with a
    /// fixed loop in `avcodec_send_packet` (scripts/slowdown-shim.c through a wrapper script);
    /// the gate must fail it and name that function, and pass the same executable against itself.
    @Test(.enabled(if: CLIProcess.program(named: "valgrind") != nil && CLIProcess.program(named: "cc") != nil,
                   "needs valgrind and a C compiler (scripts/setup.sh installs valgrind)"))
    func realCallgrindRunNamesTheShim() throws {
        let folder = try CLISupport.scratchDirectory()
        let shim = folder.appendingPathComponent("shim.so").path
        let built = try CLIProcess.run(program: CLIProcess.program(named: "cc")!,
                                       ["-O2", "-shared", "-fPIC", "-o", shim, CLISupport.packageRoot.appendingPathComponent("scripts/slowdown-shim.c").path, "-ldl"])
        #expect(built.status == 0, "\(built.standardError)")
        // A wrapper must start a binary valgrind 3.19 can read: stripped of its DWARF 5 debug information.
        let stripped = folder.appendingPathComponent("filmstrip").path
        let strip = try CLIProcess.run(program: CLIProcess.program(named: "strip")!, ["--strip-debug", "-o", stripped, CLIProcess.executable.path])
        #expect(strip.status == 0)
        let wrapper = folder.appendingPathComponent("slower.sh").path
        try "#!/bin/sh\nexport FILMSTRIP_SHIM_LOOP=3000\nLD_PRELOAD=\"${LD_PRELOAD:+$LD_PRELOAD:}\(shim)\" exec \(stripped) \"$@\"\n"
            .write(toFile: wrapper, atomically: true, encoding: .utf8)
        chmod(wrapper, 0o755)
        let matrix = ["bench", "--suite", "quick", "--videos", "h264-180p-3s", "--extractors", "forward", "--composers", "rowcopy",
                      "--counts", "5", "--pipelines-only", "--measure", "instructions", "--fixtures-dir", CLISupport.fixturesDirectory]

        let name = folder.appendingPathComponent("ab").path
        let run = try CLISupport.run(matrix + ["--baseline-binary", CLIProcess.executable.path, "--candidate-binary", wrapper, "--out", name])
        #expect(run.status == 0, "\(run.standardError)")
        let rows = try ResultsFileReader.read(RawResultRow.self, from: name + "-raw.csv")
        #expect(Set(rows.map(\.phase)) == [.startup, .extract, .compose, .total, .process])
        #expect(rows.allSatisfy { $0.status == .ok && ($0.instructions ?? 0) > 0 && $0.wallSeconds == nil && !$0.profile.isEmpty })
        let compare = try CLISupport.run(["compare", name + "-raw.csv"])
        #expect(compare.status == 2, "\(compare.standardOutput)")
        let extractLine = WrappedText.joined(compare.standardOutput).first { $0.hasPrefix("slower: ") && $0.contains(" extract: ") }
        #expect(extractLine?.contains("avcodec_send_packet (shim.so)") == true, "\(compare.standardOutput)")

        let same = folder.appendingPathComponent("aa").path
        let again = try CLISupport.run(matrix + ["--baseline-binary", CLIProcess.executable.path, "--out", same])
        #expect(again.status == 0, "\(again.standardError)")
        let pass = try CLISupport.run(["compare", same + "-raw.csv"])
        #expect(pass.status == 0, "\(pass.standardOutput)")
        // An A/A's process span moves (pool threads, start-up on whichever thread): never a grew or shrank line.
        #expect(!pass.standardOutput.contains("span grew") && !pass.standardOutput.contains("span shrank"), "\(pass.standardOutput)")
    }
}

extension InstructionGateTests {
    /// An instruction run's allocation counts moved A/A under callgrind (threads run one at a
    /// time): shown, not gated; its instructions count malloc's work instead.
    @Test func instructionRunsDoNotGateAllocations() {
        var before = Fixtures.row(phase: .compose), after = Fixtures.row(phase: .compose)
        before.build = .baseline
        after.build = .candidate
        before.instructions = 500_000
        after.instructions = 500_000
        before.heapAllocations = 63
        after.heapAllocations = 74
        #expect(RegressionGate(metric: .instructions).comparePaired([before, after]).outcome == .passed)
        before.instructions = nil
        after.instructions = nil
        #expect(RegressionGate().workChanges(baseline: [before], candidate: [after]).map(\.counter) == [.heapAllocations])
    }
}

extension InstructionGateTests {
    /// The memcpy floor is glibc's copy, whose loop is chosen by the buffers' addresses: its
    /// count moved +27 % between identical runs (docs/gate.md § 1). Shown as a reference, never gated.
    @Test func theMemcpyFloorIsShownNotGated() {
        var before = Fixtures.row(pipeline: "synthetic+memcpy", phase: .compose), after = before
        before.kind = .memcpyFloor
        after.kind = .memcpyFloor
        before.build = .baseline
        after.build = .candidate
        before.instructions = 400_000
        after.instructions = 509_480
        let report = RegressionGate(metric: .instructions).comparePaired([before, after])
        #expect(report.outcome == .passed)
        #expect(report.comparisons.first?.verdict == .slower && report.comparisons.first?.gated == false)
        // Its verdict in parentheses: shown, not gated.
        #expect(report.text.contains("  (slower)") && report.text.contains("(verdict): shown, not gated"))
        // The same change in a strategy's own composition fails the gate.
        before.kind = .syntheticComposition
        after.kind = .syntheticComposition
        #expect(RegressionGate(metric: .instructions).comparePaired([before, after]).outcome == .regressed)
    }
}

/// The instruction gate names functions readably (issue 34): Swift symbols demangled to
/// module, types and name, checked against the toolchain's own demangler.
@Suite struct SwiftSymbolTests {
    @Test func theSymbolsTheGateEmits() {
        #expect(SwiftSymbol.readable("$s9Filmstrip17ThumbnailRendererV6renderyAA5ImageVAA5FrameVAA11FFmpegErrorVYKF")
                == "Filmstrip.ThumbnailRenderer.render(...)")
        #expect(SwiftSymbol.readable("$sSh8_VariantV6insertySb8inserted_x17memberAfterInserttxnFSi_Tg5Tm") == "Swift.Set._Variant.insert(...)")
        #expect(SwiftSymbol.readable("$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF") == "Synchronization._MutexHandle._lockSlow(...)")
        #expect(SwiftSymbol.readable("$s9Filmstrip5FrameV5widthSivg") == "Filmstrip.Frame.width.getter")
        // C names and what the subset does not cover come back as they are.
        #expect(SwiftSymbol.readable("avcodec_send_packet") == "avcodec_send_packet")
        // The Swift runtime's C++ functions, as callgrind demangles them: argument lists cut.
        #expect(SwiftSymbol.readable("swift_conformsToProtocolMaybeInstantiateSuperclasses(swift::TargetMetadata<swift::InProcess> const*, bool)::$_2::operator()((anonymous namespace)::ConformanceSection const&) const::{lambda(swift::TargetProtocolConformanceDescriptor<swift::InProcess> const&)#1}::operator()(swift::TargetProtocolConformanceDescriptor<swift::InProcess> const&) const")
                == "swift_conformsToProtocolMaybeInstantiateSuperclasses(...)::$_2::operator()(...) const::{lambda(...)#1}::operator()(...) const")
        #expect(SwiftSymbol.readable("std::vector<int>::operator<(std::vector<int> const&)") == "std::vector<int>::operator<(std::vector<int> const&)")
        #expect(SwiftSymbol.readable("$s9Filmstrip0A5StripV") == "$s9Filmstrip0A5StripV")
        let change = FunctionChange(function: .init(object: "filmstrip", name: "$s9Filmstrip17ThumbnailRendererV6renderyAA5ImageVAA5FrameVAA11FFmpegErrorVYKF"),
                                    instructions: 1000, percentagePoints: 1.25)
        #expect(change.text == "Filmstrip.ThumbnailRenderer.render(...) (filmstrip) +1.2 pp" || change.text == "Filmstrip.ThumbnailRenderer.render(...) (filmstrip) +1.3 pp")
    }

    /// The functions of the filmstrip binary itself, against `swift demangle`: every symbol the
    /// subset demangles reads as the toolchain's name up to its argument list.
    @Test func agreesWithTheToolchainsDemangler() throws {
        guard let swift = CLIProcess.program(named: "swift"), let nm = CLIProcess.program(named: "nm") else { return }
        let symbols = try CLIProcess.run(program: nm, ["--defined-only", "--format=just-symbols", CLIProcess.executable.path]).standardOutput
            .split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("$s9Filmstrip") && ($0.hasSuffix("F") || $0.hasSuffix("FZ")) }.prefix(400)
        try #require(symbols.count > 50)
        let reference = try CLIProcess.run(program: swift, ["demangle", "--compact"] + symbols).standardOutput.split(separator: "\n").map(String.init)
        try #require(reference.count == symbols.count)
        var agreed = 0
        for (symbol, full) in zip(symbols, reference) {
            let mine = SwiftSymbol.readable(symbol)
            guard mine != symbol, !full.contains(" in "), !full.contains(" of "), !full.contains("thunk"), !full.contains(" for ") else { continue }
            // `static Filmstrip.Foo.bar<A>(…) -> …`: the name before generics and arguments.
            let name = full.prefix { $0 != "(" }.replacingOccurrences(of: #"<.*>$"#, with: "", options: .regularExpression)
            #expect(mine == name + "(...)", "\(symbol): \(full)")
            agreed += 1
        }
        #expect(agreed > 50, "\(agreed) of \(symbols.count)")
    }
}
