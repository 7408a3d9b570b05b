#!/usr/bin/env node
// The reference run: the same typescript.js, host (js/host.js) and input as the QuickJS
// workload, under node. Prints one line per diagnostic in the workload's order and format
// (as `tsc-quickjs --diagnostics`), then the counts on stderr.
//
//   node node-check.js INPUT.json     (INPUT.json from `tsc-quickjs --write-input`)
"use strict";
const fs = require("fs");
const path = require("path");

const inputPath = process.argv[2];
if (!inputPath) {
  console.error("usage: node node-check.js INPUT.json (from tsc-quickjs --write-input)");
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
checkbench.program(input);
const t1 = Date.now();
checkbench.bind();
const t2 = Date.now();
const report = JSON.parse(checkbench.check(0, 1));
const t3 = Date.now();

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
const sorted = report.diagnostics.sort(compare).filter((d, i, all) => i === 0 || compare(all[i - 1], d) !== 0);
for (const d of sorted) {
  const message = d.message.split("\n").join("\n  ");
  console.log(`${d.file}:${d.line}:${d.column} - ${d.category} TS${d.code}: ${message}`);
}
console.error(
  `node ${process.version}, typescript ${report.version}: ${sorted.length} diagnostics, ` +
    `${report.types} types, ${report.symbols} symbols, ${report.relations} relations; ` +
    `program ${(t1 - t0) / 1000} s, bind ${(t2 - t1) / 1000} s, check ${(t3 - t2) / 1000} s`
);
