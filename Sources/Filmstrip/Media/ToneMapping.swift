import Foundation

/// The two HDR transfer functions, and how filmstrip turns HDR pictures into SDR BT.709 ones.
///
/// The operator, in linear light: decode the transfer (PQ: SMPTE ST 2084's EOTF, absolute
/// cd/m²; HLG: ARIB STD-B67's inverse OETF, scene light), divide by HDR reference white
/// (ITU-R BT.2408: 203 cd/m² in PQ, 75 % signal in HLG) so that reference white becomes SDR
/// white, convert BT.2020 primaries to BT.709 (BT.2087's matrix), then compress highlights:
/// the largest of R, G, B above a knee of 0.9 follows an extended Reinhard curve that reaches
/// 1 only at infinity, and the pixel is scaled by the same factor (hue kept). Below the knee
/// nothing changes, so SDR-range content comes out as it went in. Last, BT.1886's display
/// gamma (2.4) encodes SDR. `sdrToHDR` is the exact inverse below the knee, which the HDR
/// reference videos are made with.
public enum HDRTransfer: String, Sendable, Codable {
    /// SMPTE ST 2084 perceptual quantizer (`pq`, absolute luminance) or ARIB STD-B67 hybrid log-gamma (`hlg`,
    /// relative).
    case pq, hlg

    /// Linear light relative to reference white (1 = SDR white) from a non-linear HDR value in [0, 1].
    func relativeLight(_ value: Double) -> Double {
        switch self {
        case .pq: ToneMapping.pqNits(value) / ToneMapping.referenceWhiteNits
        case .hlg: ToneMapping.hlgSceneLight(value) / ToneMapping.hlgReferenceWhite
        }
    }

    /// The non-linear HDR value of linear light `relative` to reference white.
    func signal(_ relative: Double) -> Double {
        switch self {
        case .pq: ToneMapping.pqSignal(nits: relative * ToneMapping.referenceWhiteNits)
        case .hlg: ToneMapping.hlgSignal(sceneLight: relative * ToneMapping.hlgReferenceWhite)
        }
    }
}

package enum ToneMapping {
    /// HDR reference white (ITU-R BT.2408), in cd/m².
    static let referenceWhiteNits = 203.0
    /// Scene light at HLG's reference white signal of 0.75.
    static let hlgReferenceWhite = hlgSceneLight(0.75)
    /// Where highlight compression starts, relative to SDR white.
    static let knee = 0.9

    private static let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32

    static func pqNits(_ signal: Double) -> Double {
        let power = pow(max(signal, 0), 1 / m2)
        return 10_000 * pow(max(power - c1, 0) / (c2 - c3 * power), 1 / m1)
    }

    static func pqSignal(nits: Double) -> Double {
        let y = pow(max(nits, 0) / 10_000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    private static let hlgA = 0.17883277, hlgB = 0.28466892, hlgC = 0.55991073

    static func hlgSceneLight(_ signal: Double) -> Double {
        signal <= 0.5 ? signal * signal / 3 : (exp((signal - hlgC) / hlgA) + hlgB) / 12
    }

    static func hlgSignal(sceneLight: Double) -> Double {
        let light = max(sceneLight, 0)
        return light <= 1.0 / 12 ? (3 * light).squareRoot() : hlgA * log(12 * light - hlgB) + hlgC
    }

    /// Linear BT.2020 primaries from linear BT.709 (ITU-R BT.2087), and back.
    static let bt709ToBT2020: [[Double]] = [[0.6274, 0.3293, 0.0433], [0.0691, 0.9195, 0.0114], [0.0164, 0.0880, 0.8956]]
    static let bt2020ToBT709: [[Double]] = [[1.6605, -0.5876, -0.0728], [-0.1246, 1.1329, -0.0083], [-0.0182, -0.1006, 1.1187]]

    static func multiply(_ matrix: [[Double]], _ rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        (matrix[0][0] * rgb.0 + matrix[0][1] * rgb.1 + matrix[0][2] * rgb.2,
         matrix[1][0] * rgb.0 + matrix[1][1] * rgb.1 + matrix[1][2] * rgb.2,
         matrix[2][0] * rgb.0 + matrix[2][1] * rgb.1 + matrix[2][2] * rgb.2)
    }

    /// Extended Reinhard above the knee: continuous, rising, below 1 everywhere.
    static func compress(_ value: Double) -> Double {
        value <= knee ? value : knee + (1 - knee) * (value - knee) / ((value - knee) + (1 - knee))
    }

    /// Non-linear BT.2020 HDR R'G'B' in [0, 1] to 8-bit SDR BT.709 R'G'B'.
    static func hdrToSDR(_ rgb: (Double, Double, Double), transfer: HDRTransfer) -> (UInt8, UInt8, UInt8) {
        let linear2020 = (transfer.relativeLight(rgb.0), transfer.relativeLight(rgb.1), transfer.relativeLight(rgb.2))
        var linear = multiply(bt2020ToBT709, linear2020)
        linear = (max(linear.0, 0), max(linear.1, 0), max(linear.2, 0))
        let peak = max(linear.0, linear.1, linear.2)
        if peak > knee {
            let scale = compress(peak) / peak
            linear = (linear.0 * scale, linear.1 * scale, linear.2 * scale)
        }
        func encode(_ value: Double) -> UInt8 { UInt8((pow(min(max(value, 0), 1), 1 / 2.4) * 255).rounded()) }
        return (encode(linear.0), encode(linear.1), encode(linear.2))
    }

    /// Non-linear SDR BT.709 R'G'B' in [0, 1] to non-linear BT.2020 HDR R'G'B' (reference videos).
    package static func sdrToHDR(_ rgb: (Double, Double, Double), transfer: HDRTransfer) -> (Double, Double, Double) {
        func decode(_ value: Double) -> Double { pow(min(max(value, 0), 1), 2.4) }
        let linear2020 = multiply(bt709ToBT2020, (decode(rgb.0), decode(rgb.1), decode(rgb.2)))
        return (transfer.signal(linear2020.0), transfer.signal(linear2020.1), transfer.signal(linear2020.2))
    }
}
