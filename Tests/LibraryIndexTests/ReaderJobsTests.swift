import Foundation
import LibraryIndex
import Testing

@Suite("Reader jobs")
struct ReaderJobsTests {
    @Test("jobs 0, the default, starts one reader per core and at least 2, growing to 8 per core and at least 32, as `index --help` and docs/commands.md say")
    func defaultJobs() {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(IndexSettings.default.jobs == 0)
        #expect(IndexSettings.defaultJobs == min(IndexSettings.maximumJobs, max(2, cores)))
        #expect(IndexSettings.default.readerThreads == IndexSettings.defaultJobs)
        #expect(IndexSettings.default.growsReaders)
        #expect(IndexSettings.coldJobs == min(IndexSettings.maximumJobs, max(32, 8 * cores)))
        #expect(IndexSettings.default.maximumReaderThreads == IndexSettings.coldJobs)
    }

    @Test("An explicit jobs count is used as it is", arguments: [1, 3, 16, IndexSettings.maximumJobs])
    func explicitJobs(jobs: Int) throws {
        var settings = IndexSettings.default
        settings.jobs = jobs
        try settings.validate()
        #expect(settings.readerThreads == jobs)
        #expect(!settings.growsReaders && settings.maximumReaderThreads == jobs)
    }
}
