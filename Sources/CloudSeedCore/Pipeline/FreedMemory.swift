#if canImport(Glibc)
    import Glibc
#endif

/// The heap a run has freed, handed back to the system.
///
/// glibc keeps what a program frees for its next allocations, so the first pass's name marks
/// (16 bytes a row, freed once the naming rules are chosen) stayed
/// resident under everything pass two and the name index then allocate: the run's peak grew with
/// its rows. glibc's `malloc_trim` is looked up when the process runs (Swift's Glibc module leaves
/// `malloc.h` out); where there is none (Apple's allocator returns memory itself), this does nothing.
package enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        #else
            return nil
        #endif
    }()

    package static func release() {
        _ = trim?(0)
    }
}
