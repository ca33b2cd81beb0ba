import Foundation

/// The index files players and servers read, made from a track's timing and grid.
public enum SpriteIndex {
    /// A WebVTT thumbnail track: one cue per thumbnail, `URL#xywh=x,y,w,h` as video.js,
    /// Plyr, JW Player and Vidstack read it; `sheetURL(k)` is relative to the .vtt.
    /// `note`, when given, goes in a NOTE block before the cues (players skip it).
    public static func webVTT(timing: SpriteTiming, grid: SpriteGrid, note: String? = nil, sheetURL: (Int) -> String) -> String {
        var text = "WEBVTT\n"
        if let note { text += "\nNOTE \(note)\n" }
        for index in 0..<timing.count {
            let rect = grid.rectangle(ofThumbnail: index)
            text += "\n\(SpriteTiming.clock(timing.start(ofCue: index))) --> \(SpriteTiming.clock(timing.end(ofCue: index)))\n"
            text += "\(sheetURL(grid.sheet(ofThumbnail: index)))#xywh=\(rect.x),\(rect.y),\(rect.width),\(rect.height)\n"
        }
        return text
    }

    /// The HLS image playlist Jellyfin serves for trickplay (`#EXT-X-IMAGES-ONLY`, one
    /// `#EXTINF` and `#EXT-X-TILES` per sheet), with the header lines Jellyfin writes
    /// (its TARGETDURATION is the sheet count, and we keep that for clients that compare).
    public static func hlsPlaylist(timing: SpriteTiming, grid: SpriteGrid, sheetURL: (Int) -> String) -> String {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:\(grid.sheetCount)", "#EXT-X-VERSION:7",
                     "#EXT-X-MEDIA-SEQUENCE:1", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-IMAGES-ONLY"]
        let tileSeconds = decimal(milliseconds: timing.intervalMilliseconds)
        for sheet in 0..<grid.sheetCount {
            let thumbnails = grid.thumbnails(onSheet: sheet).count
            // A sheet's share of a duration near 2⁶³ ms (a --count over a lying header) overflows; its cues' span does not.
            let (sheetMilliseconds, overflow) = timing.intervalMilliseconds.multipliedReportingOverflow(by: Int64(thumbnails))
            let span = overflow ? timing.end(ofCue: grid.thumbnails(onSheet: sheet).upperBound - 1) - timing.start(ofCue: grid.thumbnails(onSheet: sheet).lowerBound) : sheetMilliseconds
            lines.append("#EXTINF:\(decimal(milliseconds: span)),")
            lines.append("#EXT-X-TILES:RESOLUTION=\(grid.tile.width)x\(grid.tile.height),LAYOUT=\(grid.columns)x\(grid.rows),DURATION=\(tileSeconds)")
            lines.append(sheetURL(sheet))
        }
        lines.append("#EXT-X-ENDLIST")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds with at most three decimals and no trailing zeros (`10`, `2.5`, `0.667`).
    static func decimal(milliseconds: Int64) -> String {
        let whole = milliseconds / 1000, fraction = milliseconds % 1000
        guard fraction != 0 else { return "\(whole)" }
        var digits = String(fraction).leftPadded(to: 3)
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }

    /// Roku's BIF archive (read by Roku, Plex and Emby): the 8-byte magic, version 0, the
    /// image count, the timestamp multiplier in milliseconds, zeros up to byte 64, then
    /// (timestamp, offset) pairs as little-endian uint32, closed by 0xFFFFFFFF and the end
    /// offset, then the JPEGs back to back. Timestamp × multiplier = the image's time in ms;
    /// the multiplier is 1000 for whole-second intervals (the usual form), else the largest
    /// unit that divides both the interval and a second. Throws where a timestamp or an
    /// offset needs more than 32 bits (`checkBIFTimestamps` tells before anything is decoded).
    public static func bif(timing: SpriteTiming, images: [[UInt8]]) throws(FieldOverflow) -> [UInt8] {
        precondition(images.count == timing.count, "one image per cue")
        try checkBIFTimestamps(timing)
        let multiplier = bifMultiplier(timing)
        var bytes: [UInt8] = [0x89, 0x42, 0x49, 0x46, 0x0D, 0x0A, 0x1A, 0x0A]
        func append(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        append(0)
        append(try .checked(images.count, field: "the BIF image count"))
        append(try .checked(multiplier, field: "the BIF timestamp multiplier"))
        bytes.append(contentsOf: repeatElement(0, count: 64 - bytes.count))
        var offset = 64 + 8 * (images.count + 1)
        let tooLarge = "the archive would be larger than 4 GiB; ask for fewer or smaller thumbnails"
        for (index, image) in images.enumerated() {
            append(try .checked(timing.start(ofCue: index) / multiplier, field: "the BIF timestamp of cue \(index)"))
            append(try .checked(offset, field: "the BIF offset of image \(index)", hint: tooLarge))
            offset += image.count
        }
        append(0xFFFF_FFFF)
        append(try .checked(offset, field: "the BIF end offset", hint: tooLarge))
        for image in images { bytes.append(contentsOf: image) }
        return bytes
    }

    /// Throws where the last cue's timestamp does not fit BIF's 32 bits (with a 1 ms
    /// multiplier that is 49.7 days), so a video fails before it is decoded.
    public static func checkBIFTimestamps(_ timing: SpriteTiming) throws(FieldOverflow) {
        let multiplier = bifMultiplier(timing), last = timing.count - 1
        _ = try UInt32.checked(timing.start(ofCue: last) / multiplier, field: "the BIF timestamp of cue \(last) (\(multiplier) ms units)",
                               hint: multiplier == 1000 ? "BIF cannot index a video this long" : "a whole-second interval counts BIF timestamps in seconds")
    }

    static func bifMultiplier(_ timing: SpriteTiming) -> Int64 { greatestCommonDivisor(timing.intervalMilliseconds, 1000) }

    static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : greatestCommonDivisor(b, a % b) }

    /// One self-contained page (sheets inlined as data URLs, the script inline, nothing
    /// fetched) that shows the thumbnail under the pointer as it moves along a seek bar,
    /// and every sheet below it.
    public static func html(title: String, note: String, timing: SpriteTiming, grid: SpriteGrid,
                            sheets: [[UInt8]], mimeType: String) -> String {
        let cues = (0..<timing.count).map { index in
            let rect = grid.rectangle(ofThumbnail: index)
            return "[\(timing.start(ofCue: index)),\(timing.end(ofCue: index)),\(grid.sheet(ofThumbnail: index)),\(rect.x),\(rect.y)]"
        }.joined(separator: ",")
        let images = sheets.enumerated().map { index, bytes in
            "<img class=\"sheet\" alt=\"sheet \(index)\" src=\"data:\(mimeType);base64,\(Data(bytes).base64EncodedString())\">"
        }.joined(separator: "\n")
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escaped(title))</title>
        <style>
        body { font-family: sans-serif; background: #222; color: #eee; margin: 1em; }
        #preview { width: \(grid.tile.width)px; height: \(grid.tile.height)px; background-repeat: no-repeat; border: 1px solid #888; }
        #bar { width: 100%; max-width: 960px; height: 24px; background: #555; margin: 8px 0; cursor: pointer; position: relative; }
        #head { position: absolute; top: 0; width: 2px; height: 24px; background: #f44; left: 0; }
        img.sheet { display: block; max-width: 100%; margin: 8px 0; border: 1px solid #444; }
        </style></head><body>
        <h1>\(escaped(title))</h1>
        <p>\(escaped(note))</p>
        <div id="preview"></div>
        <div id="bar"><div id="head"></div></div>
        <p id="time">Move the pointer along the bar.</p>
        \(images)
        <script>
        const cues = [\(cues)];
        const duration = \(timing.durationMilliseconds);
        const sheets = document.querySelectorAll("img.sheet");
        const preview = document.getElementById("preview"), bar = document.getElementById("bar");
        function clock(ms) { const s = Math.floor(ms / 1000); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0") + "." + String(ms % 1000).padStart(3, "0"); }
        function show(ms) {
          const cue = cues.find(c => ms >= c[0] && ms < c[1]) || cues[cues.length - 1];
          preview.style.backgroundImage = "url(" + sheets[cue[2]].src + ")";
          preview.style.backgroundPosition = (-cue[3]) + "px " + (-cue[4]) + "px";
          document.getElementById("head").style.left = (100 * ms / duration) + "%";
          document.getElementById("time").textContent = clock(ms) + " (cue " + clock(cue[0]) + " to " + clock(cue[1]) + ")";
        }
        bar.addEventListener("mousemove", e => {
          const box = bar.getBoundingClientRect();
          show(Math.max(0, Math.min(duration - 1, Math.floor(duration * (e.clientX - box.left) / box.width))));
        });
        // "#t=SECONDS" in the address shows that time first (for looking at one cue, and for tests);
        // else the middle: cue 0 is often a fade from black, which reads as a broken page.
        const start = /^#t=([0-9.]+)$/.exec(location.hash);
        show(Math.max(0, Math.min(duration - 1, start ? Math.floor(parseFloat(start[1]) * 1000) : Math.floor(duration / 2))));
        </script>
        </body></html>

        """
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
