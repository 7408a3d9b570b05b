#![doc = include_str!("../README.md")]

#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
mod build_info;
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
mod exports;
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
mod glibc;
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
mod lifecycle;
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
mod stats_file;
#[cfg(all(target_os = "linux", target_env = "gnu", target_arch = "x86_64"))]
mod thread;
