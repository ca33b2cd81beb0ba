import Filmstrip
import FilmstripFixtures
import FilmstripResults
import Foundation
import CAllocationCounter
import CInstructionMarks
import FilmstripProcess
import Glibc

/// Runs one ``BenchConfiguration`` once in this process and measures it: the body
/// of the `bench-run` child. Setup (probing the video, planning, making synthetic
/// thumbnails) happens before any clock starts.
package enum ConfigurationRunner {
    /// Why a configuration cannot run.
    package struct SetupError: Error, CustomStringConvertible {
        package var description: String
    }

    package static func run(_ configuration: BenchConfiguration) async throws -> BenchMeasurement {
        if ResourceSnapshot.measuresWaiting { ThreadTimes.startAccounting() }
        return switch configuration {
        case .pipeline(let run): try await runPipeline(run)
        case .calibrationDecode(let run): try await runCalibrationDecode(run)
        case let .composeSynthetic(composer, count, height):
            try await runSyntheticCompose(composer.composer, thumbnailCount: count, thumbHeight: height)
        case let .memcpySynthetic(count, height): try runSyntheticMemcpy(thumbnailCount: count, thumbHeight: height)
        case .calibrationCopy: runCalibrationCopy()
        case .peer, .commandLine: try runPeer(configuration)
        case .interactive(let run): try await runInteractive(run)
        case .sprite(let run): try runSprite(run)
        }
    }

    /// The scripted session (a cost per step) or the soak on a generator of its own.
    private static func runInteractive(_ run: BenchConfiguration.InteractiveRun) async throws -> BenchMeasurement {
        guard let path = run.target.videoPath else { throw SetupError(description: "no video for \(BenchConfiguration.interactive(run).label)") }
        let phases: [BenchMeasurement.PhaseCost] = switch run.script {
        case .session:
            try await InteractiveSessions.run(path: path, strategy: run.strategy, count: run.target.thumbnailCount,
                                              box: .height(run.target.thumbHeight), decoders: run.decoders, cacheBytes: run.cacheBytes)
        case .soak(let requests):
            [try await InteractiveSessions.soak(path: path, count: requests, strategy: run.strategy, decoders: run.decoders,
                                                cacheBytes: run.cacheBytes)]
        }
        return BenchMeasurement(phases: phases, checksum: "", maxFrameError: nil)
    }

    /// The contender's command on the video as a whole process (time, CPU and peak RSS by `wait4`),
    /// then every tile read back for its distance from its cue.
    private static func runSprite(_ run: BenchConfiguration.SpriteRun) throws -> BenchMeasurement {
        guard let path = run.videoPath else { throw SetupError(description: "no video for \(BenchConfiguration.sprite(run).label)") }
        let contender = run.contender
        guard let program = contender.isFFmpeg ? ExternalProcess.find("ffmpeg") : Self.ownExecutable else {
            throw SetupError(description: "ffmpeg is not installed (apt-get install ffmpeg)")
        }
        let probe = try VideoProbe(path: path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-sprite-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let layout = SpriteBench.layout
        let (_, arguments) = contender.command(filmstrip: program, ffmpeg: program, video: path, folder: folder,
                                               intervalSeconds: layout.intervalSeconds, width: layout.width,
                                               columns: layout.columns, rows: layout.rows)
        let process = try ExternalProcess.run(program, arguments, timeLimit: 3600)
        guard process.succeeded else {
            throw SetupError(description: "\(contender.rawValue) failed (status \(process.exitStatus)): \(program) \(arguments.joined(separator: " "))")
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let errors = try SpriteBench.frameErrors(contender, folder: folder, videoName: name, probe: probe,
                                                 intervalSeconds: layout.intervalSeconds, columns: layout.columns, rows: layout.rows)
        var cost = BenchMeasurement.PhaseCost(phase: .sprite, wallSeconds: process.wallSeconds, cpuUserSeconds: process.userSeconds,
                                              cpuSysSeconds: process.systemSeconds, peakRSSBytes: process.peakRSSBytes, framesDecoded: nil)
        cost.spriteTiles = SpriteTileCheck(tiles: errors.tiles, unreadable: errors.unreadable,
                                           worstErrorSeconds: errors.worstSeconds, meanErrorSeconds: errors.meanSeconds)
        return BenchMeasurement(phases: [cost], checksum: "", maxFrameError: nil)
    }

    /// This very `filmstrip` executable.
    static var ownExecutable: String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first
    }

    /// Runs the peer's commands one after another (ffmpegthumbnailer: one per thumbnail) and
    /// reports their summed CPU time and largest peak RSS, read with `wait4` per process.
    private static func runPeer(_ configuration: BenchConfiguration) throws -> BenchMeasurement {
        guard let peer = configuration.peer, let path = configuration.videoPath else {
            throw SetupError(description: "no peer or video for \(configuration.label)")
        }
        guard let program = peer == .filmstrip ? Self.ownExecutable : ExternalProcess.find(peer.program) else {
            throw SetupError(description: "\(peer.program) is not installed (apt-get install \(peer.program))")
        }
        let probe = try VideoProbe(path: path)
        let width = ThumbnailSize.height(configuration.thumbHeight).pixels(forDisplayAspectRatio: probe.displayAspectRatio).width
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filmstrip-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // filmstrip's own run prints its bound (`--stats`, one JSON line) into a file of the folder.
        let statsFile = folder.appendingPathComponent("stats.json").path
        let commands: [[String]] = switch configuration {
        case .commandLine(let run): [run.stripArguments(folder: folder.path) + ["--stats"]]
        default: peer.commands(video: path, durationSeconds: probe.durationSeconds, count: configuration.thumbnailCount,
                               width: width, height: configuration.thumbHeight, folder: folder.path)
        }
        var total = BenchMeasurement.PhaseCost(phase: .peer, wallSeconds: 0, cpuUserSeconds: 0, cpuSysSeconds: 0,
                                               peakRSSBytes: 0, framesDecoded: nil)
        for arguments in commands {
            let run = try ExternalProcess.run(program, arguments, timeLimit: 3600,
                                              standardOutput: peer == .filmstrip ? statsFile : nil)
            guard run.succeeded else {
                throw SetupError(description: "\(peer.program) \(arguments.joined(separator: " ")) failed (status \(run.exitStatus))")
            }
            total.wallSeconds += run.wallSeconds
            total.cpuUserSeconds += run.userSeconds
            total.cpuSysSeconds += run.systemSeconds
            total.peakRSSBytes = max(total.peakRSSBytes, run.peakRSSBytes)
        }
        if peer == .filmstrip, let line = try? String(contentsOfFile: statsFile, encoding: .utf8) {
            total.bound = PhaseBound(statsLine: line)
        }
        return BenchMeasurement(phases: [total], checksum: "", maxFrameError: nil)
    }

    /// Extract then compose through `Pipeline.run`, exactly as `filmstrip strip` runs it, with
    /// resource snapshots (clock, `getrusage`, bytes read, heap allocations) at its marks.
    private static func runPipeline(_ run: BenchConfiguration.PipelineRun) async throws -> BenchMeasurement {
        guard let path = run.target.videoPath else { throw SetupError(description: "no video for \(BenchConfiguration.pipeline(run).label)") }
        // The strip `filmstrip strip` makes, without its limits: the bench measures what a run takes.
        var job = StripJob(video: path)
        job.spacing = .count(run.target.thumbnailCount)
        job.accuracy = run.accuracy
        job.size = .height(run.target.thumbHeight)
        job.options = run.extractionOptions
        job.options.fixedWorkerShares = Callgrind.dealsFixedWorkerShares
        job.pipeline = Pipeline(extractor: run.extractor, destination: run.destination)
        job.memoryLimitBytes = nil
        let prepared = try job.prepare()
        let plan = prepared.plan

        var snapshots: [Pipeline.Mark: ResourceSnapshot] = [:]
        snapshots.reserveCapacity(3)
        let result = try await prepared.run(mark: { mark in
            snapshots[mark] = ResourceSnapshot.now()
            // After the snapshot, so an instruction count's phases end where the clocks' do.
            switch mark {
            case .started: filmstrip_mark_measured_begins()
            case .extracted: filmstrip_mark_compose_begins()
            case .composed: filmstrip_mark_measured_ends()
            }
        })
        guard let start = snapshots[.started], let extracted = snapshots[.extracted], let composed = snapshots[.composed] else {
            throw SetupError(description: "\(run.name) did not report its phases")
        }
        // A fused pipeline's strip is its canvas; the RGBA copy the checksum reads is made after the clocks stop.
        let strip = result.strip
        let counters = result.counters
        var extract = extracted.cost(since: start, phase: .extract, counters: counters)
        let compose = composed.cost(since: extracted, phase: .compose, counters: nil)
        var total = composed.cost(since: start, phase: .total, counters: counters)
        extract.bound = PhaseBound(phaseCPUSeconds: extract.cpuUserSeconds + extract.cpuSysSeconds, counters: counters)
        total.bound = PhaseBound(phaseCPUSeconds: total.cpuUserSeconds + total.cpuSysSeconds, counters: counters)
        // The middle snapshot's own reading of /proc/self/io is in neither phase.
        total.bytesRead = extract.bytesRead.flatMap { first in compose.bytesRead.map { first + $0 } }
        return BenchMeasurement(
            phases: [extract, compose, total],
            checksum: StripChecksum.of(strip),
            maxFrameError: maxFrameError(result.thumbnails, strip: strip, layout: result.layout, plan: plan)
        )
    }

    /// The same work as a pipeline run, reported as one `calibration` phase covering both steps.
    private static func runCalibrationDecode(_ run: BenchConfiguration.PipelineRun) async throws -> BenchMeasurement {
        var measurement = try await runPipeline(run)
        var total = measurement.phases[2]
        total.phase = .calibration
        measurement.phases = [total]
        return measurement
    }

    private static func runSyntheticCompose(_ composer: any StripComposer, thumbnailCount: Int, thumbHeight: Int) async throws
        -> BenchMeasurement {
        let thumbnails = syntheticThumbnails(count: thumbnailCount, height: thumbHeight)
        let layout = try StripLayout(thumbnails: thumbnails)
        var strip = layout.makeStrip()
        // As a strip job does while preparing: the composer's runtime starts outside the measure.
        composer.prepare()
        let start = ResourceSnapshot.now()
        filmstrip_mark_measured_begins()
        try await composer.compose(thumbnails, layout: layout, into: &strip)
        let end = ResourceSnapshot.now()
        filmstrip_mark_measured_ends()
        // Swift may free a value right after its last use: without this, the 500 thumbnails'
        // 16 MB were freed inside the timed region, and glibc handed them back to the kernel
        // there (a 1-2 ms madvise, measured: rowcopy looked 1.4-1.7× slower).
        withExtendedLifetime(thumbnails) {}
        return BenchMeasurement(phases: [end.cost(since: start, phase: .compose, counters: nil)],
                                checksum: StripChecksum.of(strip), maxFrameError: nil)
    }

    /// One `memcpy` of the synthetic strip's bytes into a fresh strip: the floor no composer can beat.
    /// The destination is fresh (its pages untouched) as it is for the composers, so both pay the same page faults.
    private static func runSyntheticMemcpy(thumbnailCount: Int, thumbHeight: Int) throws -> BenchMeasurement {
        let thumbnails = syntheticThumbnails(count: thumbnailCount, height: thumbHeight)
        let layout = try StripLayout(thumbnails: thumbnails)
        var source = layout.makeStrip()
        for (thumbnail, rectangle) in zip(thumbnails, layout.destinations) {
            source.paste(thumbnail, atX: rectangle.x, y: rectangle.y)
        }
        var strip = layout.makeStrip()
        let start = ResourceSnapshot.now()
        filmstrip_mark_measured_begins()
        try memcpyFloor(from: source, into: &strip)
        let end = ResourceSnapshot.now()
        filmstrip_mark_measured_ends()
        return BenchMeasurement(phases: [end.cost(since: start, phase: .compose, counters: nil)],
                                checksum: StripChecksum.of(strip), maxFrameError: nil)
    }

    /// A copy between two buffers whose pages are already mapped, so the time is memory bandwidth, not page faults.
    private static func runCalibrationCopy() -> BenchMeasurement {
        let count = BenchConfiguration.calibrationCopyBytes
        let source = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 64)
        let destination = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 64)
        defer {
            source.deallocate()
            destination.deallocate()
        }
        source.initializeMemory(as: UInt8.self, repeating: 0x5a)
        destination.initializeMemory(as: UInt8.self, repeating: 0)
        let start = ResourceSnapshot.now()
        filmstrip_mark_measured_begins()
        destination.baseAddress!.copyMemory(from: source.baseAddress!, byteCount: count)
        let end = ResourceSnapshot.now()
        filmstrip_mark_measured_ends()
        // Reading one byte back keeps the copy observable, so it cannot be optimised away.
        let checksum = String(destination[count - 1], radix: 16)
        return BenchMeasurement(phases: [end.cost(since: start, phase: .calibration, counters: nil)],
                                checksum: checksum, maxFrameError: nil)
    }

    /// `count` thumbnails of ``BenchConfiguration/syntheticThumbWidth`` x `height`
    /// with a deterministic pattern that differs per thumbnail, so a misplaced one changes the checksum.
    static func syntheticThumbnails(count: Int, height: Int) -> [Image] {
        let width = BenchConfiguration.syntheticThumbWidth
        return (0..<count).map { index in
            var image = Image(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * image.bytesPerRow + x * Image.bytesPerPixel
                    image.pixels[offset] = UInt8(truncatingIfNeeded: index &* 7 &+ x)
                    image.pixels[offset + 1] = UInt8(truncatingIfNeeded: index &* 13 &+ y)
                    image.pixels[offset + 2] = UInt8(truncatingIfNeeded: x &* y &+ index)
                    image.pixels[offset + 3] = 255
                }
            }
            return image
        }
    }

    /// Largest |marker − planned frame| over the thumbnails, reading fused pipelines'
    /// thumbnails back out of the strip; nil as soon as one marker is unreadable.
    static func maxFrameError(_ thumbnails: [Thumbnail], strip: Image, layout: StripLayout, plan: SamplePlan) -> Int? {
        var largest = 0
        for thumbnail in thumbnails {
            let image = thumbnail.image ?? strip.cropped(to: layout.destinations[thumbnail.slot])
            guard let marker = FrameIndexMarker.read(from: image) else { return nil }
            largest = max(largest, abs(marker - plan.targets[thumbnail.slot].frameIndex))
        }
        return largest
    }
}

/// Clock and resource usage of this process at one instant.
struct ResourceSnapshot {
    let instant: ContinuousClock.Instant
    /// User CPU seconds so far, all threads.
    let user: Double
    /// System CPU seconds so far, all threads.
    let system: Double
    /// High-water mark of this process's own resident set in bytes: `VmHWM` of `/proc/self/status`
    /// (`ru_maxrss` where it cannot be read). Not `ru_maxrss` first, because Linux folds the
    /// spawning process's high-water mark into the child's at exec: a `bench-run` child spawned
    /// by a 500 MB parent reports at least 500 MB there, whatever it used itself.
    let peakRSSBytes: Int
    /// Bytes read by `read(2)` and friends so far (`rchar`); nil without `/proc/self/io`.
    let bytesRead: Int?
    /// Bytes of `/proc/self/io` and `/proc/self/status` this snapshot read: counted in the next
    /// snapshot's `rchar`, and varying with the digits of the numbers, so it is taken out of the phase's count.
    let ownReadBytes: Int
    /// Heap allocations so far.
    let heapAllocations: Int
    /// The ticket of this instant's reading of every thread's times (``ThreadTimes/take()``); nil
    /// when waiting is not measured (instruction runs) or could not be read.
    let threadTimes: Int64?
    /// Voluntary and involuntary context switches so far, all threads, ended ones included.
    let voluntarySwitches: Int
    let involuntarySwitches: Int

    /// Whether snapshots read the threads' times: not in an instruction run's child, where the
    /// times mean nothing and the reading would count as the phases' instructions (a fused
    /// compose phase is ~1,400 of them; one reading of ten threads, tens of thousands).
    static let measuresWaiting = !Callgrind.dealsFixedWorkerShares

    static func now() -> ResourceSnapshot {
        // Counters first and the clock last, so their own cost falls outside the next phase's time.
        let allocations = Int(filmstrip_heap_allocations())
        let (bytesRead, ioBytes) = procField("/proc/self/io", "rchar:")
        let (highWaterKiB, statusBytes) = procField("/proc/self/status", "VmHWM:")
        let threadTimes = measuresWaiting ? ThreadTimes.take() : nil
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return ResourceSnapshot(instant: .now, user: seconds(usage.ru_utime), system: seconds(usage.ru_stime),
                                peakRSSBytes: (highWaterKiB ?? usage.ru_maxrss) * 1024, bytesRead: bytesRead,
                                ownReadBytes: ioBytes + statusBytes, heapAllocations: allocations, threadTimes: threadTimes,
                                voluntarySwitches: usage.ru_nvcsw, involuntarySwitches: usage.ru_nivcsw)
    }

    /// The waiting by kind between `start` and this snapshot; read after the measurement (it
    /// allocates), nil when either instant's threads were not read.
    func waiting(since start: ResourceSnapshot) -> WaitingTimes? {
        guard let first = start.threadTimes.flatMap(ThreadTimes.snapshot), let last = threadTimes.flatMap(ThreadTimes.snapshot) else { return nil }
        let records = ThreadTimes.records()
        let totals = ThreadTimes.between(first, last, records: records ?? [])
        return WaitingTimes(onCPUSeconds: totals.onCPUSeconds, runQueueWaitSeconds: totals.runQueueWaitSeconds,
                            // Without the records an ended thread's times are missing.
                            blockedSeconds: records == nil ? nil : totals.blockedSeconds,
                            voluntarySwitches: voluntarySwitches - start.voluntarySwitches,
                            involuntarySwitches: involuntarySwitches - start.involuntarySwitches)
    }

    func cost(since start: ResourceSnapshot, phase: Phase, counters: DecodeCounters?) -> BenchMeasurement.PhaseCost {
        var cost = BenchMeasurement.PhaseCost(phase: phase, wallSeconds: (instant - start.instant).seconds,
                                              cpuUserSeconds: user - start.user, cpuSysSeconds: system - start.system,
                                              peakRSSBytes: peakRSSBytes, framesDecoded: counters?.framesDecoded)
        cost.packetsRead = counters?.packetsRead
        cost.videoBytes = counters?.packetBytes
        cost.seeks = counters?.seeks
        if let bytesRead, let before = start.bytesRead { cost.bytesRead = bytesRead - before - start.ownReadBytes }
        cost.heapAllocations = heapAllocations - start.heapAllocations
        cost.waiting = waiting(since: start)
        return cost
    }

    private static func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }

    /// The number on the line of `path` that starts with `field` (`rchar:` of `/proc/self/io`,
    /// `VmHWM:` of `/proc/self/status`, in KiB, about 300 bytes in), and the bytes read. Read
    /// into a stack buffer, so that taking the snapshot allocates nothing (it would count as work).
    private static func procField(_ path: StaticString, _ field: StaticString) -> (Int?, Int) {
        let descriptor = open(UnsafeRawPointer(path.utf8Start).assumingMemoryBound(to: CChar.self), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return (nil, 0) }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer -> (Int?, Int) in
            let count = read(descriptor, buffer.baseAddress!, buffer.count)
            guard count > 0 else { return (nil, 0) }
            let name = field.utf8Start, nameCount = field.utf8CodeUnitCount
            var lineStart = 0
            while lineStart + nameCount <= count {
                var matches = true
                var offset = 0
                while offset < nameCount {
                    if buffer[lineStart + offset] != name[offset] { matches = false; break }
                    offset += 1
                }
                var index = lineStart + (matches ? nameCount : 0)
                var value = 0, digits = 0
                while index < count, buffer[index] != UInt8(ascii: "\n") {
                    let byte = buffer[index]
                    if matches, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                        value = value * 10 + Int(byte - UInt8(ascii: "0"))
                        digits += 1
                    }
                    index += 1
                }
                if matches { return (digits > 0 ? value : nil, count) }
                lineStart = index + 1
            }
            return (nil, count)
        }
    }
}
