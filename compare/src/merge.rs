//! `compare merge FILE...`: the shards of one plan ([`crate::shard`]) joined into one
//! results set and one report.
//!
//! **Only what one unsharded bake-off could have measured is merged**: every file must be a
//! shard of the same plan (workload included), measured by the same build of compare and of
//! its children (revision and source digest), on the same corpus files; every cell of the
//! plan must be in exactly one file of each kind of machine and finished. Anything else is
//! refused, naming the files. The merged runs are the only truth: every summary, ratio and
//! cell is recomputed from them ([`Results::refresh`]).
//!
//! **Ratios hold within one machine only**: shards from different kinds of machine (CPU,
//! kernel, memory, THP settings, virtualization and free page reporting) are never drawn
//! into one figure; they merge into a side-by-side report, one block per kind, each titled
//! with its machine facts, and the same cell may then be measured once on each kind.
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::benchmark::runner;
use crate::environment::{BuildInfo, Environment};
use crate::export::csv::CsvExporter;
use crate::export::svg::SvgExporter;
use crate::export::{ExportError, Exporter, Format, Outputs, markdown, write_atomically};
use crate::output::report;
use crate::output::table::Detail;
use crate::results::shards::{MergedShard, ShardRecord};
use crate::results::{Results, Settings};

/// The results of one kind of machine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Block {
    /// The machine facts, as the block's title.
    pub machine: String,
    pub results: Results,
}

/// The merged shards: one block, or one per kind of machine side by side.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Merged {
    pub machines: Vec<Block>,
}

/// Reads every file and merges them.
pub fn load(files: &[PathBuf]) -> Result<Merged> {
    if files.is_empty() {
        bail!("compare merge needs the shard files to join");
    }
    let shards = files
        .iter()
        .map(|path| Ok((path.clone(), Results::load(path)?)))
        .collect::<Result<Vec<_>>>()?;
    merge(shards)
}

/// A machine's kind: what decides whether ratios measured on two machines compare. The
/// reported-so-far KiB of free page reporting changes by the minute and is left out; the
/// memory is taken in whole GiB, as identical machines differ by a few KiB of firmware.
fn kind_key(env: &Environment) -> String {
    let mut machine = env.machine.clone();
    if let Some(facts) = machine.as_mut() {
        facts.page_reporting_reported_kib = None;
    }
    let key = serde_json::json!({
        "kernel": env.kernel,
        "cpu_model": env.cpu_model,
        "cpu_count": env.cpu_count,
        "memory_gib": (env.memory_kib as f64 / (1024.0 * 1024.0)).round(),
        "thp": env.thp,
        "machine": machine,
    });
    key.to_string()
}

/// A machine kind's title: the kernel, CPUs, memory and THP line and the machine facts.
pub fn machine_title(env: &Environment) -> String {
    format!("{} · {}", env.summary(), env.machine_summary())
}

/// The plan as a shard records it, less what differs between shards of one plan by
/// design: the files each writes and the digests of the corpora each opened.
fn plan_fields(settings: &Settings) -> BTreeMap<String, serde_json::Value> {
    let mut value = serde_json::to_value(settings).unwrap_or_default();
    let map = value
        .as_object_mut()
        .map(std::mem::take)
        .unwrap_or_default();
    map.into_iter()
        .filter(|(key, _)| key != "outputs" && key != "corpus_digests")
        .collect()
}

fn builds_differ(a: &BuildInfo, b: &BuildInfo) -> bool {
    a.revision != b.revision || a.source_digest != b.source_digest
}

/// Records `value` as shard `i`'s for `key` unless an earlier shard recorded one; returns
/// that earlier shard and its value when the two `differ`.
fn disagreeing<V: Clone>(
    seen: &mut BTreeMap<String, (usize, V)>,
    i: usize,
    key: &str,
    value: &V,
    differ: impl Fn(&V, &V) -> bool,
) -> Option<(usize, V)> {
    match seen.get(key) {
        Some((j, before)) => differ(before, value).then(|| (*j, before.clone())),
        None => {
            seen.insert(key.to_string(), (i, value.clone()));
            None
        }
    }
}

/// Joins shard files, already loaded, or says why they cannot be joined.
pub fn merge(shards: Vec<(PathBuf, Results)>) -> Result<Merged> {
    let shards = Shards::new(shards)?;
    shards.check_builds()?;
    shards.check_plans()?;
    let corpus_digests = shards.corpus_digests()?;
    let kinds = shards.machine_kinds();
    let owners = shards.owners(&kinds)?;
    shards.join(&kinds, &owners, &corpus_digests)
}

/// The shard files to merge, by index in the order given, with their shard records.
struct Shards {
    names: Vec<String>,
    shards: Vec<(PathBuf, Results)>,
    records: Vec<ShardRecord>,
}

/// The shards of each kind of machine, in the order the files name them: the kind's key and
/// the indices of its files.
type Kinds = Vec<(String, Vec<usize>)>;

/// One cell of the plan: corpus and checker count.
type PlanCell = (String, usize);

impl Shards {
    /// The files, each of which must be a shard.
    fn new(shards: Vec<(PathBuf, Results)>) -> Result<Shards> {
        let names: Vec<String> = shards
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect();
        if shards.is_empty() {
            bail!("compare merge needs the shard files to join");
        }
        let mut records: Vec<ShardRecord> = Vec::new();
        for (i, (_, results)) in shards.iter().enumerate() {
            match &results.shard {
                Some(record) => records.push(record.clone()),
                None => bail!(
                    "cannot merge {}: it is not a shard (it has no `shard` record: it was written \
                     without --shard, or by compare merge)",
                    names[i]
                ),
            }
        }
        Ok(Shards {
            names,
            shards,
            records,
        })
    }

    fn name(&self, i: usize) -> String {
        self.names[i].clone()
    }

    fn first(&self) -> &Results {
        &self.shards[0].1
    }

    /// One build of compare and of every child.
    fn check_builds(&self) -> Result<()> {
        let first = self.first();
        let env0 = &first.environment;
        let mut children: BTreeMap<String, (usize, BuildInfo)> = BTreeMap::new();
        for (i, (_, results)) in self.shards.iter().enumerate() {
            let env = &results.environment;
            if env.git_revision != env0.git_revision || env.source_digest != env0.source_digest {
                bail!(
                    "cannot merge {} and {}: they were measured by different builds of compare ({}: \
                 revision {}, sources {}; {}: revision {}, sources {}); run every shard from \
                 one revision",
                    self.name(0),
                    self.name(i),
                    self.name(0),
                    env0.git_revision,
                    env0.source_digest,
                    self.name(i),
                    env.git_revision,
                    env.source_digest,
                );
            }
            for (child, info) in &env.children {
                if let Some((j, before)) = disagreeing(&mut children, i, child, info, builds_differ)
                {
                    bail!(
                        "cannot merge {} and {}: their {child} children were built from different \
                     sources ({}: {before}; {}: {info}); run every shard from one revision",
                        self.name(j),
                        self.name(i),
                        self.name(j),
                        self.name(i),
                    );
                }
            }
        }

        Ok(())
    }

    /// One plan, workload included.
    fn check_plans(&self) -> Result<()> {
        let first = self.first();
        let plan0 = plan_fields(&first.settings);
        for (i, (_, results)) in self.shards.iter().enumerate().skip(1) {
            let settings = &results.settings;
            if settings.workload != first.settings.workload {
                bail!(
                    "cannot merge {} and {}: they are shards of different workloads ({} and {})",
                    self.name(0),
                    self.name(i),
                    first.settings.workload,
                    settings.workload
                );
            }
            let plan = plan_fields(settings);
            let keys: std::collections::BTreeSet<&String> =
                plan0.keys().chain(plan.keys()).collect();
            let show =
                |v: Option<&serde_json::Value>| v.map_or("absent".to_string(), |v| v.to_string());
            let differences: Vec<String> = keys
                .into_iter()
                .filter(|key| plan0.get(*key) != plan.get(*key))
                .map(|key| format!("{key} {} vs {}", show(plan0.get(key)), show(plan.get(key))))
                .collect();
            if !differences.is_empty() {
                bail!(
                    "cannot merge {} and {}: they are shards of different plans ({})",
                    self.name(0),
                    self.name(i),
                    differences.join("; ")
                );
            }
        }
        Ok(())
    }

    /// Each corpus's digest, the same in every file that opened it.
    fn corpus_digests(&self) -> Result<BTreeMap<String, (usize, String)>> {
        let mut corpus_digests: BTreeMap<String, (usize, String)> = BTreeMap::new();
        for (i, (_, results)) in self.shards.iter().enumerate() {
            for (corpus, digest) in &results.settings.corpus_digests {
                if let Some((j, before)) =
                    disagreeing(&mut corpus_digests, i, corpus, digest, |a, b| a != b)
                {
                    bail!(
                        "cannot merge {} and {}: corpus `{corpus}` was other files in each ({}: \
                     digest {before}; {}: digest {digest})",
                        self.name(j),
                        self.name(i),
                        self.name(j),
                        self.name(i),
                    );
                }
            }
        }

        Ok(corpus_digests)
    }

    /// The kinds of machine, in the order the files name them.
    fn machine_kinds(&self) -> Kinds {
        let mut kinds: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, (_, results)) in self.shards.iter().enumerate() {
            let key = kind_key(&results.environment);
            match kinds.iter_mut().find(|(k, _)| *k == key) {
                Some((_, files)) => files.push(i),
                None => kinds.push((key, vec![i])),
            }
        }

        kinds
    }

    /// The plan's cells, in the order it measures them.
    fn plan_cells(&self) -> Vec<PlanCell> {
        let settings = &self.first().settings;
        settings
            .corpora
            .iter()
            .flat_map(|c| settings.checkers.iter().map(move |&n| (c.clone(), n)))
            .collect()
    }

    /// The file that holds each cell on each kind of machine: each cell once per kind, and
    /// every cell somewhere.
    fn owners(&self, kinds: &Kinds) -> Result<Vec<BTreeMap<PlanCell, usize>>> {
        let settings = &self.first().settings;
        let plan_cells = self.plan_cells();
        let label = |cell: &(String, usize)| settings.cell_label(&cell.0, cell.1);
        let claims = |i: usize| -> Vec<(String, usize)> {
            let results = &self.shards[i].1;
            plan_cells
                .iter()
                .filter(|(corpus, checkers)| {
                    self.records[i].holds(corpus, *checkers)
                        || results
                            .results
                            .iter()
                            .any(|set| set.corpus == *corpus && set.checkers == *checkers)
                })
                .cloned()
                .collect()
        };
        let mut owners: Vec<BTreeMap<(String, usize), usize>> = Vec::new();
        for (_, files) in kinds {
            let mut owner: BTreeMap<(String, usize), usize> = BTreeMap::new();
            for &i in files {
                for cell in claims(i) {
                    if let Some(&j) = owner.get(&cell) {
                        bail!(
                            "cannot merge: cell {} is measured twice on one kind of machine, in {} \
                         (shard {}) and in {} (shard {}); give each cell's file once",
                            label(&cell),
                            self.name(j),
                            self.records[j].shard(),
                            self.name(i),
                            self.records[i].shard(),
                        );
                    }
                    owner.insert(cell, i);
                }
            }
            owners.push(owner);
        }
        let missing: Vec<String> = plan_cells
            .iter()
            .filter(|cell| owners.iter().all(|owner| !owner.contains_key(*cell)))
            .map(|cell| {
                let dealt = crate::shard::assign(settings, self.records[0].count)
                    .into_iter()
                    .find(|c| c.corpus == cell.0 && c.checkers == cell.1)
                    .map_or(String::new(), |c| {
                        format!(" (shard {}/{})", c.shard, self.records[0].count)
                    });
                format!("{}{dealt}", label(cell))
            })
            .collect();
        if !missing.is_empty() {
            bail!(
                "cannot merge: no file given holds cell{} {} of the plan; add the shard{} that ran \
             {}",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                if missing.len() == 1 { "" } else { "s" },
                if missing.len() == 1 { "it" } else { "them" },
            );
        }

        Ok(owners)
    }

    /// One results set per kind, recomputed from the runs; every cell finished.
    fn join(
        mut self,
        kinds: &Kinds,
        owners: &[BTreeMap<PlanCell, usize>],
        corpus_digests: &BTreeMap<String, (usize, String)>,
    ) -> Result<Merged> {
        let settings = &self.first().settings.clone();
        let plan_cells = self.plan_cells();
        let label = |cell: &(String, usize)| settings.cell_label(&cell.0, cell.1);
        let mut machines = Vec::new();
        for ((_, files), owner) in kinds.iter().zip(owners) {
            let env = &self.shards[files[0]].1.environment;
            let title = machine_title(env);
            let mut environment = env.clone();
            environment.children = files
                .iter()
                .flat_map(|&i| self.shards[i].1.environment.children.clone())
                .collect();
            let mut plan = settings.clone();
            plan.outputs = BTreeMap::new();
            plan.corpus_digests = corpus_digests
                .iter()
                .map(|(corpus, (_, digest))| (corpus.clone(), digest.clone()))
                .collect();
            let mut merged = Results::new(environment, plan);
            for &i in files {
                let (path, results) = &mut self.shards[i];
                merged
                    .calibrations
                    .extend(std::mem::take(&mut results.calibrations));
                merged.merged_from.push(MergedShard {
                    file: path.display().to_string(),
                    shard: self.records[i].shard().to_string(),
                    command_line: results.environment.command_line.clone(),
                });
            }
            for cell in &plan_cells {
                let Some(&i) = owner.get(cell) else { continue };
                let sets = &mut self.shards[i].1.results;
                let (theirs, rest): (Vec<_>, Vec<_>) = std::mem::take(sets)
                    .into_iter()
                    .partition(|set| set.corpus == cell.0 && set.checkers == cell.1);
                *sets = rest;
                merged.results.extend(theirs);
            }
            merged.refresh();
            let unfinished: Vec<String> = plan_cells
                .iter()
                .filter_map(|cell| {
                    let &i = owner.get(cell)?;
                    let index = settings.corpora.iter().position(|c| *c == cell.0)?;
                    let left = runner::pending(&merged)
                        .iter()
                        .filter(|slot| {
                            !slot.warmup && slot.corpus == index && slot.checkers == cell.1
                        })
                        .count();
                    (left > 0).then(|| {
                        format!(
                            "{} in {} ({left} run{} to go; continue it with --resume {})",
                            label(cell),
                            self.name(i),
                            if left == 1 { "" } else { "s" },
                            self.name(i),
                        )
                    })
                })
                .collect();
            if !unfinished.is_empty() {
                bail!(
                    "cannot merge: unfinished cell{}: {}",
                    if unfinished.len() == 1 { "" } else { "s" },
                    unfinished.join("; ")
                );
            }
            machines.push(Block {
                machine: title,
                results: merged,
            });
        }
        Ok(Merged { machines })
    }
}

impl Merged {
    /// Whether the shards came from more than one kind of machine.
    pub fn side_by_side(&self) -> bool {
        self.machines.len() > 1
    }

    /// The terminal report: the merged table, or one block per kind of machine.
    pub fn render_text(&self, detail: Detail) -> String {
        if let [one] = self.machines.as_slice() {
            return report::render_text(&one.results, detail);
        }
        let mut out = self.preamble("");
        for (i, block) in self.machines.iter().enumerate() {
            let _ = writeln!(
                out,
                "\n=== machine {} of {}: {} ===",
                i + 1,
                self.machines.len(),
                block.machine
            );
            out.push_str(&report::render_text(&block.results, detail));
        }
        out
    }

    fn preamble(&self, heading: &str) -> String {
        format!(
            "{heading}{} kinds of machine, side by side: a ratio holds within one machine only, \
             so each block is its own bake-off, recomputed from its own runs\n",
            self.machines.len()
        )
    }

    /// Writes every output: as one bake-off's files when one kind of machine measured every
    /// shard, else side by side.
    pub fn write(&self, outputs: &Outputs) -> Result<(), ExportError> {
        if let [one] = self.machines.as_slice() {
            return outputs.write_all(&one.results);
        }
        for (format, path) in outputs.targets() {
            let bytes = match format {
                Format::Json => {
                    let mut bytes =
                        serde_json::to_vec_pretty(self).map_err(|e| ExportError::Render {
                            format: "JSON",
                            why: e.to_string(),
                        })?;
                    bytes.push(b'\n');
                    bytes
                }
                Format::Markdown => self.markdown().into_bytes(),
                Format::Csv => self.csv()?,
                Format::Svg => self.svg()?.into_bytes(),
            };
            write_atomically(path, &bytes)?;
        }
        Ok(())
    }

    /// One section per kind of machine, its headings one level down.
    fn markdown(&self) -> String {
        let mut out = format!(
            "# checkbench bake-off on {} kinds of machine\n\n{}",
            self.machines.len(),
            self.preamble("")
        );
        for (i, block) in self.machines.iter().enumerate() {
            let _ = writeln!(out, "\n# Machine {}: {}\n", i + 1, block.machine);
            for line in markdown::render(&block.results).lines() {
                if line.starts_with('#') {
                    out.push('#');
                }
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    /// Every block's CSV, each line led by the block's number and machine facts.
    fn csv(&self) -> Result<Vec<u8>, ExportError> {
        let error = |why: String| ExportError::Render { format: "CSV", why };
        let mut writer = csv::Writer::from_writer(Vec::new());
        for (i, block) in self.machines.iter().enumerate() {
            let bytes = CsvExporter.render(&block.results)?;
            let mut reader = csv::Reader::from_reader(bytes.as_slice());
            if i == 0 {
                let header = reader.headers().map_err(|e| error(e.to_string()))?.clone();
                let columns = ["machine", "machine_facts"]
                    .into_iter()
                    .chain(header.iter());
                writer
                    .write_record(columns)
                    .map_err(|e| error(e.to_string()))?;
            }
            let number = (i + 1).to_string();
            for record in reader.records() {
                let record = record.map_err(|e| error(e.to_string()))?;
                let fields = [number.as_str(), block.machine.as_str()]
                    .into_iter()
                    .chain(record.iter());
                writer
                    .write_record(fields)
                    .map_err(|e| error(e.to_string()))?;
            }
        }
        writer.into_inner().map_err(|e| error(e.to_string()))
    }

    /// Every block's own figure, one below the other, each under its machine facts: never
    /// one figure of two machines.
    fn svg(&self) -> Result<String, ExportError> {
        const TITLE: u32 = 30;
        let mut inner = String::new();
        let (mut width, mut y) = (0_u32, 0_u32);
        for (i, block) in self.machines.iter().enumerate() {
            let bytes = SvgExporter.render(&block.results)?;
            let svg = String::from_utf8_lossy(&bytes);
            let svg = &svg[svg.find("<svg").unwrap_or(0)..];
            let size = |attribute: &str| -> u32 {
                let tag = &svg[..svg.find('>').unwrap_or(svg.len())];
                tag.split(&format!(" {attribute}=\""))
                    .nth(1)
                    .and_then(|rest| rest.split('"').next())
                    .and_then(|n| n.parse::<f64>().ok())
                    .map_or(0, |n| n.ceil() as u32)
            };
            let (w, h) = (size("width"), size("height"));
            let _ = writeln!(
                inner,
                "<text x=\"10\" y=\"{}\" font-family=\"sans-serif\" font-size=\"15\">Machine {}: {}</text>",
                y + 20,
                i + 1,
                escape(&block.machine)
            );
            inner.push_str(&svg.replacen("<svg", &format!("<svg x=\"0\" y=\"{}\"", y + TITLE), 1));
            inner.push('\n');
            width = width.max(w);
            y += TITLE + h;
        }
        Ok(format!(
            "<svg width=\"{width}\" height=\"{y}\" viewBox=\"0 0 {width} {y}\" \
             xmlns=\"http://www.w3.org/2000/svg\">\n{inner}</svg>\n"
        ))
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `compare merge`: checks the outputs, merges, writes and prints.
pub fn run(files: &[PathBuf], outputs: &Outputs, detail: Detail) -> Result<()> {
    outputs
        .check_writable()
        .context("checking the output files before merging")?;
    let mut merged = load(files)?;
    for block in &mut merged.machines {
        block.results.environment.command_line = std::env::args().collect();
    }
    merged.write(outputs)?;
    print!("{}", merged.render_text(detail));
    let written: Vec<String> = outputs
        .paths()
        .map(|p: &Path| p.display().to_string())
        .collect();
    if !written.is_empty() {
        eprintln!("written: {}", written.join(", "));
    }
    Ok(())
}
