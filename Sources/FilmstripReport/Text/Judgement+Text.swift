import FilmstripResults

/// The judgement's text forms, as `compare` prints them (its JSON is the judge's own, ``Judgement/json``).
extension Judgement {
    /// Plain text (`compare`), the verdict first.
    package var text: String {
        switch answer {
        case .gate(let report): report.text
        case .hardware(let comparison): comparison.text
        }
    }

    /// Markdown for a pull request's comment, the verdict first.
    package var markdown: String {
        switch answer {
        case .gate(let report): report.markdown
        case .hardware(let comparison): comparison.markdown
        }
    }
}
