//! checker: the workload (the checker helper fills it in).
pub mod cli;
pub mod report;

/// Which allocator a binary was built with, as the binary itself proves it.
#[derive(Clone, Debug)]
pub struct AllocatorIdentity {
    /// `slice`, `mimalloc`, `jemalloc` or `system`.
    pub name: &'static str,
    /// The allocator's own identification (its version string); for `slice`, the checker
    /// reads the policy and statistics from `slice_alloc` itself.
    pub identity: String,
}
