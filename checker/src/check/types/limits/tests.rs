//! The limits on small sources, with a lowered limit where the real one takes too long to
//! reach: the relation budget, the type table guard, the instantiation count and depth.
use crate::bind::{self, Scope};
use crate::check::Checker;
use crate::diag::{Code, Diagnostic};
use crate::parse;

/// A program whose every statement makes new types by instantiation, then an error.
fn program() -> String {
    let mut src = String::from("interface Box<T> { value: T; pair: [T, T] }\n");
    for i in 0..400 {
        src.push_str(&format!(
            "declare const b{i}: Box<{i}>;\nconst v{i}: [{i}, {i}] = b{i}.pair;\n"
        ));
    }
    src.push_str("const late: string = 1;\n");
    src
}

/// Checks `src` as `a.ts` in one checker whose type table guard is `max_types`: its
/// diagnostics, and how many types it holds at the end.
fn check_with_guard(src: &str, max_types: usize) -> (Vec<Diagnostic>, usize) {
    let parsed = vec![parse::parse("a.ts", src.as_bytes(), false)];
    let bound = bind::bind_all(&parsed);
    let globals = bind::merge_globals(&bound.files);
    let mut checker = Checker::new(&parsed, Scope::new(&bound, &globals));
    checker.limits.max_types = max_types;
    checker.check_file(0);
    let types = checker.types.len();
    (checker.take_diagnostics(), types)
}

/// Checks `files` (`(path, source)`) in order in one checker whose relation budget is
/// `budget`: the diagnostics of the last file.
fn check_with_budget(files: &[(&str, &str)], budget: i64) -> Vec<Diagnostic> {
    check_last(files, |limits| limits.relation_budget = budget)
}

/// Checks `files` (`(path, source)`) in order in one checker whose limits `set`
/// lowers: the diagnostics of the last file.
fn check_last(files: &[(&str, &str)], set: impl FnOnce(&mut super::Limits)) -> Vec<Diagnostic> {
    check_each(files, set).pop().unwrap_or_default()
}

/// Checks `files` (`(path, source)`) in order in one checker whose limits `set`
/// lowers: the diagnostics of each file.
fn check_each(
    files: &[(&str, &str)],
    set: impl FnOnce(&mut super::Limits),
) -> Vec<Vec<Diagnostic>> {
    let parsed: Vec<_> = files
        .iter()
        .map(|(p, src)| parse::parse(p, src.as_bytes(), false))
        .collect();
    let bound = bind::bind_all(&parsed);
    let globals = bind::merge_globals(&bound.files);
    let mut checker = Checker::new(&parsed, Scope::new(&bound, &globals));
    set(&mut checker.limits);
    (0..files.len())
        .map(|i| {
            checker.check_file(i as u32);
            checker.take_diagnostics()
        })
        .collect()
}

/// A union of 40 string literals, related to itself at `n` nodes.
fn union_relations(n: usize) -> String {
    let members: Vec<String> = (0..40).map(|i| format!("'a{i}'")).collect();
    let mut src = format!(
        "type U = {};\ntype V = U | 'b';\ndeclare const u: U;\n",
        members.join(" | ")
    );
    for i in 0..n {
        src.push_str(&format!("const v{i}: V = u;\n"));
    }
    src
}

#[test]
fn an_overflowing_relation_fails_and_is_reported_at_every_node_that_asks_for_it() {
    let diags = check_with_budget(&[("a.ts", &union_relations(2))], 100);
    let lines: Vec<(u32, Code)> = diags.iter().map(|d| (d.line, d.code)).collect();
    assert!(
        lines.contains(&(4, Code::ExcessiveComplexity))
            && lines.contains(&(5, Code::ExcessiveComplexity)),
        "{diags:?}"
    );
    assert!(
        diags.iter().all(|d| d.code != Code::ExcessiveComplexity
            || d.message
                .starts_with("Excessive complexity comparing types")),
        "{diags:?}"
    );
    // With TypeScript's budget the same relations fit.
    let diags = check_with_budget(&[("a.ts", &union_relations(2))], super::RELATION_BUDGET);
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn the_relation_budget_does_not_depend_on_what_the_checker_related_before() {
    let target = union_relations(1);
    let mut before = String::new();
    for i in 0..200 {
        before.push_str(&format!(
            "type W{i} = 'x{i}' | 'y{i}' | 'z{i}';\ndeclare const w{i}: W{i};\nconst o{i}: W{i} | 'q' = w{i};\n"
        ));
    }
    let budget = 2_000;
    let alone = check_with_budget(&[("a.ts", &target)], budget);
    let after = check_with_budget(&[("b.ts", &before), ("a.ts", &target)], budget);
    assert_eq!(format!("{alone:?}"), format!("{after:?}"));
}

#[test]
fn the_type_table_guard_stops_a_checker_and_says_so() {
    let src = program();
    let (diags, unguarded) = check_with_guard(&src, super::MAX_TYPES);
    let codes: Vec<Code> = diags.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::NotAssignable], "{diags:?}");

    let max = unguarded / 2;
    let (diags, types) = check_with_guard(&src, max);
    let held = format!("This checker holds {max} types, its limit");
    assert!(
        diags
            .iter()
            .any(|d| d.code == Code::ExcessivelyDeep && d.message.contains(&held)),
        "{diags:?}"
    );
    assert!(
        diags.iter().all(|d| d.code == Code::ExcessivelyDeep),
        "nothing after the guard is checked: {diags:?}"
    );
    // What one statement makes past the limit, without instantiating, is all it grows.
    assert!(types <= max + 16, "{types} types past a guard of {max}");
}

/// `c.ts` declares `deep`, whose annotation takes some 20 instantiations; `a.ts` spends
/// most of a lowered instantiation count in one annotation that then names `typeof
/// deep`; `b.ts` reads `deep` from the top; `c.ts` is checked last, so `a.ts` or `b.ts`
/// resolves `deep` first. `deep`'s type counts its own instantiations, so `b.ts` checked
/// after `a.ts` in one checker sees the type it sees alone (before, `deep` kept the
/// error type the count left it in `a.ts`'s annotation, and `b.ts` reported nothing at
/// 1 checker and `TS2322` at 2).
#[test]
fn a_declaration_first_reached_near_the_instantiation_count_has_its_own_type() {
    let nest = format!("{}T{}", "Box<".repeat(20), ">".repeat(20));
    let c = format!(
        "export interface Box<T> {{ v: T }}\n\
         export type Nest<T> = {nest};\n\
         export declare const deep: Nest<string>;\n"
    );
    let nests: Vec<String> = (0..8).map(|i| format!("Nest<{i}>")).collect();
    let a = format!(
        "import {{ deep, Nest }} from './c';\n\
         const r: [{}, typeof deep] | string = '';\n",
        nests.join(", ")
    );
    let b = "import { deep } from './c';\nconst s: number = deep;\n";
    let max = |l: &mut super::Limits| l.max_instantiations = 160;
    let alone = check_each(&[("b.ts", b), ("c.ts", &c)], max).remove(0);
    assert!(
        alone.iter().any(|d| d.code == Code::NotAssignable),
        "b.ts alone sees deep's type: {alone:?}"
    );
    let after = check_each(&[("a.ts", &a), ("b.ts", b), ("c.ts", &c)], max).remove(1);
    assert_eq!(format!("{alone:?}"), format!("{after:?}"));
}

/// `Box<...<T>...>`, 20 references deep, instantiated by `Nest<string>`.
fn nested_alias() -> String {
    format!(
        "interface Box<T> {{ v: T }}\n\
         type Nest<T> = {}T{};\n\
         declare const d: Nest<string>;\n\
         const n: number = d;\n",
        "Box<".repeat(20),
        ">".repeat(20)
    )
}

/// The lines and codes of `diags`.
fn lines(diags: &[Diagnostic]) -> Vec<(u32, Code)> {
    diags.iter().map(|d| (d.line, d.code)).collect()
}

#[test]
fn past_the_instantiation_count_a_node_reports_ts2589() {
    let src = nested_alias();
    let under = check_last(&[("a.ts", &src)], |_| {});
    assert_eq!(lines(&under), [(4, Code::NotAssignable)]);
    // The annotation's 20 instantiations pass a count of 10: `TS2589` where it is
    // resolved, the innermost `Box`es the error type.
    let over = check_last(&[("a.ts", &src)], |l| l.max_instantiations = 10);
    assert_eq!(
        lines(&over),
        [(3, Code::ExcessivelyDeep), (4, Code::NotAssignable)],
        "{over:?}"
    );
}

#[test]
fn past_the_instantiation_depth_a_node_reports_ts2589() {
    let src = nested_alias();
    let over = check_last(&[("a.ts", &src)], |l| l.max_depth = 10);
    assert_eq!(
        lines(&over),
        [(3, Code::ExcessivelyDeep), (4, Code::NotAssignable)],
        "{over:?}"
    );
    let deep_enough = check_last(&[("a.ts", &src)], |l| l.max_depth = 30);
    assert_eq!(lines(&deep_enough), [(4, Code::NotAssignable)]);
}
