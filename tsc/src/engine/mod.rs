//! One QuickJS runtime, one program, N checkers: thread `tsc-0` loads typescript.js, the host
//! and the input and is checker 0; threads `tsc-1` ... `tsc-{N-1}` are the other checkers. A
//! runtime runs one thread at a time, so the threads take turns on it, one step of the plan
//! (`plan.rs`) a turn: the program built (by `tsc-0`, or its files parsed and bound file by file
//! on every checker's thread under `--parse spread`), then one root file a turn in root-file
//! order (file i is checker i mod N's), then each checker's report. Every
//! allocation the engine makes goes to the process's `#[global_allocator]` (the contender)
//! from the thread whose turn it is, so each checker's objects come from its own slice arena.
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use rquickjs::context::EvalOptions;
use rquickjs::{Context, Ctx, Function, Object, Runtime, Value};
use serde::Deserialize;

use crate::collect::{Collect, Decider};
use crate::plan::{Parse, Plan, Step};
use crate::{Collections, Diagnostic, Error};

mod counted;

use counted::{Counted, Counters};

/// The compiler host and driver (`js/host.js`), evaluated after typescript.js.
pub const HOST_JS: &str = include_str!("../../js/host.js");

/// Stack of each checker thread: TypeScript's checker recurses, and QuickJS recurses on
/// the C stack with it. Virtual memory, resident only as deep as the recursion goes.
pub const THREAD_STACK_BYTES: usize = corpora::depth::STACK_BYTES;

/// The engine's own stack limit (`JS_SetMaxStackSize`), a margin below the thread's stack
/// so that QuickJS throws `RangeError` before the thread overflows. rquickjs (with `parallel`)
/// moves the engine's stack top to the entering thread's on every entry, so the limit holds on
/// whichever checker thread has the turn.
pub const MAX_STACK_BYTES: usize = THREAD_STACK_BYTES - (16 << 20);

/// What one checker reports (`checkbench.report`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Report {
    pub diagnostics: Vec<Diagnostic>,
    pub source_files: u64,
    pub nodes: u64,
    /// The program's bound symbols and those this checker made.
    pub symbols: u64,
    pub types: u64,
    pub relations: u64,
    pub version: String,
    /// The compiler options by name, as a tsconfig.json spells them.
    pub options: serde_json::Value,
}

/// What a run did, in seconds where timed.
#[derive(Debug)]
pub(crate) struct Run {
    /// One per checker, in checker order.
    pub reports: Vec<Report>,
    /// Symbols the binder made (each checker's report counts them too).
    pub bound_symbols: u64,
    /// Files parsed ahead of the program (0 unless the parse is spread), and how many of them
    /// the program took; it parses any other itself.
    pub parsed_ahead: u64,
    pub taken_ahead: u64,
    /// New runtime, typescript.js and host.js evaluated.
    pub load_s: f64,
    /// The input read, every file parsed (ahead or by `ts.createProgram`), modules resolved.
    pub program_s: f64,
    /// `ts.bindSourceFile` of every file.
    pub bind_s: f64,
    /// Every checker's turns one after another: its creation, its files, its report, and the
    /// collections the schedule made at the ends of turns.
    pub check_s: f64,
    /// The collection schedule and what it did.
    pub collections: Collections,
}

/// Runs `f` on a new thread (`tsc-0` in the docs; unnamed, see below) with a checker's stack,
/// and lets it continue in the caller's slice arena: the caller parks its arena
/// (`slice_alloc::release_arena`) before the thread makes its first request, so that a run at
/// 1 checker allocates from one arena only, as a single-threaded compiler does. Under any other
/// allocator the release does nothing.
pub(crate) fn on_checker_thread<R: Send>(
    f: impl FnOnce() -> Result<R, Error> + Send,
) -> Result<R, Error> {
    let gate = Gate::default();
    std::thread::scope(|scope| {
        // Unnamed: std copies a thread's name onto the heap as the thread starts (for its
        // stack overflow message), before any code of ours runs there, and that request would
        // claim an arena of its own whenever it came before the release below.
        let handle = std::thread::Builder::new()
            .stack_size(THREAD_STACK_BYTES)
            .spawn_scoped(scope, || {
                gate.wait();
                f()
            })
            .map_err(|source| Error::Thread { index: 0, source })?;
        // Nothing between here and the join allocates.
        slice_alloc::release_arena();
        gate.open();
        handle.join().unwrap_or_else(|_| {
            Err(Error::Engine {
                index: 0,
                message: "the checker thread panicked".to_string(),
            })
        })
    })
}

/// A one-way signal that allocates nothing.
#[derive(Default)]
struct Gate {
    open: Mutex<bool>,
    opened: Condvar,
}

impl Gate {
    fn wait(&self) {
        let mut open = lock(&self.open);
        while !*open {
            open = self.opened.wait(open).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn open(&self) {
        *lock(&self.open) = true;
        self.opened.notify_all();
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Builds the program from `input_json` (the host's input) and checks its `files` root files
/// with `count` checkers under the collection schedule `collect`, the program's files parsed where
/// `parse` says. Call it on a thread with [`THREAD_STACK_BYTES`] of stack
/// (`on_checker_thread`): it is checker 0.
pub(crate) fn check(
    script: &[u8],
    input_json: &str,
    files: usize,
    count: usize,
    collect: Collect,
    parse: Parse,
) -> Result<Run, Error> {
    let at = |index: usize| move |message: String| Error::Engine { index, message };
    let start = Instant::now();
    // Checker 0's thread makes the runtime and loads the compiler and the input.
    counted::make_as(0);
    let counters = Arc::new(Counters::new(count, collect == Collect::Handback));
    let engine = Engine::with_counters(counters.clone()).map_err(at(0))?;
    let collector = Collector::new(&engine, collect, counters);
    phase(&engine, &collector, |ctx| {
        eval(&ctx, script.to_vec(), "typescript.js")?;
        eval(&ctx, HOST_JS.as_bytes().to_vec(), "host.js")?;
        Ok(())
    })?;
    let load_s = start.elapsed().as_secs_f64();

    let t = Instant::now();
    let ahead = phase(&engine, &collector, |ctx| {
        let input = ctx
            .json_parse(input_json)
            .map_err(|e| js_error(&ctx, e, "parsing the host input"))?;
        call::<u32>(&ctx, "load", (input,))
    })? as usize;
    let input_s = t.elapsed().as_secs_f64();

    let t = Instant::now();
    let turns = Turns::default();
    let plan = Plan::new(parse, ahead, files, count);
    let tally = Tally::default();
    let reports = std::thread::scope(|scope| {
        let mut others = Vec::with_capacity(count.saturating_sub(1));
        let shared = Shared {
            engine: &engine,
            turns: &turns,
            collector: &collector,
            tally: &tally,
            plan,
        };
        for index in 1..count {
            let handle = std::thread::Builder::new()
                .name(format!("tsc-{index}"))
                .stack_size(THREAD_STACK_BYTES)
                .spawn_scoped(scope, move || checker(shared, index).map_err(at(index)));
            match handle {
                Ok(handle) => others.push(handle),
                Err(source) => {
                    turns.fail();
                    return Err(Error::Thread { index, source });
                }
            }
        }
        let first = checker(shared, 0).map_err(at(0));
        let mut reports = vec![first];
        for (i, handle) in others.into_iter().enumerate() {
            reports.push(handle.join().unwrap_or_else(|_| {
                Err(Error::Engine {
                    index: i + 1,
                    message: "the checker thread panicked".to_string(),
                })
            }));
        }
        // The first checker that failed for a reason of its own, not one stopped by another's.
        let failed = reports
            .iter()
            .position(|r| matches!(r, Err(Error::Engine { message, .. }) if message != STOPPED));
        match failed {
            Some(i) => Err(reports.swap_remove(i).unwrap_err()),
            None => reports.into_iter().collect(),
        }
    });
    let turns_s = t.elapsed().as_secs_f64();
    let collections = collector.totals(collect);
    // The run ends here and the process exits, as a compiler does: tearing the runtime down
    // would free its millions of objects one by one (1.0 s of a 13.8 s trpc run, measured),
    // work no compiler run pays and no contender should be timed on.
    std::mem::forget(engine);
    // The program's steps ran among the turns; the check is the rest of them.
    let (program_turns_s, bind_s) = (
        tally.seconds(&tally.program_ns),
        tally.seconds(&tally.bind_ns),
    );
    Ok(Run {
        reports: reports?,
        bound_symbols: tally.bound_symbols.load(Relaxed),
        parsed_ahead: plan.ahead as u64,
        taken_ahead: tally.taken_ahead.load(Relaxed),
        load_s,
        program_s: input_s + program_turns_s,
        bind_s,
        check_s: (turns_s - program_turns_s - bind_s).max(0.0),
        collections,
    })
}

/// One phase on thread `tsc-0` (checker 0's) before the checkers start, then the schedule's
/// turn end: the phases are this thread's, and so is the first step, so none hands over.
fn phase<R>(
    engine: &Engine,
    collector: &Collector,
    f: impl FnOnce(Ctx<'_>) -> Result<R, String>,
) -> Result<R, Error> {
    let value = engine
        .context
        .with(f)
        .map_err(|message| Error::Engine { index: 0, message })?;
    collector.at_turn_end(false);
    Ok(value)
}

/// What every checker thread works with.
#[derive(Clone, Copy)]
struct Shared<'a> {
    engine: &'a Engine,
    turns: &'a Turns,
    collector: &'a Collector<'a>,
    tally: &'a Tally,
    plan: Plan,
}

/// What the steps of the program build did, added up over the threads that took them.
#[derive(Default)]
struct Tally {
    /// Nanoseconds in `Parse` and `Program` steps, and in binding steps.
    program_ns: AtomicU64,
    bind_ns: AtomicU64,
    /// Symbols the binder made.
    bound_symbols: AtomicU64,
    /// Files parsed ahead that the program took.
    taken_ahead: AtomicU64,
}

impl Tally {
    fn add(&self, counter: &AtomicU64, since: Instant) {
        counter.fetch_add(since.elapsed().as_nanos() as u64, Relaxed);
    }

    fn seconds(&self, counter: &AtomicU64) -> f64 {
        counter.load(Relaxed) as f64 / 1e9
    }
}

/// The message of a checker that stopped because another one failed.
const STOPPED: &str = "stopped: another checker failed";

/// Checker `index`: its steps of the plan, one a turn; the checker itself is made on its first
/// turn that checks or reports.
fn checker(shared: Shared<'_>, index: usize) -> Result<Report, String> {
    let Shared {
        engine,
        turns,
        collector,
        tally,
        plan,
    } = shared;
    // A checker that returns early, by error or panic, stops the others instead of leaving them
    // waiting for its turn.
    let guard = FailOnDrop(turns);
    counted::make_as(index);
    let mut made = false;
    let mut report = None;
    for (at, step) in plan.steps(index) {
        if !turns.wait(at) {
            std::mem::forget(guard);
            return Err(STOPPED.to_string());
        }
        collector.counters.take_back();
        let t = Instant::now();
        engine.context.with(|ctx| -> Result<(), String> {
            match step {
                Step::Parse(j) => call::<()>(&ctx, "parse", (j as u32,)),
                Step::Program => {
                    call::<u32>(&ctx, "program", ())?;
                    let taken: u32 = call(&ctx, "parsedAhead", ())?;
                    tally.taken_ahead.store(u64::from(taken), Relaxed);
                    Ok(())
                }
                Step::BindFile(_) | Step::Bind => {
                    let symbols: f64 = match step {
                        Step::BindFile(j) => call(&ctx, "bindFile", (j as u32,))?,
                        _ => call(&ctx, "bind", ())?,
                    };
                    tally.bound_symbols.fetch_add(symbols as u64, Relaxed);
                    Ok(())
                }
                Step::Check(i) => {
                    make_checker(&ctx, index, &mut made)?;
                    call::<()>(&ctx, "checkFile", (index as u32, i as u32))
                }
                Step::Report(_) => {
                    make_checker(&ctx, index, &mut made)?;
                    let json: String = call(&ctx, "report", (index as u32,))?;
                    report =
                        Some(serde_json::from_str(&json).map_err(|e| {
                            format!("the host's report is not what was expected: {e}")
                        })?);
                    Ok(())
                }
            }
        })?;
        match step {
            Step::Parse(_) | Step::Program => tally.add(&tally.program_ns, t),
            Step::BindFile(_) | Step::Bind => tally.add(&tally.bind_ns, t),
            Step::Check(_) | Step::Report(_) => {}
        }
        collector.at_turn_end(plan.owner(at + 1).is_some_and(|next| next != index));
        turns.pass();
    }
    std::mem::forget(guard);
    report.ok_or_else(|| "the checker made no report".to_string())
}

/// Makes checker `index` on its first turn that checks or reports.
fn make_checker(ctx: &Ctx<'_>, index: usize, made: &mut bool) -> Result<(), String> {
    if !*made {
        call::<()>(ctx, "checker", (index as u32,))?;
        *made = true;
    }
    Ok(())
}

/// Whose turn it is: the next step of the plan, and whether a checker failed.
#[derive(Default)]
struct Turns {
    state: Mutex<(usize, bool)>,
    changed: Condvar,
}

impl Turns {
    /// Waits until `step` is due; `false` when a checker failed instead.
    fn wait(&self, step: usize) -> bool {
        let mut state = lock(&self.state);
        while state.0 != step && !state.1 {
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        !state.1
    }

    fn pass(&self) {
        lock(&self.state).0 += 1;
        self.changed.notify_all();
    }

    fn fail(&self) {
        lock(&self.state).1 = true;
        self.changed.notify_all();
    }
}

struct FailOnDrop<'a>(&'a Turns);

impl Drop for FailOnDrop<'_> {
    fn drop(&mut self) {
        self.0.fail();
    }
}

/// The collection schedule, run by the thread whose turn it is.
struct Collector<'a> {
    runtime: &'a Runtime,
    counters: Arc<Counters>,
    decider: Mutex<Decider>,
    collections: AtomicU64,
    collect_ns: AtomicU64,
}

impl<'a> Collector<'a> {
    fn new(engine: &'a Engine, collect: Collect, counters: Arc<Counters>) -> Self {
        let decider = Decider::new(collect);
        if !decider.engine_triggers() {
            // The engine's own trigger (checked at every object allocation) off: the schedule
            // collects at turn ends only.
            engine.runtime.set_gc_threshold(usize::MAX);
        }
        Collector {
            runtime: &engine.runtime,
            counters,
            decider: Mutex::new(decider),
            collections: AtomicU64::new(0),
            collect_ns: AtomicU64::new(0),
        }
    }

    /// At the end of a phase or turn, on the thread that had it; `hands_over` when the next
    /// turn is another thread's.
    fn at_turn_end(&self, hands_over: bool) {
        let mut decider = lock(&self.decider);
        let allocated = self.counters.allocated.load(Relaxed);
        if decider.at_turn_end(allocated, self.counters.live(), hands_over) {
            let t = Instant::now();
            self.runtime.run_gc();
            self.collections.fetch_add(1, Relaxed);
            self.collect_ns
                .fetch_add(t.elapsed().as_nanos() as u64, Relaxed);
            decider.collected(self.counters.live());
        }
    }

    fn totals(&self, schedule: Collect) -> Collections {
        Collections {
            schedule,
            count: self.collections.load(Relaxed),
            seconds: self.collect_ns.load(Relaxed) as f64 / 1e9,
            engine_allocated_bytes: self.counters.allocated.load(Relaxed),
            handed_back: self.counters.handed_back.load(Relaxed),
            taken_back: self.counters.taken_back.load(Relaxed),
        }
    }
}

/// A QuickJS runtime and context as every run makes them: the engine's stack limit set for a
/// thread of [`THREAD_STACK_BYTES`], every allocation from the global allocator. Any thread
/// may use it, one at a time (each [`Engine::eval`] holds the runtime's lock).
pub struct Engine {
    context: Context,
    runtime: Runtime,
}

impl Engine {
    pub fn new() -> Result<Engine, String> {
        Engine::with_counters(Arc::new(Counters::new(1, false)))
    }

    fn with_counters(counters: Arc<Counters>) -> Result<Engine, String> {
        let runtime = Runtime::new_with_alloc(Counted(counters))
            .map_err(|e| format!("creating a QuickJS runtime: {e}"))?;
        let context =
            Context::full(&runtime).map_err(|e| format!("creating a QuickJS context: {e}"))?;
        // rquickjs's `set_max_stack_size` takes a limit over 16 MiB for none at all, and with no
        // limit deep recursion overflows the thread's stack (SIGSEGV, the process aborts)
        // instead of throwing RangeError: set the engine's own limit directly. Every entry
        // (`Context::with`) measures it from the entering thread's stack pointer again.
        context.with(|ctx| {
            // SAFETY: the context is live and its runtime locked by `with`; JS_SetMaxStackSize
            // only stores the size and recomputes the limit from the stored stack top.
            unsafe {
                let rt = rquickjs_sys::JS_GetRuntime(ctx.as_raw().as_ptr());
                rquickjs_sys::JS_SetMaxStackSize(rt, MAX_STACK_BYTES as _);
            }
        });
        Ok(Engine { context, runtime })
    }

    /// Evaluates `source` as a global script named `name`; its completion value as JSON
    /// (`undefined` for none), or the exception's message and stack.
    pub fn eval(&self, source: &[u8], name: &str) -> Result<String, String> {
        self.context.with(|ctx| {
            let value = eval(&ctx, source.to_vec(), name)?;
            let json = ctx
                .json_stringify(value)
                .map_err(|e| js_error(&ctx, e, "serialising the completion value"))?;
            Ok(json
                .and_then(|s| s.to_string().ok())
                .unwrap_or_else(|| "undefined".to_string()))
        })
    }
}

fn eval<'js>(ctx: &Ctx<'js>, source: Vec<u8>, name: &str) -> Result<Value<'js>, String> {
    let mut options = EvalOptions::default();
    options.strict = false;
    options.filename = Some(name.to_string());
    ctx.eval_with_options::<Value, _>(source, options)
        .map_err(|e| js_error(ctx, e, &format!("evaluating {name}")))
}

/// Calls `checkbench.NAME(args)`, the host's function.
fn call<'js, R: rquickjs::FromJs<'js>>(
    ctx: &Ctx<'js>,
    name: &str,
    args: impl rquickjs::function::IntoArgs<'js>,
) -> Result<R, String> {
    let host: Object = ctx
        .globals()
        .get("checkbench")
        .map_err(|e| js_error(ctx, e, "host.js defined no `checkbench`"))?;
    let function: Function = host
        .get(name)
        .map_err(|e| js_error(ctx, e, &format!("checkbench.{name} is missing")))?;
    function
        .call(args)
        .map_err(|e| js_error(ctx, e, &format!("checkbench.{name}")))
}

/// A JavaScript exception as text: its message and stack, or the engine's error.
fn js_error(ctx: &Ctx<'_>, error: rquickjs::Error, doing: &str) -> String {
    if !matches!(error, rquickjs::Error::Exception) {
        return format!("{doing}: {error}");
    }
    let thrown: Value = ctx.catch();
    let text = |key: &str| -> Option<String> {
        thrown
            .as_object()
            .and_then(|o| o.get::<_, Option<String>>(key).ok().flatten())
    };
    match (text("message"), text("stack")) {
        (Some(message), Some(stack)) => format!("{doing}: {message}\n{stack}"),
        (Some(message), None) => format!("{doing}: {message}"),
        _ => format!(
            "{doing}: {}",
            thrown
                .as_string()
                .and_then(|s| s.to_string().ok())
                .unwrap_or_else(|| format!("{thrown:?}"))
        ),
    }
}
