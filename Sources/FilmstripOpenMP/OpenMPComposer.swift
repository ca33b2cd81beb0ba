import CKernels
import COpenMPKernels
import Filmstrip

/// The C kernel `filmstrip_openmp_compose_cells`: `#pragma omp parallel for` over strip
/// rows, each row split into runs as in the Swift composers, with dimming in C using the
/// same integer formula.
public struct OpenMPComposer: StripComposer {
    public let name = "openmp"
    public let summary = "C kernel, OpenMP parallel for over rows (libomp)"

    /// OpenMP threads per parallel region; 0 lets libomp choose (`OMP_NUM_THREADS` or all cores).
    public let threads: Int
    /// Cells handed to one kernel call (one parallel region).
    static let cellsPerCall = 64

    /// An OpenMP composer with `threads` threads per parallel region (0: libomp chooses).
    public init(threads: Int = 0) {
        self.threads = max(0, threads)
    }

    /// Starts libomp's runtime and thread pool with an empty parallel region of the same team
    /// size. Started by the first `compose` instead, it read its settings and made its threads
    /// inside the compose phase, and that start-up is not the same from run to run (under
    /// callgrind the phase moved by up to 1.5 % between identical runs, in libomp's `strcmp`s
    /// and `malloc`s), which the instruction gate read as the composer changing.
    public func prepare() {
        filmstrip_openmp_start_runtime(Int32(clamping: threads))
    }

    public func compose(_ thumbnails: [Image], layout: StripLayout, into strip: inout Image) async throws {
        let threads = Int32(clamping: threads)
        try CellKernel.compose(thumbnails, layout: layout, into: &strip, cellsPerCall: Self.cellsPerCall) {
            filmstrip_openmp_compose_cells($0, $1, $2, $3, $4, $5, $6, threads)
        }
    }
}
