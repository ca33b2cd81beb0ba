import Foundation

/// One part of a callgrind profile: the instructions executed between two dumps of one
/// process, in total and per function (self cost, calls excluded).
///
/// callgrind writes a part per dump (`--dump-before=FUNCTION` and the end of the program),
/// zeroing its counters after each, so the parts of a process add up to its whole run. The
/// reader expects the uncompressed form (`--compress-strings=no --compress-pos=no`), which
/// ``Callgrind`` asks for: every `ob=` and `fn=` line then carries its full name.
package struct CallgrindPart: Sendable, Hashable {
    package struct Function: Sendable, Hashable, Comparable {
        /// File name of the object (executable or shared library), without its folder.
        package var object: String
        /// Symbol name as callgrind gives it (C++ demangled; Swift names stay mangled).
        package var name: String

        package init(object: String, name: String) {
            self.object = object
            self.name = name
        }

        package static func < (lhs: Function, rhs: Function) -> Bool {
            (lhs.object, lhs.name) < (rhs.object, rhs.name)
        }
    }

    /// The process the part belongs to.
    package var pid: Int
    /// 1-based number of the dump within its process (counted across its threads).
    package var number: Int
    /// callgrind's 1-based number of the thread the part counts (`--separate-threads=yes`); 1
    /// when threads are not separated (every thread's counts together).
    package var thread: Int = 1
    /// What ended the part: a function name of `--dump-before`, or nil for the end of the program.
    package var trigger: String?
    /// Instructions executed in the part (the `summary:` / `totals:` line).
    package var instructions: Int
    /// Instructions executed in each function's own code during the part.
    package var selfInstructions: [Function: Int]

    package struct FormatError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Parses the text of one callgrind output file (format version 1, event `Ir`).
    package init(text: String, file: String = "callgrind output") throws(FormatError) {
        var pid: Int?, number = 1, thread = 1, trigger: String?, total: Int?
        var costs: [Function: Int] = [:]
        var object = "???", function = Function(object: "???", name: "???")
        var nextCostIsCall = false
        var sawEvents = false
        // Cost lines start with one field per position kind (`positions: line` by default).
        var positionFields = 1
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                // A cost line: position then the Ir count. After `calls=` it is the inclusive
                // cost of that call, which belongs to the callee, not to this function.
                let fields = line.split(separator: " ")
                if nextCostIsCall {
                    nextCostIsCall = false
                    continue
                }
                guard fields.count > positionFields, let cost = Int(fields[positionFields]) else { continue }
                costs[function, default: 0] += cost
                continue
            }
            if line.hasPrefix("fn=") {
                function = Function(object: object, name: String(line.dropFirst(3)))
            } else if line.hasPrefix("ob=") {
                object = Self.basename(line.dropFirst(3))
                function.object = object
            } else if line.hasPrefix("calls=") {
                nextCostIsCall = true
            } else if line.hasPrefix("pid:") {
                pid = Int(line.dropFirst(4).trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("thread:") {
                thread = Int(line.dropFirst(7).trimmingCharacters(in: .whitespaces)) ?? thread
            } else if line.hasPrefix("part:") {
                number = Int(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) ?? number
            } else if line.hasPrefix("desc: Trigger:") {
                let text = line.dropFirst("desc: Trigger:".count).trimmingCharacters(in: .whitespaces)
                trigger = text.hasPrefix("--dump-before=") ? String(text.dropFirst("--dump-before=".count)) : nil
            } else if line.hasPrefix("positions:") {
                positionFields = max(1, line.dropFirst(10).split(separator: " ").count)
            } else if line.hasPrefix("events:") {
                let events = line.dropFirst(7).split(separator: " ")
                guard events.first == "Ir" else { throw FormatError(description: "\(file): first event is \(events.first ?? "none"), not Ir") }
                sawEvents = true
            } else if line.hasPrefix("summary:") || line.hasPrefix("totals:") {
                total = Int(line.split(separator: " ").dropFirst().first ?? "") ?? total
            }
        }
        guard sawEvents, let pid, let total else { throw FormatError(description: "\(file): not a callgrind profile (no events, pid or totals line)") }
        self.pid = pid
        self.number = number
        self.thread = thread
        self.trigger = trigger
        self.instructions = total
        self.selfInstructions = costs.filter { $0.value != 0 }
    }

    package init(pid: Int, number: Int, thread: Int = 1, trigger: String?, instructions: Int, selfInstructions: [Function: Int]) {
        self.pid = pid
        self.number = number
        self.thread = thread
        self.trigger = trigger
        self.instructions = instructions
        self.selfInstructions = selfInstructions
    }

    /// `/usr/lib/x86_64-linux-gnu/libavcodec.so.59.37.100` → `libavcodec.so.59.37.100`.
    private static func basename(_ path: Substring) -> String {
        path.split(separator: "/").last.map(String.init) ?? String(path)
    }
}
