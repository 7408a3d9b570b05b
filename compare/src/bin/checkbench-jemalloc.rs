//! The workload under jemalloc, identified by the version jemalloc reports; each
//! `malloc_conf` knob asked for is read back as `opt.<name>` through mallctl.
use std::process::ExitCode;

use compare::child::{self, Proof};
use compare::contender::knobs::{self, KnobType};
use tikv_jemalloc_ctl::raw;

#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    child::main_proven(identity())
}

fn identity() -> Result<workload::AllocatorIdentity, String> {
    let identity = tikv_jemalloc_ctl::version::read()
        // The mallctl string keeps its C terminator.
        .map(|v| v.trim_end_matches(['\0', ' ', '\n']).to_string())
        .unwrap_or_else(|e| format!("unknown ({e})"));
    let mut allocator = workload::AllocatorIdentity {
        name: "jemalloc",
        identity,
    };
    child::prove_knobs(&mut allocator, prove)?;
    Ok(allocator)
}

fn prove(key: &str, value: &str) -> Proof {
    let kind = knobs::jemalloc_knob(key).ok_or(format!("jemalloc has no option {key}"))?;
    let name = format!("opt.{key}\0");
    let failed = |e: tikv_jemalloc_ctl::Error| format!("mallctl {}: {e}", &name[..name.len() - 1]);
    // SAFETY: each read uses the type jemalloc's ctl.c gives `opt.<key>` (the table).
    let read = unsafe {
        match kind {
            KnobType::Bool => raw::read::<bool>(name.as_bytes()).map(|v| v.to_string()),
            KnobType::Unsigned => raw::read::<u32>(name.as_bytes()).map(|v| v.to_string()),
            KnobType::Size | KnobType::U64 => {
                raw::read::<u64>(name.as_bytes()).map(|v| v.to_string())
            }
            KnobType::Ssize | KnobType::I64 => {
                raw::read::<i64>(name.as_bytes()).map(|v| v.to_string())
            }
            KnobType::Str => raw::read_str(name.as_bytes()).map(|v| {
                String::from_utf8_lossy(v)
                    .trim_end_matches('\0')
                    .to_string()
            }),
        }
    }
    .map_err(failed)?;
    let equal = match kind {
        KnobType::Str | KnobType::Bool => read == value,
        _ => read.parse::<i128>().ok() == value.parse::<i128>().ok(),
    };
    if !equal {
        return Err(format!("opt.{key} reads {read:?}"));
    }
    Ok(format!("opt.{key} reads {read:?}"))
}
