//! Judging one measured run: the figures and covariates of a [`Measurement`] recorded as a
//! [`Run`], and `ok` only if the child ended well and its report proves it ran what its
//! contender says. **A run that did not measure what it says is a failed run.** A command
//! bake-off's runs (command/proof.rs) fail in the same words.
use std::time::Duration;

use workload::report::RunReport;

use crate::benchmark::measure::{Exit, Measurement, READ_GRACE};
use crate::contender::Contender;
use crate::results::kernel::KernelEvents;
use crate::results::{AllocatorProof, Covariates, Figures, Run, RunStatus, Workload};
use crate::workload::WorkloadKind;

/// The run as the parent measured it: the figures from wait4 and the clock, the covariates,
/// status `ok` until a judge says otherwise, no digest and no proof yet.
pub fn measured_run(round: usize, measured: &Measurement) -> Run {
    Run {
        round,
        status: RunStatus::Ok,
        digest: String::new(),
        figures: Figures {
            wall_s: measured.wall.as_secs_f64(),
            user_s: measured.rusage.user_s,
            sys_s: measured.rusage.sys_s,
            max_rss_kib: measured.rusage.max_rss_kib,
            vm_hwm_kib: 0,
            minor_faults: measured.rusage.minor_faults,
            major_faults: measured.rusage.major_faults,
            anon_huge_kib: 0,
            anon_huge_peak_kib: measured.anon_huge_peak_kib,
        },
        allocator: None,
        workload: None,
        workload_settings: Default::default(),
        covariates: Covariates {
            started_unix_s: measured.started_unix_s,
            involuntary_switches: measured.rusage.involuntary_switches,
            voluntary_switches: measured.rusage.voluntary_switches,
            steal_s: measured.steal_s,
            env_padding_bytes: 0,
            quiet: None,
        },
        kernel: measured.vmstat.clone().map(|deltas| {
            let own = measured.rusage.minor_faults + measured.rusage.major_faults;
            KernelEvents::new(deltas, own)
        }),
        memory: measured.timeline.clone(),
    }
}

/// Why a child's end fails its run: timed out, killed by a signal or a non-zero exit code,
/// with the reason from its stderr.
pub fn exit_status(measured: &Measurement) -> Result<(), String> {
    if let Some(limit) = measured.timed_out {
        return Err(timed_out(limit));
    }
    if measured.output_held {
        return Err(format!(
            "a process that left the run's process group still held its output {} s after \
             the run ended: its output is cut short",
            READ_GRACE.as_secs()
        ));
    }
    ended(measured.exit, &measured.stderr)
}

/// Why a process that ended as `exit` failed, in the words of every failed run: how it ended
/// and the line of its standard error that says why (the first that begins with "error", else
/// the last); `Ok` if it exited 0. The binding probe's run says the same of the same failure.
pub fn ended(exit: Exit, stderr: &[u8]) -> Result<(), String> {
    let stderr = reason_line(stderr);
    let because = |what: String| match &stderr {
        Some(line) => format!("{what}: {line}"),
        None => what,
    };
    match exit {
        Exit::Signal(signal) => Err(because(format!("killed by {}", signal_name(signal)))),
        Exit::Code(code) if code != 0 => Err(because(format!("exit code {code}"))),
        Exit::Code(_) => Ok(()),
    }
}

/// The time-limit failure's words, as every failed run says them.
pub fn timed_out(limit: Duration) -> String {
    format!(
        "timed out: killed after {} s (--timeout)",
        limit.as_secs_f64()
    )
}

/// Turns what was observed into a recorded run: the figures, the child's digest and
/// allocator proof, and `ok` only if the child exited 0, printed a readable report,
/// proved it ran under the contender's allocator (and, for slice contenders, policy) and,
/// when the launcher knows the `workload` it asked for, ran that workload (an old child
/// without `--workload` runs the checker whatever it is asked): **a run that did not
/// measure what it says is a failed run.**
pub fn judge(
    contender: Contender,
    workload: Option<WorkloadKind>,
    round: usize,
    measured: &Measurement,
) -> Run {
    let mut run = measured_run(round, measured);
    if let Err(why) = exit_status(measured) {
        run.status = RunStatus::Failed(why);
        return run;
    }
    let report: RunReport = match serde_json::from_slice(&measured.stdout) {
        Ok(report) => report,
        Err(error) => {
            run.status = RunStatus::Failed(format!("unreadable report on stdout: {error}"));
            return run;
        }
    };
    run.digest = report.digest.clone();
    run.figures.vm_hwm_kib = report.process.vm_hwm_kib;
    run.figures.anon_huge_kib = report.process.anon_huge_kib;
    run.figures.anon_huge_peak_kib = run
        .figures
        .anon_huge_peak_kib
        .max(report.process.anon_huge_kib);
    let proof = proof(&report);
    if let Err(why) = check_workload(&report, workload)
        .and_then(|()| check_allocator(contender, &proof))
        .and_then(|()| check_slice_service(contender, report.allocator.slice.as_ref()))
    {
        run.status = RunStatus::Failed(why);
    }
    run.allocator = Some(proof);
    let counts = &report.counts;
    run.workload = Some(Workload {
        files: counts.files,
        bytes: counts.bytes,
        ast_nodes: counts.ast_nodes,
        symbols: counts.symbols,
        types: counts.types,
        relations: counts.relations,
        diagnostics: counts.diagnostics,
    });
    run.workload_settings = report.settings;
    run
}

fn check_workload(report: &RunReport, asked: Option<WorkloadKind>) -> Result<(), String> {
    match asked {
        Some(asked) if report.workload != asked.name() => Err(format!(
            "the child ran the `{}` workload, not `{asked}`",
            report.workload
        )),
        _ => Ok(()),
    }
}

fn proof(report: &RunReport) -> AllocatorProof {
    let allocator = &report.allocator;
    let slice = allocator.slice.as_ref();
    AllocatorProof {
        name: allocator.name.clone(),
        identity: allocator.identity.clone(),
        policy: slice.map(|s| s.policy.clone()),
        arenas_claimed: slice.map(|s| s.arenas_claimed),
        switches: slice.map(|s| s.classes.iter().map(|c| c.switches).sum()),
        carved_bytes: slice.map(|s| s.classes.iter().map(|c| c.carved_bytes).sum()),
        largest_slice_bytes: slice.map(|s| {
            let largest = s.classes.iter().map(|c| c.max_slice_carved_bytes).max();
            largest.unwrap_or(0)
        }),
        fallbacks: slice.map(|s| s.fallbacks.values().sum()),
        slice_bytes: slice.map(|s| s.slice_bytes),
        slices: slice.map(|s| s.slices.clone()).unwrap_or_default(),
        command: None,
    }
}

/// A child proves its allocator by name; a slice child also by the policy it ran under.
fn check_allocator(contender: Contender, proof: &AllocatorProof) -> Result<(), String> {
    let expected = contender.allocator_name();
    if proof.name != expected {
        return Err(format!(
            "wrong allocator: asked for {expected}, the child reports {:?}",
            proof.name
        ));
    }
    if let Some(variant) = contender.variant() {
        for (key, value) in &variant.knobs {
            if !proof.identity.contains(&format!("{key}={value}: ")) {
                return Err(format!(
                    "unproven knob: asked for {key}={value}, the child's identity {:?} does not \
                     prove it",
                    proof.identity
                ));
            }
        }
        if let Some(path) = &variant.preload {
            let file = std::fs::canonicalize(path)
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_default();
            if file.is_empty() || !proof.identity.starts_with(&file) {
                return Err(format!(
                    "unproven preload: asked for {}, the child reports {:?}",
                    path.display(),
                    proof.identity
                ));
            }
        }
    }
    if let Some(asked) = contender.slice_policy() {
        let reported = proof.policy.as_deref().unwrap_or("");
        if reported.parse::<slice_alloc::Policy>().ok() != Some(asked) {
            return Err(format!(
                "wrong slice policy: asked for {asked}, the child reports {:?}",
                proof.policy.as_deref().unwrap_or("no slice statistics")
            ));
        }
    }
    Ok(())
}

/// The largest share of small requests (1..=512 bytes) a slice run may hand to the system
/// allocator and still count as a run of the slice allocator: 1%. A healthy run hands over
/// none or a handful (a thread that exits, a request made while the reservation is being
/// mapped); a run whose slices fill up, or whose threads find no arena, measures the system
/// allocator instead.
pub const MAX_SMALL_FALLBACK_SHARE: f64 = 0.01;

/// A slice child must have served the run as its contender says: a reservation made, an arena
/// claimed, slices larger than a hybrid policy's switch point (else no slice can ever switch),
/// and at most [`MAX_SMALL_FALLBACK_SHARE`] of the small requests handed to the system
/// allocator. Other contenders pass.
pub fn check_slice_service(
    contender: Contender,
    slice: Option<&workload::report::SliceReport>,
) -> Result<(), String> {
    let (Some(policy), Some(slice)) = (contender.slice_policy(), slice) else {
        return Ok(());
    };
    let mib = |bytes: u64| format!("{} MiB", bytes >> 20);
    if slice.reservation_bytes == 0 {
        return Err(format!(
            "the slice allocator made no reservation (an address-space limit, `ulimit -v`, \
             leaves it less than twice the smallest one): the system allocator served all \
             {} small requests",
            slice.small_requests
        ));
    }
    if slice.arenas_claimed == 0 {
        return Err(format!(
            "the slice allocator claimed no arena: the system allocator served all {} small requests",
            slice.small_requests
        ));
    }
    if let Some(switch) = policy.switch_bytes().map(|b| b as u64)
        && slice.slice_bytes <= switch
    {
        return Err(format!(
            "slices of {} are no larger than the switch point of {policy} ({}): no slice can \
             switch, so this measures nohuge (an address-space limit shrank the reservation)",
            mib(slice.slice_bytes),
            mib(switch)
        ));
    }
    let share = slice.small_fallback_share();
    if share > MAX_SMALL_FALLBACK_SHARE {
        return Err(format!(
            "the system allocator served {} of {} small requests ({:.1}%, more than {}%): \
             slices of {} full, or threads without an arena",
            slice.small_fallbacks,
            slice.small_requests,
            100.0 * share,
            100.0 * MAX_SMALL_FALLBACK_SHARE,
            mib(slice.slice_bytes)
        ));
    }
    Ok(())
}

/// Why a child failed, from its stderr: its first `error` line (clap and the checker
/// begin with it, and what follows is help or context), else its last line.
fn reason_line(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines().map(str::trim).filter(|line| !line.is_empty());
    let line = lines
        .clone()
        .find(|line| line.to_ascii_lowercase().starts_with("error"))
        .or_else(|| lines.next_back())?;
    Some(line.chars().take(400).collect())
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        _ => return format!("signal {signal}"),
    };
    format!("signal {signal} ({name})")
}
