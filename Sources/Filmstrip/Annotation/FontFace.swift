import CFreeType
import Foundation

/// A TrueType font opened by FreeType at one pixel size. The library instance and the face are
/// owned here and freed in `deinit`; nothing else in the package sees a FreeType pointer (the
/// one file that imports `CFreeType`). FreeType's objects are not thread-safe, so a face is
/// noncopyable and each drawing of a sheet opens its own.
struct FontFace: ~Copyable {
    private let library: FT_Library
    private let face: FT_Face
    /// The em square's height in pixels, as asked for.
    let pixelSize: Int
    /// Rows from the top of a line to its baseline, and from the baseline to the line's bottom.
    let ascender: Int, descender: Int
    /// Rendered glyphs by glyph index: a time such as 1:11 draws its glyphs once.
    private var cache: [FT_UInt: Glyph] = [:]

    /// A glyph's coverage (0 transparent to 255 covered) as FreeType rendered it, antialiased.
    struct Glyph {
        var width = 0, rows = 0
        /// Pixels right of the pen to the bitmap's left edge, and above the baseline to its top.
        var left = 0, top = 0
        /// Pixels the pen moves on.
        var advance = 0
        var coverage: [UInt8] = []
    }

    /// Opens the font at `path` with glyphs `pixelSize` pixels tall (the em square).
    init(path: String, pixelSize: Int) throws(FontError) {
        var library: FT_Library?
        let started = FT_Init_FreeType(&library)
        guard started == 0, let library else { throw FontError(path: path, call: "FT_Init_FreeType", code: started) }
        var face: FT_Face?
        let opened = FT_New_Face(library, path, 0, &face)
        guard opened == 0, let face else {
            FT_Done_FreeType(library)
            throw FontError(path: path, call: "FT_New_Face", code: opened)
        }
        let sized = FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, pixelSize)))
        guard sized == 0 else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw FontError(path: path, call: "FT_Set_Pixel_Sizes", code: sized)
        }
        self.library = library
        self.face = face
        self.pixelSize = max(1, pixelSize)
        // 26.6 fixed point, rounded outwards so no glyph pokes out of its line.
        let metrics = face.pointee.size.pointee.metrics
        ascender = Int((metrics.ascender + 63) >> 6)
        descender = Int((-metrics.descender + 63) >> 6)
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Rows of one line of text.
    var lineHeight: Int { ascender + descender }

    /// The glyph FreeType maps `scalar` to (the font's missing-glyph box for one it lacks), rendered.
    mutating func glyph(_ scalar: Unicode.Scalar) -> (index: FT_UInt, glyph: Glyph) {
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        if let cached = cache[index] { return (index, cached) }
        var glyph = Glyph()
        if FT_Load_Glyph(face, index, filmstrip_ft_load_render()) == 0, let slot = face.pointee.glyph {
            let bitmap = slot.pointee.bitmap
            glyph.width = Int(bitmap.width)
            glyph.rows = Int(bitmap.rows)
            glyph.left = Int(slot.pointee.bitmap_left)
            glyph.top = Int(slot.pointee.bitmap_top)
            glyph.advance = Int((slot.pointee.advance.x + 32) >> 6)
            glyph.coverage = [UInt8](repeating: 0, count: glyph.width * glyph.rows)
            if let buffer = bitmap.buffer {
                let pitch = Int(bitmap.pitch)
                for row in 0..<glyph.rows {
                    // A negative pitch means the rows are stored bottom up.
                    let source = buffer + (pitch >= 0 ? row * pitch : (glyph.rows - 1 - row) * -pitch)
                    for column in 0..<glyph.width { glyph.coverage[row * glyph.width + column] = source[column] }
                }
            }
        }
        cache[index] = glyph
        return (index, glyph)
    }

    /// Pixels between the pens of two neighbouring glyphs beyond their advance (negative: closer).
    func kerning(_ left: FT_UInt, _ right: FT_UInt) -> Int {
        guard filmstrip_ft_has_kerning(face) != 0 else { return 0 }
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0 else { return 0 }
        return Int((delta.x + 32) >> 6)
    }

    /// `text` set on one line: its coverage, `lineHeight` rows tall with the baseline `ascender`
    /// rows down, as wide as its pens' travel (and any overhang of the last glyph).
    mutating func render(_ text: String) -> TextCoverage {
        var placed: [(x: Int, glyph: Glyph)] = []
        var pen = 0, previous: FT_UInt?, right = 0
        for scalar in text.unicodeScalars {
            let (index, glyph) = glyph(scalar)
            if let previous { pen += kerning(previous, index) }
            placed.append((pen, glyph))
            right = max(right, pen + glyph.left + glyph.width, pen + glyph.advance)
            pen += glyph.advance
            previous = index
        }
        var coverage = TextCoverage(width: max(0, right), height: lineHeight, baseline: ascender)
        for (x, glyph) in placed {
            for row in 0..<glyph.rows {
                let y = ascender - glyph.top + row
                guard y >= 0 && y < coverage.height else { continue }
                for column in 0..<glyph.width {
                    let targetX = x + glyph.left + column
                    guard targetX >= 0 && targetX < coverage.width else { continue }
                    let offset = y * coverage.width + targetX
                    coverage.values[offset] = max(coverage.values[offset], glyph.coverage[row * glyph.width + column])
                }
            }
        }
        return coverage
    }

    /// Width in pixels of `text` set on one line.
    mutating func width(of text: String) -> Int { render(text).width }
}

/// A font that could not be opened: the file, the FreeType call and its error code.
public struct FontError: Error, CustomStringConvertible, Sendable {
    /// The font file that could not be opened.
    public var path: String
    var call: String
    var code: Int32

    init(path: String, call: String, code: FT_Error) {
        self.path = path
        self.call = call
        self.code = Int32(code)
    }

    /// One line naming the font file, the reason and how to get the font.
    public var description: String {
        let reason = code == 1 ? "no such file (Debian: apt-get install fonts-dejavu-core, or set FILMSTRIP_FONT to a .ttf)" : "\(call) failed with FreeType error \(code)"
        return "\(path): the font for the sheet's text cannot be opened: \(reason)"
    }
}
