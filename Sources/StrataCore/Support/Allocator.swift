#if canImport(Glibc)
    import Glibc
#endif

/// The C allocator, for the one thing the generator asks of it.
enum Allocator {
    /// Gives the memory freed so far back to the system where the allocator keeps it resident
    /// (glibc keeps what each thread's arena freed): called between loading a model, whose YAML is
    /// then gone, and rendering it, so that the two peaks do not add up. Elsewhere (another C
    /// library, Darwin), nothing.
    static func releaseFreedMemory() {
        #if canImport(Glibc)
            // `malloc_trim` is glibc's (`<malloc.h>`, which Swift's Glibc module leaves out).
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
            _ = trim(0)
        #endif
    }
}
