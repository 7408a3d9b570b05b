//! The relation cache keeps no answer that cut short a comparison a relation in progress
//! would have found deeply nested (`check/types/limits.rs`): what a checker decides about two
//! types does not depend on which files it checked first.
use checker::Options;
use corpora::{Corpus, Provenance, SourceFile};

use crate::MINI_LIB;

/// Arrays whose methods return arrays of tuples of their element type, so relating two
/// tuple types compares nested tuple types (deeply nested past three).
const LIB: &str = r#"
interface Array<T> {
    entries(): Array<[number, T]>;
    slice(start?: number, end?: number): T[];
    concat(...items: T[][]): T[];
    every(f: (value: T, index: number) => boolean): boolean;
}
interface ArrayConstructor { of<T>(...items: T[]): T[]; }
"#;

/// Branded tuples of a generic point, excalidraw's `math/` reduced (as it was when 3
/// checkers reported three `TS2345` fewer than 1 and 8 did).
const FILES: [(&str, &str); 5] = [
    (
        "math/line.ts",
        r#"export function linesIntersectAt<Point extends GlobalPoint | LocalPoint>(
  a: Line<Point>,
  b: Line<Point>,
): Point | null {
  const A1 = a[1][1] - a[0][1];
  const B1 = a[0][0] - a[1][0];
  const A2 = b[1][1] - b[0][1];
  const B2 = b[0][0] - b[1][0];
  const D = A1 * B2 - A2 * B1;
  if (D !== 0) {
    const C1 = A1 * a[0][0] + B1 * a[0][1];
    const C2 = A2 * b[0][0] + B2 * b[0][1];
    return pointFrom<Point>((C1 * B2 - C2 * B1) / D, (A1 * C2 - A2 * C1) / D);
  }

  return null;
}
"#,
    ),
    (
        "math/point.ts",
        r#"import type {
  LocalPoint,
  GlobalPoint,
  Radians,
  Degrees,
  Vector,
} from "./types";
export function pointFrom<Point extends GlobalPoint | LocalPoint>(
  x: number,
  y: number,
): Point {
  return [x, y] as Point;
}
"#,
    ),
    (
        "math/rectangle.ts",
        r#"import { pointFrom } from "./point";
import { lineSegment, lineSegmentIntersectionPoints } from "./segment";
import type { GlobalPoint, LineSegment, LocalPoint, Rectangle } from "./types";

export function rectangle<P extends GlobalPoint | LocalPoint>(
  topLeft: P,
  bottomRight: P,
): Rectangle<P> {
  return [topLeft, bottomRight] as Rectangle<P>;
}

export function rectangleIntersectLineSegment<
  Point extends LocalPoint | GlobalPoint,
>(r: Rectangle<Point>, l: LineSegment<Point>): Point[] {
  return [
    lineSegment(r[0], pointFrom(r[1][0], r[0][1])),
    lineSegment(pointFrom(r[1][0], r[0][1]), r[1]),
    lineSegment(r[1], pointFrom(r[0][0], r[1][1])),
    lineSegment(pointFrom(r[0][0], r[1][1]), r[0]),
  ]
    .map((s) => lineSegmentIntersectionPoints(l, s))
    .filter((i): i is Point => !!i);
}
"#,
    ),
    (
        "math/segment.ts",
        r#"import { line, linesIntersectAt } from "./line";
import type { GlobalPoint, LineSegment, LocalPoint, Radians } from "./types";
export function lineSegment<P extends GlobalPoint | LocalPoint>(
  a: P,
  b: P,
): LineSegment<P> {
  return [a, b] as LineSegment<P>;
}

export const pointOnLineSegment = <Point extends LocalPoint | GlobalPoint>(
  point: Point,
  line: LineSegment<Point>,
  threshold = PRECISION,
) => {
  const distance = distanceToLineSegment(point, line);

  if (distance === 0) {
    return true;
  }

  return distance < threshold;
};

export function lineSegmentIntersectionPoints<
  Point extends GlobalPoint | LocalPoint,
>(l: LineSegment<Point>, s: LineSegment<Point>): Point | null {
  const candidate = linesIntersectAt(line(l[0], l[1]), line(s[0], s[1]));

  if (
    !candidate ||
    !pointOnLineSegment(candidate, s) ||
    !pointOnLineSegment(candidate, l)
  ) {
    return null;
  }

  return candidate;
}
"#,
    ),
    (
        "math/types.d.ts",
        r#"export type GlobalPoint = [x: number, y: number] & {
    _brand: "excalimath__globalpoint";
};
export type LocalPoint = [x: number, y: number] & {
    _brand: "excalimath__localpoint";
};
export type LineSegment<P extends GlobalPoint | LocalPoint> = [a: P, b: P] & {
    _brand: "excalimath_linesegment";
};
export type Rectangle<P extends GlobalPoint | LocalPoint> = [a: P, b: P] & {
    _brand: "excalimath__rectangle";
};"#,
    ),
];

fn diagnostics(checkers: usize) -> Vec<String> {
    let corpus = Corpus {
        name: "inline".to_string(),
        provenance: Provenance::Local,
        files: FILES
            .iter()
            .map(|(p, t)| SourceFile {
                path: p.to_string(),
                bytes: t.as_bytes().to_vec(),
            })
            .collect(),
        lib: [("lib.mini.d.ts", MINI_LIB), ("lib.tuples.d.ts", LIB)]
            .iter()
            .map(|(p, t)| SourceFile {
                path: p.to_string(),
                bytes: t.as_bytes().to_vec(),
            })
            .collect(),
    };
    let out = checker::run(&corpus, &Options { checkers }).expect("the corpus has sources");
    out.diagnostics.iter().map(|d| d.to_string()).collect()
}

#[test]
fn branded_tuples_of_a_generic_point_relate_the_same_whichever_files_a_checker_saw_first() {
    let one = diagnostics(1);
    for n in [2, 3, 4] {
        assert_eq!(one, diagnostics(n), "at {n} checkers");
    }
}
