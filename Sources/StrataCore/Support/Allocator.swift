#if canImport(Glibc)
    import Glibc
#endif

/// The C allocator, for what `generate` asks of it to keep its peak memory within its bound
/// (20 times the input above a small model's; see the schema reference's limits).
package enum Allocator {
    /// Asks glibc to keep one arena for every thread and to give freed memory at the top of the
    /// heap back at once: `generate` renders on every core, and one arena per thread otherwise
    /// keeps each thread's freed memory to itself. Called before any thread is started; on other
    /// C libraries (Darwin's), nothing.
    package static func limitRetainedMemory() {
        #if canImport(Glibc)
            // `mallopt`'s parameters (`<malloc.h>`): M_TRIM_THRESHOLD, M_TOP_PAD, M_ARENA_MAX.
            guard let symbol = dlsym(nil, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(-1, 64 * 1024)
            _ = mallopt(-2, 0)
            _ = mallopt(-8, 1)
        #endif
    }

    /// Gives the memory freed so far back to the system where the allocator keeps it resident:
    /// called between loading a model, whose YAML is then gone, and rendering it, so that the two
    /// peaks do not add up. On other C libraries, nothing.
    static func releaseFreedMemory() {
        #if canImport(Glibc)
            // `malloc_trim` is glibc's (`<malloc.h>`, which Swift's Glibc module leaves out).
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
            _ = trim(0)
        #endif
    }
}
