#!/usr/bin/env node
// The reference run: the same typescript.js, host (js/host.js) and input as the QuickJS
// workload, under node, with N checkers over one program in the workload's order (file i by
// checker i mod N). Prints one line per diagnostic in the workload's order and format (as
// `tsc-quickjs --diagnostics`), then the counts on stderr. It also asks TypeScript itself, a
// second program checked by its own checker (getPreEmitDiagnostics' parts), and exits 1 when
// the two lists differ: the host's per-checker rule must be TypeScript's.
//
//   node node-check.js INPUT.json [CHECKERS] [first|spread]
//
// (INPUT.json from `tsc-quickjs --write-input`.) `spread` builds the program as `--parse
// spread` does: every file parsed ahead (ts.createSourceFile), the program made from them, each
// bound by itself; it fails unless the program took every file parsed ahead.
"use strict";
const fs = require("fs");
const path = require("path");

const inputPath = process.argv[2];
if (!inputPath) {
  console.error("usage: node node-check.js INPUT.json [CHECKERS] (from tsc-quickjs --write-input)");
  process.exit(2);
}
const checkers = Number(process.argv[3] || "1");
if (!Number.isInteger(checkers) || checkers < 1) {
  console.error(`the number of checkers must be a whole number of at least 1, not ${process.argv[3]}`);
  process.exit(2);
}
const placement = process.argv[4] || "first";
if (placement !== "first" && placement !== "spread") {
  console.error(`the parse placement is \`first\` or \`spread\`, not ${placement}`);
  process.exit(2);
}
const input = JSON.parse(fs.readFileSync(inputPath, "utf8"));
if (!input.typescript) {
  console.error(`${inputPath} names no typescript.js (written by an older tsc-quickjs?)`);
  process.exit(2);
}
globalThis.ts = require(input.typescript);
const checkbench = require(path.join(__dirname, "..", "js", "host.js"));

const t0 = Date.now();
let ahead = 0;
if (placement === "spread") {
  ahead = checkbench.load(input);
  for (let j = 0; j < ahead; j++) checkbench.parse(j);
  checkbench.program();
  if (checkbench.parsedAhead() !== ahead) {
    console.error(`the program took ${checkbench.parsedAhead()} of the ${ahead} files parsed ahead`);
    process.exit(1);
  }
} else {
  checkbench.program(input);
}
const t1 = Date.now();
for (let j = 0; j < ahead; j++) checkbench.bindFile(j);
checkbench.bind();
const t2 = Date.now();
const files = input.rootFiles.length;
for (let i = 0; i < files; i++) {
  if (i < checkers) checkbench.checker(i);
  checkbench.checkFile(i % checkers, i);
}
const reports = [];
for (let k = 0; k < checkers; k++) {
  if (k >= files) checkbench.checker(k);
  reports.push(JSON.parse(checkbench.report(k)));
}
const t3 = Date.now();
const report = {
  diagnostics: reports.flatMap((r) => r.diagnostics),
  version: reports[0].version,
  symbols: reports[0].symbols,
  types: reports.reduce((n, r) => n + r.types, 0),
  relations: reports.reduce((n, r) => n + r.relations, 0),
};

const key = (d) => [d.file, d.start, d.code, d.message];
const utf8 = (s) => Buffer.from(String(s), "utf8");
function compare(a, b) {
  const x = key(a);
  const y = key(b);
  for (let i = 0; i < x.length; i++) {
    const c =
      typeof x[i] === "number" ? x[i] - y[i] : Buffer.compare(utf8(x[i]), utf8(y[i]));
    if (c !== 0) return c;
  }
  return 0;
}
const unique = (list) => list.sort(compare).filter((d, i, all) => i === 0 || compare(all[i - 1], d) !== 0);
const line = (d) => `${d.file}:${d.line}:${d.column} - ${d.category} TS${d.code}: ${d.message.split("\n").join("\n  ")}`;
const sorted = unique(report.diagnostics);
for (const d of sorted) console.log(line(d));

// TypeScript's own answer: a fresh program, its own checker, the pre-emit diagnostics. The two
// are compared in canonical wording (as the digest counts them): a spelling suggestion depends
// on how many names the checker failed to resolve before, which the sharing of files changes.
const canonical = (d) => (d.canonical ? { ...d, code: d.canonical.code, message: d.canonical.message } : d);
const plain = checkbench.plain(input);
const ours = unique(sorted.map(canonical)).map(line);
const theirs = unique(plain.map(canonical)).map(line);
const first = ours.findIndex((l, i) => l !== theirs[i]);
if (ours.length !== theirs.length || first !== -1) {
  const at = first === -1 ? Math.min(ours.length, theirs.length) : first;
  console.error(
    `the host's ${checkers} checker(s) report ${ours.length} diagnostics, TypeScript's own program ` +
      `${theirs.length}; first difference at ${at}:\n  host:       ${ours[at]}\n  TypeScript: ${theirs[at]}`
  );
  process.exitCode = 1;
}
console.error(
  `node ${process.version}, typescript ${report.version}: ${sorted.length} diagnostics, ` +
    `${report.types} types, ${report.symbols} symbols, ${report.relations} relations; ` +
    `program ${(t1 - t0) / 1000} s, bind ${(t2 - t1) / 1000} s, check ${(t3 - t2) / 1000} s`
);
