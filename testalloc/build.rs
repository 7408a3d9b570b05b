//! Compiles the mimalloc sources that libmimalloc-sys bundles into mimalloc's own shared
//! library, as mimalloc's CMake build does with MI_OVERRIDE=ON (its `mimalloc` target).
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let include = PathBuf::from(
        std::env::var_os("DEP_MIMALLOC_INCLUDE_DIR")
            .expect("libmimalloc-sys sets DEP_MIMALLOC_INCLUDE_DIR (its `links = \"mimalloc\"`)"),
    );
    let root = include.parent().expect("the include folder has a parent");
    // static.c includes every source of the library (alloc-override.c too) in one unit.
    let source = root.join("src").join("static.c");
    assert!(
        source.is_file(),
        "{} is missing: libmimalloc-sys bundles mimalloc's sources there",
        source.display()
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let library = out.join("libmimalloc.so");

    // cc's compiler with its flags for this target and profile (optimisation, -fPIC).
    let mut build = cc::Build::new();
    build
        .include(&include)
        .include(root.join("src"))
        .define("MI_SHARED_LIB", None)
        .define("MI_SHARED_LIB_EXPORT", None)
        .define("MI_MALLOC_OVERRIDE", None)
        .define("MI_BUILD_RELEASE", None)
        .define("NDEBUG", None)
        .flag("-fvisibility=hidden")
        .flag("-ftls-model=initial-exec")
        .flag("-fno-builtin-malloc")
        .flag("-Wno-unknown-pragmas")
        .flag("-Wno-error=date-time");
    let mut command = build.get_compiler().to_command();
    command
        .args(["-shared", "-o"])
        .arg(&library)
        .arg(&source)
        .arg("-lpthread");
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("running {command:?}: {e}"));
    assert!(status.success(), "{command:?} failed: {status}");
    println!("cargo:rustc-env=TESTALLOC_MIMALLOC={}", library.display());
}
