//! `SliceAlloc` as this binary's global allocator. The checks share one process-wide heap and
//! depend on which arenas are free, so they run one after another from `main` (no harness).

use std::collections::HashMap;
use std::process::Command;
use std::sync::{Arc, Barrier, mpsc};
use std::thread;

use slice_alloc::{CLASS_COUNT, HUGE_PAGE, MAX_ARENAS, Policy, SliceAlloc, Stats, Totals};

#[global_allocator]
static ALLOC: SliceAlloc = SliceAlloc;

/// Set in the child processes this binary starts to check the environment variable.
const CHILD: &str = "SLICE_ALLOC_GLOBAL_TEST_CHILD";

fn main() {
    if std::env::var_os(CHILD).is_some_and(|v| v == "limit") {
        return use_half_the_limit();
    }
    if std::env::var_os(CHILD).is_some() {
        let words: Vec<String> = (0..100).map(|i| i.to_string()).collect();
        println!(
            "policy={} words={}",
            slice_alloc::policy().unwrap(),
            words.len()
        );
        return;
    }
    let checks: [(&str, fn()); 9] = [
        (
            "the_policy_is_known_once_a_request_was_served",
            policy_is_known,
        ),
        ("the_reservation_is_2_mib_aligned", reservation_is_aligned),
        (
            "a_multithreaded_workload_runs_intact",
            multithreaded_workload,
        ),
        ("a_new_thread_inherits_a_parked_arena", inheritance),
        (
            "a_released_arena_goes_on_in_the_thread_that_takes_over_the_work",
            released_arena,
        ),
        (
            "threads_beyond_the_arenas_use_the_system_allocator",
            more_threads_than_arenas,
        ),
        (
            "totals_into_does_not_allocate",
            totals_into_does_not_allocate,
        ),
        (
            "the_policy_comes_from_the_environment",
            policy_from_environment,
        ),
        (
            "under_every_address_space_limit_the_reservation_leaves_half_of_it_to_the_system",
            reservation_under_limits,
        ),
    ];
    for (name, check) in checks {
        print!("check {name} ... ");
        check();
        println!("ok");
    }
}

fn policy_is_known() {
    let expected = std::env::var("CHECKBENCH_SLICE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(Policy::DEFAULT);
    assert_eq!(slice_alloc::policy(), Some(expected));
    assert!(
        slice_alloc::current_arena().is_some(),
        "main holds an arena"
    );
}

fn reservation_is_aligned() {
    let (base, len) = slice_alloc::reservation().expect("the reservation is mapped");
    let stats = slice_alloc::stats().unwrap();
    assert_eq!(base % HUGE_PAGE, 0);
    assert_eq!(len, MAX_ARENAS * CLASS_COUNT * stats.totals.slice_bytes);
    assert!(stats.totals.slice_bytes >= 4 << 20);
}

fn total_remote_frees(stats: &Stats) -> u64 {
    (0..CLASS_COUNT)
        .map(|c| stats.class_total(c).remote_frees)
        .sum()
}

fn multithreaded_workload() {
    const THREADS: usize = 8;
    let before = slice_alloc::stats().unwrap();
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..THREADS)
        .map(|_| mpsc::channel::<(usize, Vec<String>)>())
        .unzip();
    // Every worker holds its own arena from start to end, so every word is freed remotely.
    let together = Arc::new(Barrier::new(THREADS));
    let workers: Vec<_> = receivers
        .into_iter()
        .enumerate()
        .map(|(t, inbox)| {
            let next = senders[(t + 1) % THREADS].clone();
            let together = Arc::clone(&together);
            thread::spawn(move || {
                let mut table: HashMap<String, Vec<u64>> = HashMap::new();
                table.insert(String::from("claims an arena"), Vec::new());
                together.wait();
                for round in 0..200 {
                    let words: Vec<String> =
                        (0..50).map(|i| format!("t{t}-r{round}-w{i}")).collect();
                    for (i, w) in words.iter().enumerate() {
                        table.entry(w.clone()).or_default().push(i as u64);
                    }
                    next.send((round, words)).unwrap();
                }
                drop(next);
                let from = (t + THREADS - 1) % THREADS;
                let mut received = 0;
                for (round, words) in inbox {
                    assert_eq!(words.len(), 50);
                    assert_eq!(words[7], format!("t{from}-r{round}-w7"));
                    received += 1;
                }
                assert_eq!(received, 200);
                let sum: u64 = table.values().flatten().sum();
                assert_eq!(sum, 200 * (0..50).sum::<u64>());
                together.wait();
                slice_alloc::current_arena()
            })
        })
        .collect();
    drop(senders);
    let arenas: Vec<_> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    assert!(
        arenas.iter().all(Option::is_some),
        "every worker held an arena"
    );
    let after = slice_alloc::stats().unwrap();
    assert!(after.totals.arenas_claimed >= 2);
    assert!(
        total_remote_frees(&after) >= total_remote_frees(&before) + 8 * 200 * 50,
        "every received word was freed remotely"
    );
}

fn inheritance() {
    let size = 440; // class 27, which nothing else here uses much
    let (index, block) = thread::spawn(move || {
        let b = vec![1u8; size];
        let p = b.as_ptr() as usize;
        drop(b);
        (slice_alloc::current_arena().unwrap(), p)
    })
    .join()
    .unwrap();
    let (index2, block2) = thread::spawn(move || {
        let b = vec![2u8; size];
        (slice_alloc::current_arena().unwrap(), b.as_ptr() as usize)
    })
    .join()
    .unwrap();
    assert_eq!(index2, index, "the parked arena is the lowest free one");
    assert_eq!(block2, block, "its free list came with it");
}

/// What a workload that hands all its work to one thread does (the tsc workload at 1 checker):
/// the caller releases its arena once the worker is started, the worker continues in it, and the
/// process touches one arena's slices. Nothing between the release and the join may allocate.
fn released_arena() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let size = 424; // class 26, which nothing else here uses
    let block = vec![3u8; size];
    let (arena, freed) = (
        slice_alloc::current_arena().unwrap(),
        block.as_ptr() as usize,
    );
    drop(block);
    static GO: AtomicBool = AtomicBool::new(false);
    // Unnamed: std copies a named thread's name onto the heap as the thread starts, before the
    // closure runs, which would claim an arena whenever it came before the release.
    let worker = thread::spawn(move || {
        while !GO.load(Ordering::Acquire) {
            thread::park();
        }
        let b = vec![4u8; size];
        (slice_alloc::current_arena().unwrap(), b.as_ptr() as usize)
    });
    slice_alloc::release_arena();
    assert_eq!(slice_alloc::current_arena(), None);
    GO.store(true, Ordering::Release);
    worker.thread().unpark();
    let (index, block) = worker.join().unwrap();
    assert_eq!(index, arena, "the worker claims the released arena");
    assert_eq!(block, freed, "with the free list the caller left in it");
    let again = vec![5u8; size];
    assert_eq!(
        slice_alloc::current_arena(),
        Some(arena),
        "the caller claims it back once the worker has exited"
    );
    drop(again);
}

fn more_threads_than_arenas() {
    const THREADS: usize = MAX_ARENAS + 8;
    let before = slice_alloc::stats().unwrap().totals.fallbacks.no_arena;
    let barrier = Arc::new(Barrier::new(THREADS));
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                let mine: Vec<Box<[u64; 4]>> =
                    (0..100).map(|i| Box::new([t as u64, i, 0, 0])).collect();
                barrier.wait();
                assert!(
                    mine.iter()
                        .enumerate()
                        .all(|(i, b)| b[0] == t as u64 && b[1] == i as u64)
                );
                slice_alloc::current_arena()
            })
        })
        .collect();
    let held = workers
        .into_iter()
        .map(|w| w.join().unwrap())
        .filter(Option::is_some)
        .count();
    assert!(
        held < MAX_ARENAS,
        "main holds one, so at most 31 workers held one ({held})"
    );
    let after = slice_alloc::stats().unwrap().totals.fallbacks.no_arena;
    assert!(
        after >= before + 100 * (THREADS - held) as u64,
        "{before} -> {after}"
    );
}

fn totals_into_does_not_allocate() {
    let mut first = Box::new(Totals::zeroed(Policy::DEFAULT));
    let mut second = Box::new(Totals::zeroed(Policy::DEFAULT));
    assert!(slice_alloc::totals_into(&mut first));
    assert!(slice_alloc::totals_into(&mut second));
    assert_eq!(first.classes, second.classes);
    assert_eq!(first.fallbacks, second.fallbacks);
    // One snapshot's totals are its arenas' sums.
    let stats = slice_alloc::stats().unwrap();
    for class in 0..CLASS_COUNT {
        let mut sum = slice_alloc::ClassStats::ZERO;
        stats.arenas.iter().for_each(|a| sum.add(&a[class]));
        assert_eq!(sum, stats.totals.classes[class], "class {class}");
    }
    assert!(stats.arenas.len() <= MAX_ARENAS);
}

fn policy_from_environment() {
    let exe = std::env::current_exe().unwrap();
    let run = |value: &str| {
        let out = Command::new(&exe)
            .env(CHILD, "1")
            .env("CHECKBENCH_SLICE", value)
            .output()
            .unwrap();
        assert!(out.status.success(), "{value}: {out:?}");
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for value in ["nohuge", "huge", "hybrid@4+populate", "hybrid@16+collapse"] {
        let (stdout, stderr) = run(value);
        assert_eq!(stdout, format!("policy={value} words=100\n"));
        assert_eq!(stderr, "");
    }
    let (stdout, stderr) = run("turbo");
    assert_eq!(stdout, "policy=hybrid@8 words=100\n");
    assert_eq!(
        stderr.matches("CHECKBENCH_SLICE=turbo").count(),
        1,
        "{stderr}"
    );
}

/// The soft address-space limit of this process, in bytes (`None`: unlimited).
fn address_space_limit() -> Option<u64> {
    // SAFETY: rlimit is plain data; getrlimit writes it.
    let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: limit is valid for writes.
    assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) }, 0);
    (limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

/// In a child under a limit: prints the reservation, then holds large (system) blocks adding up
/// to 40% of the limit, as a workload's large requests and thread stacks would; an allocator
/// that left too little of the address space aborts here.
fn use_half_the_limit() {
    let words: Vec<String> = (0..100).map(|i| i.to_string()).collect();
    let limit = address_space_limit().expect("the parent set a limit") as usize;
    let reserved = slice_alloc::reservation().map_or(0, |(_, len)| len);
    let chunk = 64 << 20;
    let blocks: Vec<Vec<u8>> = (0..limit * 2 / 5 / chunk)
        .map(|_| Vec::with_capacity(chunk))
        .collect();
    println!(
        "reserved={reserved} blocks={} words={}",
        blocks.len(),
        words.len()
    );
}

fn reservation_under_limits() {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().unwrap();
    // `ulimit -v` values, in KiB: around the reservations of 4, 8 and 16 MiB slices.
    for kib in [
        3_000_000u64,
        4_000_000,
        6_000_000,
        8_000_000,
        10_000_000,
        16_000_000,
    ] {
        let bytes = kib * 1024;
        let mut command = Command::new(&exe);
        command.env(CHILD, "limit");
        // SAFETY: setrlimit is async-signal-safe and touches only the child.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: libc::RLIM_INFINITY,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            })
        };
        let out = command.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "ulimit -v {kib}: {:?} {stdout} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let reserved: u64 = stdout
            .split_whitespace()
            .find_map(|w| w.strip_prefix("reserved="))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("ulimit -v {kib}: {stdout}"));
        assert!(
            reserved <= bytes / 2,
            "ulimit -v {kib}: reserved {reserved}"
        );
        let smallest = (MAX_ARENAS * CLASS_COUNT) as u64 * (4 << 20);
        assert_eq!(
            reserved != 0,
            bytes / 2 >= smallest,
            "ulimit -v {kib}: a reservation is made exactly when the smallest one fits in half"
        );
    }
}
