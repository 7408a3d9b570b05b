#!/usr/bin/env python3
"""Counts the call sites from the symbol, type and flow layers of checker/src/check/ into
the walk, by file pair (the rule in checker/README.md, "Layers").

    checker/scripts/layer-calls.py [REPO_ROOT]

A function belongs to the one file of check/ that defines it (`fn NAME`). A call site is
`NAME(` outside comments and `#[cfg(test)]` modules, where NAME is defined in one walk
file. Calls of `check_expr` (the allowed way in: an initializer's or a body's type) are
counted apart. Grep-level: a method called through a closure or a function pointer is not
seen, and a name defined in two files of check/ is not counted.
"""
import collections
import glob
import os
import re
import sys

WALK = {
    "statements", "declarations", "expressions", "calls", "elaboration", "constraints",
    "annotations",
}
FLOW = {"narrow", "guards"}
SYMBOL = {"symbols", "defaults", "values", "signatures", "type_nodes", "resolution", "scope"}
TYPE = {
    "inference", "widening", "instantiation", "conditional", "mapped", "relations",
    "sigrel", "variance", "limits", "properties", "members", "this", "outer", "printing",
    "spread", "predicates", "excess",
}
ALLOWED = "check_expr"


def layer_of(name):
    for layer, files in (("walk", WALK), ("flow", FLOW), ("symbol", SYMBOL), ("type", TYPE)):
        if name in files:
            return layer
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    sources = {}
    for path in sorted(glob.glob(os.path.join(root, "checker/src/check/*.rs"))):
        text = re.sub(r"//[^\n]*", "", open(path).read())
        sources[os.path.basename(path)[:-3]] = re.split(r"#\[cfg\(test\)\]\s*mod\b", text)[0]
    unlayered = sorted(n for n in sources if layer_of(n) is None)
    if unlayered:
        sys.exit(f"files in no layer (add them to this script and the README): {unlayered}")
    defined = collections.defaultdict(set)
    for name, text in sources.items():
        for m in re.finditer(r"\bfn\s+([A-Za-z_]\w*)", text):
            defined[m.group(1)].add(name)
    walk_fns = {f: next(iter(d)) for f, d in defined.items() if len(d) == 1 and next(iter(d)) in WALK}
    pairs, by_fn, allowed = collections.Counter(), collections.Counter(), collections.Counter()
    for name, text in sources.items():
        if layer_of(name) == "walk":
            continue
        for m in re.finditer(r"(?<!\w)([A-Za-z_]\w*)\s*\(", text):
            f = m.group(1)
            if f not in walk_fns or re.search(r"\bfn\s+$", text[max(0, m.start() - 10) : m.start()]):
                continue
            if f == ALLOWED:
                allowed[(name, walk_fns[f])] += 1
                continue
            pairs[(layer_of(name), name, walk_fns[f])] += 1
            by_fn[(name, walk_fns[f], f)] += 1
    print(f"calls into the walk, {ALLOWED} apart: {sum(pairs.values())}")
    for (layer, a, b), n in sorted(pairs.items()):
        print(f"  {layer:6} {a}.rs -> {b}.rs: {n}")
    for (a, b, f), n in sorted(by_fn.items()):
        print(f"    {a}.rs -> {b}.rs {f}: {n}")
    print(f"{ALLOWED} (an initializer or a body): {sum(allowed.values())}")
    for (a, b), n in sorted(allowed.items()):
        print(f"  {a}.rs -> {b}.rs: {n}")


if __name__ == "__main__":
    main()
