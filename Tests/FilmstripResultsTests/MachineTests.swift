import Foundation
import Testing
@testable import FilmstripReport
@testable import FilmstripResults
import ResultsTestSupport

struct MachineTests {
    @Test(arguments: [(String, Int, String)]([
        ("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", 2, "xeon-8375c-2c"),
        ("AMD EPYC 7763 64-Core Processor", 64, "epyc-7763-64c"),
        ("Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", 12, "i7-8700-12c"),
        ("AMD EPYC", 2, "epyc-2c"),
        ("", 4, "cpu-4c"),
    ]))
    func humanName(model: String, cores: Int, expected: String) {
        #expect(MachineFingerprint.humanName(cpuModel: model, logicalCores: cores) == expected)
    }

    @Test func idIsStableAndSensitive() {
        let a = Fixtures.machine()
        #expect(a.id == Fixtures.machine().id)
        #expect(a.id.count == 12)
        #expect(a.id != Fixtures.machine(memoryBytes: 16 << 30).id)
    }

    @Test func parsesProcAndSysFromAFakeRoot() throws {
        let root = URL(fileURLWithPath: Fixtures.temporaryPath("root"))
        let write = { (path: String, text: String) in
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n\nprocessor\t: 1\n")
        try write("proc/meminfo", "MemTotal:       16318252 kB\nMemFree:         1 kB\n")
        try write("proc/sys/kernel/osrelease", "6.1.0-18-arm64\n")
        try write("sys/devices/system/cpu/cpu0/cache/index0/level", "1\n")
        try write("sys/devices/system/cpu/cpu0/cache/index0/type", "Data\n")
        try write("sys/devices/system/cpu/cpu0/cache/index0/size", "64K\n")
        try write("sys/devices/system/cpu/cpu0/cache/index2/level", "3\n")
        try write("sys/devices/system/cpu/cpu0/cache/index2/type", "Unified\n")
        try write("sys/devices/system/cpu/cpu0/cache/index2/size", "32M\n")

        let machine = MachineProbe(root: root.path + "/").fingerprint(ffmpegVersions: ["libavutil": "57.28.100"])
        #expect(machine.cpuModel == "ARM Neoverse-N1")
        #expect(machine.simdFeatures == ["asimd"])
        #expect(machine.memoryBytes == 16_318_252 * 1024)
        #expect(machine.kernel == "6.1.0-18-arm64")
        #expect(machine.l1dCacheBytes == 64 * 1024)
        #expect(machine.l2CacheBytes == nil)
        #expect(machine.l3CacheBytes == 32 << 20)
        #expect(machine.frequencyGovernor == "unavailable")
        #expect(machine.ffmpegVersions == ["libavutil": "57.28.100"])
    }

    @Test func currentMachineIsDescribed() {
        let machine = MachineFingerprint.current()
        #expect(machine.logicalCores >= 1)
        #expect(machine.memoryBytes > 0)
        #expect(machine.swiftVersion != "<6.0")
    }

    @Test func textAndJSON() throws {
        let machine = Fixtures.machine()
        let lines = machine.text.split(separator: "\n")
        #expect(lines.contains("cpu model:     Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"))
        #expect(lines.contains("l2 cache:      unknown"))
        // Aligned: every value starts in the same column.
        let valueColumns = Set(lines.map { line in
            let colon = line.firstIndex(of: ":")!
            return line.distance(from: line.startIndex, to: colon) + 1 + line[line.index(after: colon)...].prefix { $0 == " " }.count
        })
        #expect(valueColumns.count == 1)
        let decoded = try JSONDecoder().decode(MachineFingerprint.self, from: machine.json())
        #expect(decoded == machine)
    }
}
