//! TypeScript 5.5's inferred type predicates: a one-parameter function without a return
//! type whose body returns one boolean expression that narrows the parameter is a type
//! guard, where the expression's false branch holds what its true branch does not. Each
//! program's errors are on the lines and with the codes `tsc` reports for it.
use crate::line_positions;

/// A list whose `keep` has `filter`'s two overloads.
const LIST: &str = "interface List<T> {
    keep<S extends T>(f: (value: T) => value is S): List<S>;
    keep(f: (value: T) => unknown): List<T>;
    first: T;
}
";

#[test]
fn an_arrow_that_narrows_its_parameter_picks_the_type_guard_overload() {
    let src = format!(
        "{LIST}declare const xs: List<string | undefined>;
const a: string = xs.keep(x => x !== undefined).first;
const b: string = xs.keep(x => typeof x === \"string\").first;
const c: string = xs.keep(function (x) {{ return x != null; }}).first;
const d: string = xs.keep(x => !!x).first;
const e: string = xs.keep(x => x === \"a\").first;
declare const ys: List<string | number>;
const f: number = ys.keep(y => typeof y === \"number\").first;
"
    );
    // Truthiness does not say `""` is gone on the false branch: no predicate for `!!x`.
    assert_eq!(line_positions(&src), ["10:7 TS2322"]);
}

#[test]
fn guards_and_discriminants_in_the_body_make_predicates_too() {
    let src = format!(
        "{LIST}interface Text {{ kind: \"text\"; body: string }}
interface Shape {{ kind: \"shape\"; sides: number }}
declare function isText(el: Text | Shape): el is Text;
declare const els: List<Text | Shape>;
const g: Text = els.keep(el => isText(el)).first;
const h: Text = els.keep(el => el.kind === \"text\").first;
"
    );
    assert_eq!(line_positions(&src), Vec::<String>::new());
}

#[test]
fn a_call_to_a_function_with_an_inferred_predicate_narrows_its_argument() {
    assert_eq!(
        line_positions(
            "const isStr = (v: unknown) => typeof v === \"string\";
declare const u: unknown;
if (isStr(u)) { const s: string = u; }
function isNum(v: string | number) { return typeof v === \"number\"; }
declare const w: string | number;
if (isNum(w)) { const n: number = w; } else { const s: string = w; }
const notInferred = (v: string | undefined) => v !== undefined && v.length > 0;
declare const o: string | undefined;
if (notInferred(o)) { const s: string = o; }
"
        ),
        ["9:29 TS2322"]
    );
}
