//! The tsc workload's tests: one binary, the slice allocator as its global allocator so that
//! the engine's requests can be counted. Tests that run TypeScript itself take
//! typescript@6.0.3 from the corpus cache (`CHECKBENCH_CACHE`), fetching and verifying it
//! there once when it is missing.
mod engine;
mod typescript;

#[global_allocator]
static ALLOCATOR: slice_alloc::SliceAlloc = slice_alloc::SliceAlloc;
