//! QuickJS runtimes, one per checker thread: load typescript.js and the host, build the
//! program, bind, check a share of the files. Every allocation the engine makes goes through
//! `rquickjs`'s `rust-alloc` allocator to the process's `#[global_allocator]`: the contender.
use std::time::Instant;

use rquickjs::context::EvalOptions;
use rquickjs::{Context, Ctx, Function, Object, Runtime, Value};
use serde::Deserialize;

use crate::{Diagnostic, Error};

/// The compiler host and driver (`js/host.js`), evaluated after typescript.js.
pub const HOST_JS: &str = include_str!("../js/host.js");

/// Stack of each checker thread: TypeScript's checker recurses, and QuickJS recurses on
/// the C stack with it. Virtual memory, resident only as deep as the recursion goes.
pub(crate) const THREAD_STACK_BYTES: usize = corpora::depth::STACK_BYTES;

/// The engine's own stack limit (`JS_SetMaxStackSize`), a margin below the thread's stack
/// so that QuickJS throws `RangeError` before the thread overflows.
pub const MAX_STACK_BYTES: usize = THREAD_STACK_BYTES - (16 << 20);

/// What one checker's runtime reports (`checkbench.check`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Report {
    pub diagnostics: Vec<Diagnostic>,
    pub source_files: u64,
    pub nodes: u64,
    pub symbols: u64,
    pub types: u64,
    pub relations: u64,
    pub version: String,
    /// The compiler options by name, as a tsconfig.json spells them.
    pub options: serde_json::Value,
}

/// One checker's report and phase times, in seconds.
#[derive(Debug)]
pub(crate) struct Share {
    pub report: Report,
    /// New runtime, typescript.js and host.js evaluated.
    pub load_s: f64,
    /// `ts.createProgram`: every file parsed, modules resolved.
    pub program_s: f64,
    /// `program.getTypeChecker()`: every file bound, globals merged.
    pub bind_s: f64,
    /// This checker's share of the pre-emit diagnostics.
    pub check_s: f64,
}

/// Runs `count` checkers, each on its own thread with its own runtime, and returns their
/// shares in checker order.
pub(crate) fn run_shares(
    script: &[u8],
    input_json: &str,
    count: usize,
) -> Result<Vec<Share>, Error> {
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(count);
        for index in 0..count {
            let handle = std::thread::Builder::new()
                .name(format!("tsc-{index}"))
                .stack_size(THREAD_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    check_share(script, input_json, index, count)
                        .map_err(|message| Error::Engine { index, message })
                })
                .map_err(|source| Error::Thread { index, source })?;
            handles.push(handle);
        }
        handles
            .into_iter()
            .enumerate()
            .map(|(index, h)| {
                h.join().unwrap_or_else(|_| {
                    Err(Error::Engine {
                        index,
                        message: "the checker thread panicked".to_string(),
                    })
                })
            })
            .collect()
    })
}

/// A QuickJS runtime and context as every checker makes them: the engine's stack limit set
/// for a thread of [`THREAD_STACK_BYTES`], every allocation from the global allocator.
/// Single-threaded: make it on the thread that uses it.
pub struct Engine {
    context: Context,
    // Kept for its lifetime; the context holds the runtime too.
    _runtime: Runtime,
}

impl Engine {
    pub fn new() -> Result<Engine, String> {
        let runtime = Runtime::new().map_err(|e| format!("creating a QuickJS runtime: {e}"))?;
        runtime.set_max_stack_size(MAX_STACK_BYTES);
        let context =
            Context::full(&runtime).map_err(|e| format!("creating a QuickJS context: {e}"))?;
        Ok(Engine {
            context,
            _runtime: runtime,
        })
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

/// One checker: a fresh engine, the whole program, the root files `index mod count`.
fn check_share(
    script: &[u8],
    input_json: &str,
    index: usize,
    count: usize,
) -> Result<Share, String> {
    let start = Instant::now();
    let engine = Engine::new()?;
    let share = engine.context.with(|ctx| {
        eval(&ctx, script.to_vec(), "typescript.js")?;
        eval(&ctx, HOST_JS.as_bytes().to_vec(), "host.js")?;
        let host: Object = ctx
            .globals()
            .get("checkbench")
            .map_err(|e| js_error(&ctx, e, "host.js defined no `checkbench`"))?;
        let load_s = start.elapsed().as_secs_f64();

        let t = Instant::now();
        let input = ctx
            .json_parse(input_json)
            .map_err(|e| js_error(&ctx, e, "parsing the host input"))?;
        call::<u32>(&ctx, &host, "program", (input,))?;
        let program_s = t.elapsed().as_secs_f64();

        let t = Instant::now();
        call::<u32>(&ctx, &host, "bind", ())?;
        let bind_s = t.elapsed().as_secs_f64();

        let t = Instant::now();
        let json: String = call(&ctx, &host, "check", (index as u32, count as u32))?;
        let check_s = t.elapsed().as_secs_f64();
        let report: Report = serde_json::from_str(&json)
            .map_err(|e| format!("the host's report is not what was expected: {e}"))?;
        Ok(Share {
            report,
            load_s,
            program_s,
            bind_s,
            check_s,
        })
    });
    // The run ends here and the process exits, as a compiler does: tearing the runtime down
    // would free its millions of objects one by one (1.0 s of a 13.8 s trpc run, measured),
    // work no compiler run pays and no contender should be timed on.
    std::mem::forget(engine);
    share
}

fn eval<'js>(ctx: &Ctx<'js>, source: Vec<u8>, name: &str) -> Result<Value<'js>, String> {
    let mut options = EvalOptions::default();
    options.strict = false;
    options.filename = Some(name.to_string());
    ctx.eval_with_options::<Value, _>(source, options)
        .map_err(|e| js_error(ctx, e, &format!("evaluating {name}")))
}

fn call<'js, R: rquickjs::FromJs<'js>>(
    ctx: &Ctx<'js>,
    host: &Object<'js>,
    name: &str,
    args: impl rquickjs::function::IntoArgs<'js>,
) -> Result<R, String> {
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
