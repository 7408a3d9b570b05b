//! Type parameters' defaults (`check/symbols/defaults.rs`): each resolved once per checker, the
//! same whoever asks first.
use std::sync::mpsc;
use std::time::Duration;

use checker::Options;

use crate::{corpus, render};

/// How long a program here may take at one checker count. They take milliseconds; before
/// issue 42 the first ran until the nesting limit of every branch, exponentially.
const LIMIT: Duration = Duration::from_secs(20);

/// The rendered diagnostics of `files` at `checkers` checkers, or a failure past [`LIMIT`].
fn diagnostics_within(files: &[(&str, &str)], checkers: usize) -> String {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (&p[..], &t[..])).collect();
        let out = checker::run(&corpus(&refs), &Options { checkers }).expect("sources");
        let _ = tx.send((render(&out.diagnostics), out.counts.types));
    });
    let (diagnostics, types) = rx
        .recv_timeout(LIMIT)
        .unwrap_or_else(|_| panic!("not finished in {LIMIT:?} at {checkers} checkers"));
    assert!(types < 20_000, "{types} types at {checkers} checkers");
    diagnostics
}

/// json-schema-to-ts@3.1.1's shape: `ParseSchema`'s default names a dozen aliases whose
/// defaults name `ParseSchema` again (here `P`, `Q`, `Q2`, `Q3`). `b.ts` first meets `P`
/// while its own alias `U` is being resolved (a reference before the declaration): until
/// issue 42 a default met there was resolved again at every reference, each to the nesting
/// limit, so a checker that had not resolved `P` from the top level before (`b.ts` alone,
/// at 2 checkers) did not finish (2.7 GB in 30 s), and one checker (`a.ts` first) missed
/// the `TS2322`, its `P` cut short by the nesting limit.
#[test]
fn defaults_that_name_each_other_resolve_once_whichever_file_asks_first() {
    let a = "export type P<S, R = S extends [infer E] ? Q<E> : S extends [infer E, infer F] \
             ? Q2<E | F> : S extends [infer E, infer F, infer G] ? Q3<E | F | G> : { done: S }> \
             = R;\n\
             export type Q<S, X = P<[S, S]>> = X;\n\
             export type Q2<S, X = P<[S, S, S]>> = X;\n\
             export type Q3<S, X = P<S>> = X;\n";
    let b = "import { P } from './a';\n\
             const ok: U<[1]> = { done: 1 };\n\
             const bad: U<['x']> = { done: 1 };\n\
             type U<T> = P<T>;\n";
    let files = [("a.ts", a), ("b.ts", b)];
    let one = diagnostics_within(&files, 1);
    assert!(one.contains("b.ts:3:7 - error TS2322"), "{one}");
    assert_eq!(one.lines().count(), 1, "{one}");
    for n in [2, 3, 8] {
        assert_eq!(one, diagnostics_within(&files, n), "at {n} checkers");
    }
}

/// A default that names its own alias where it is not deferred is circular: the error
/// type, and the alias being resolved around it circular (`TS2456`), whichever is resolved
/// first (`A` from `a.ts`, or `P`'s default from `c.ts`).
#[test]
fn a_default_that_leads_back_to_its_asker_is_circular_whichever_is_resolved_first() {
    let a = "import { P } from './b';\nexport type A = P<1>;\n";
    let b = "import { A } from './a';\nexport type P<S, R = A> = R;\n";
    let c = "import { P } from './b';\nconst x: P<1> = 1;\n";
    let files = [("a.ts", a), ("b.ts", b), ("c.ts", c)];
    let one = diagnostics_within(&files, 1);
    assert_eq!(
        one,
        "a.ts:2:13 - error TS2456: Type alias 'A' circularly references itself.\n"
    );
    for n in [2, 3] {
        assert_eq!(one, diagnostics_within(&files, n), "at {n} checkers");
    }
}

/// Forty aliases each defaulting two parameters to the next: `A0<1>`'s type literal has
/// two type literals as arguments of its outer type parameters, each two more, and so on.
/// Instantiating them again at every mention took time exponential in the length (20
/// levels 1.7 s, 22 levels 4.6 s, before issue 42); each type and mapper is now
/// instantiated once (`check/types/outer.rs`).
#[test]
fn a_chain_of_aliases_defaulting_two_parameters_to_the_next_instantiates_each_once() {
    let n = 40;
    let mut src: String = (0..n)
        .map(|k| {
            format!(
                "type A{k}<S, X = A{}<S>, Y = A{}<[S]>> = {{ x: X; y: Y }};\n",
                k + 1,
                k + 1
            )
        })
        .collect();
    src.push_str(&format!(
        "type A{n}<S> = {{ s: S }};\ndeclare const u: A0<1>;\n"
    ));
    src.push_str(&format!("const x: string = u{}.s;\n", ".x".repeat(n)));
    src.push_str(&format!("const y: [1] = u{}.y.s;\n", ".x".repeat(n - 1)));
    let files = [("a.ts", &src[..])];
    let one = diagnostics_within(&files, 1);
    assert_eq!(
        one,
        format!(
            "a.ts:{}:7 - error TS2322: Type '1' is not assignable to type 'string'.\n",
            n + 3
        )
    );
    assert_eq!(one, diagnostics_within(&files, 2));
}
