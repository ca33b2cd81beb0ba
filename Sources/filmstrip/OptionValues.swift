import ArgumentParser
import Filmstrip

/// `strip`'s and `sprite`'s strategy and image options, parsed from their text once, when the command line is
/// read, into the library's own types; a bad value is a usage error (exit 64) naming the option.
enum OptionValues {
    static func accuracy(_ text: String) throws -> Accuracy {
        guard let value = Accuracy(parsing: text) else {
            throw ValidationError("'\(text)' is not exact, keyframe or tolerance:SEC (decimal seconds, at most \(TimeParsing.maximumSeconds)).")
        }
        return value
    }

    static func extractor(_ text: String) throws -> ExtractorChoice {
        guard let value = Extractors.named(text) else {
            throw ValidationError("unknown extractor '\(text)'; one of \(Extractors.all.map(\.name).joined(separator: ", ")).")
        }
        return ExtractorChoice(extractor: value)
    }

    static func destination(_ text: String) throws -> StripDestination {
        guard let value = StripDestination.named(text) else {
            throw ValidationError("unknown composer '\(text)'; one of \(StripDestination.all.map(\.name).joined(separator: ", ")).")
        }
        return value
    }

    static func filter(_ text: String) throws -> ScalingFilter {
        guard let value = ScalingFilter(rawValue: text) else {
            throw ValidationError("unknown filter '\(text)'; one of \(ScalingFilter.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return value
    }

    /// `RRGGBB` (opaque) or `RRGGBBAA` hex.
    static func color(_ text: String) throws -> RGBAColor {
        guard text.count == 6 || text.count == 8, let value = UInt32(text, radix: 16) else {
            throw ValidationError("'\(text)' is not RRGGBB or RRGGBBAA.")
        }
        let word = text.count == 6 ? value << 8 | 0xFF : value
        return RGBAColor(red: UInt8(word >> 24), green: UInt8(word >> 16 & 0xFF), blue: UInt8(word >> 8 & 0xFF), alpha: UInt8(word & 0xFF))
    }
}

/// An extractor from the registry as an option value; its name is what help and errors show.
struct ExtractorChoice: CustomStringConvertible {
    let extractor: any ThumbnailExtractor
    var description: String { extractor.name }
}
