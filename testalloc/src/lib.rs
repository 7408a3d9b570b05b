#![doc = include_str!("../README.md")]

/// The absolute path of mimalloc's shared library that build.rs made: `LD_PRELOAD` it and
/// mimalloc serves `malloc`.
pub const MIMALLOC: &str = env!("TESTALLOC_MIMALLOC");
