//! Records what `libslice_alloc.so` is built from (revision, source digest, profile), as
//! compare's build script does for the child binaries and with the same code
//! (compare/build_info.rs), so that compare refuses a debug or stale library as it refuses
//! such a child.
include!("../compare/build_info.rs");

fn main() {
    emit_build_info();
}
