import Testing
@testable import FilmstripBench
