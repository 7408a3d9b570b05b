//! The workload under mimalloc, identified by the version mimalloc reports; each
//! `MIMALLOC_*` knob asked for is read back with `mi_option_get`.
use std::process::ExitCode;

use compare::child::{self, Proof};
use compare::contender::knobs;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    child::main_proven(identity())
}

fn identity() -> Result<workload::AllocatorIdentity, String> {
    // SAFETY: mi_version takes no arguments and only returns a constant.
    let version = unsafe { libmimalloc_sys::mi_version() };
    // MI_MALLOC_VERSION is major, then two digits of minor and two of patch: 30302 = 3.3.2.
    let mut allocator = workload::AllocatorIdentity {
        name: "mimalloc",
        identity: format!(
            "{}.{}.{}",
            version / 10_000,
            version / 100 % 100,
            version % 100
        ),
    };
    if !child::asked_knobs().is_empty() && version / 10_000 != 3 {
        return Err(format!(
            "the option table is mimalloc 3's; this child links mimalloc {}",
            allocator.identity
        ));
    }
    child::prove_knobs(&mut allocator, prove)?;
    Ok(allocator)
}

fn prove(key: &str, value: &str) -> Proof {
    let option = knobs::mimalloc_option(key).ok_or(format!("mimalloc has no option {key}"))?;
    let mut asked = knobs::mimalloc_value(value).ok_or(format!("{value} is not a number"))?;
    if knobs::MIMALLOC_SIZES_IN_KIB.contains(&key) {
        asked = (asked.max(0) + 1023) / 1024;
    }
    // SAFETY: `option` is an index of mimalloc 3's mi_option_t (checked above).
    let read = unsafe { libmimalloc_sys::mi_option_get(option) } as i64;
    if read != asked {
        return Err(format!("mi_option_get({key}) reads {read}, not {asked}"));
    }
    let mut how = format!("mi_option_get reads {read}");
    if key == "allow_thp" {
        // SAFETY: PR_GET_THP_DISABLE takes no pointers and only reads the process flag.
        let disabled = unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) };
        match (asked, disabled) {
            (0, 1) => how.push_str(", THP disabled for the process (prctl)"),
            (0, _) => return Err(format!("PR_GET_THP_DISABLE reads {disabled}, not 1")),
            _ => {}
        }
    }
    Ok(how)
}
