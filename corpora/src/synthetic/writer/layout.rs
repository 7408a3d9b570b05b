//! The project's layout: how many files of which size and kind, in which folders,
//! and what each file holds (the fixed modules, folder `index.ts` files, and the
//! generated modules filled with items up to their drawn size).

use super::{Folder, Gen, Kind, Module};
use crate::SourceFile;
use crate::synthetic::DeliberateError;
use crate::synthetic::model::*;
use crate::synthetic::rng::Rng;
use crate::synthetic::words;
use std::collections::HashSet;
use std::fmt::Write as _;

const UTIL_SOURCE: &str = include_str!("../templates/util.ts");
const DECORATORS_SOURCE: &str = include_str!("../templates/decorators.ts");

impl Gen<'_> {
    pub(super) fn run(&mut self, target_bytes: u64) {
        let sizes = self.file_sizes(target_bytes);
        let plan = self.plan_layout(&sizes);
        // Every file overshoots its size by part of an item; later files make up for it,
        // so the corpus as a whole lands on the target.
        let mut planned = 0u64;
        let mut last_folder = None;
        for (size, folder, kind) in plan {
            planned += size as u64;
            if last_folder != Some(folder) {
                if let Some(prev) = last_folder {
                    self.write_index(prev);
                }
                last_folder = Some(folder);
            }
            if self.util_module.is_none() && kind != Kind::Dts && !self.all_dts() {
                self.write_fixed_module(folder, "util", UTIL_SOURCE);
                self.util_module = Some(self.modules.len() - 1);
            }
            if self.decorators_module.is_none()
                && self.shape.mix.entity > 0
                && kind != Kind::Dts
                && self.modules.len() > 1
            {
                self.write_fixed_module(folder, "decorators", DECORATORS_SOURCE);
                self.decorators_module = Some(self.modules.len() - 1);
            }
            let written = self.written_bytes();
            if written >= target_bytes {
                break;
            }
            let behind = planned.saturating_sub(written) as usize;
            self.write_module(folder, kind, behind.clamp(300, 2 * size.max(300)));
        }
        if let Some(prev) = last_folder {
            self.write_index(prev);
        }
    }

    fn written_bytes(&self) -> u64 {
        self.bytes_out
    }

    fn push_file(&mut self, path: String, bytes: Vec<u8>) {
        self.bytes_out += bytes.len() as u64;
        self.files.push(SourceFile { path, bytes });
    }

    fn all_dts(&self) -> bool {
        self.shape.dts_per_mille >= 1000
    }

    /// Log-normal file sizes around the profile's median until they add up to the target.
    fn file_sizes(&mut self, target_bytes: u64) -> Vec<usize> {
        let mut rng = self.rng.fork(1);
        let mut sizes = Vec::new();
        let mut total = 0u64;
        let max = self.shape.max_file_bytes.max(1024);
        while total < target_bytes {
            let draw = self.shape.median_file_bytes * (self.shape.sigma * rng.normal()).exp();
            let left = (target_bytes - total) as usize;
            let mut size = (draw as usize).clamp(600, max);
            // Do not leave a sliver behind: fold a small remainder into this file.
            if left < size + 600 || left < 1200 {
                size = left.max(300);
            }
            total += size as u64;
            sizes.push(size);
        }
        sizes
    }

    /// Assigns each file a folder and a kind; folders are written one after another.
    fn plan_layout(&mut self, sizes: &[usize]) -> Vec<(usize, usize, Kind)> {
        let mut rng = self.rng.fork(2);
        let (lo, hi) = self.shape.files_per_folder;
        let mut plan = Vec::with_capacity(sizes.len());
        let mut taken_folders = HashSet::new();
        let mut i = 0;
        let mut round = 0;
        while i < sizes.len() {
            for top in self.shape.folders {
                if i >= sizes.len() {
                    break;
                }
                let path = if round == 0 && lo >= 32 {
                    top.to_string()
                } else {
                    let mut path = format!("{top}/{}", rng.pick(words::FOLDERS));
                    if round > 2 && rng.chance(500) {
                        path = format!("{path}/{}", rng.pick(words::FOLDERS));
                    }
                    let mut n = 2;
                    let base = path.clone();
                    while !taken_folders.insert(path.clone()) {
                        path = format!("{base}{n}");
                        n += 1;
                    }
                    path
                };
                self.folders.push(Folder {
                    path,
                    has_index: false,
                });
                let folder = self.folders.len() - 1;
                let count = rng.range(lo, hi).min(sizes.len() - i);
                for _ in 0..count {
                    let kind = self.draw_kind(&mut rng);
                    plan.push((sizes[i], folder, kind));
                    i += 1;
                }
            }
            round += 1;
        }
        plan
    }

    fn draw_kind(&self, rng: &mut Rng) -> Kind {
        let x = rng.below(1000) as u32;
        if x < self.shape.dts_per_mille {
            Kind::Dts
        } else if x < self.shape.dts_per_mille + self.shape.tsx_per_mille {
            Kind::Tsx
        } else {
            Kind::Ts
        }
    }

    fn file_path(&mut self, folder: usize, stem: &str, kind: Kind) -> String {
        let ext = match kind {
            Kind::Ts => ".ts",
            Kind::Tsx => ".tsx",
            Kind::Dts => ".d.ts",
        };
        let folder_path = self.folders[folder].path.clone();
        let mut n = 1;
        loop {
            let name = if n == 1 {
                stem.to_string()
            } else {
                format!("{stem}{n}")
            };
            let path = format!("{folder_path}/{name}{ext}");
            let clash = self
                .modules
                .iter()
                .any(|m| m.folder == folder && strip_ext(&m.path) == strip_ext(&path));
            if !clash {
                return path;
            }
            n += 1;
        }
    }

    fn write_fixed_module(&mut self, folder: usize, stem: &str, source: &str) {
        let path = self.file_path(folder, stem, Kind::Ts);
        self.modules.push(Module {
            path: path.clone(),
            folder,
            kind: Kind::Ts,
        });
        self.exports.push(Symbols::default());
        self.push_file(path, source.as_bytes().to_vec());
    }

    fn write_index(&mut self, folder: usize) {
        if !self.shape.index_files {
            return;
        }
        let members: Vec<usize> = (0..self.modules.len())
            .filter(|&m| self.modules[m].folder == folder && self.modules[m].kind != Kind::Dts)
            .collect();
        if members.is_empty() {
            return;
        }
        let mut text = String::new();
        for m in &members {
            let stem = file_stem(&self.modules[*m].path);
            let js = if self.rng.chance(300) { ".js" } else { "" };
            let _ = writeln!(text, "export * from \"./{stem}{js}\";");
        }
        let path = format!("{}/index.ts", self.folders[folder].path);
        self.folders[folder].has_index = true;
        self.push_file(path, text.into_bytes());
    }

    fn write_module(&mut self, folder: usize, kind: Kind, size: usize) {
        let stem = {
            let base = *self.rng.pick(words::FILES);
            let noun = *self.rng.pick(words::NOUNS);
            let stem = match self.rng.below(3) {
                0 => base.to_string(),
                _ => format!("{}{}", words::lower_first(noun), words::upper_first(base)),
            };
            if self.shape.kebab_names {
                words::kebab(&stem)
            } else {
                stem
            }
        };
        let path = self.file_path(folder, &stem, kind);
        self.modules.push(Module {
            path: path.clone(),
            folder,
            kind,
        });
        self.exports.push(Symbols::default());
        self.cur = self.modules.len() - 1;
        self.out = String::with_capacity(size + 512);
        self.used.clear();
        self.pending.clear();
        self.scope = self.visible_symbols(folder);
        let mut first = true;
        while self.out.len() < size || first {
            let before = self.out.len();
            self.item(kind, first);
            first = false;
            self.error_budget -= (self.out.len() - before) as isize;
            if self.error_budget <= 0 {
                self.error_due = true;
            }
        }
        let header = self.import_header();
        let header_lines = header.matches('\n').count() as u32;
        let mut text = header;
        text.push_str(&self.out);
        for &(line, column, code) in &self.pending {
            self.errors.push(DeliberateError {
                path: path.clone(),
                line: line + header_lines,
                column,
                code,
            });
        }
        self.push_file(path, text.into_bytes());
    }
}

pub(super) fn strip_ext(path: &str) -> &str {
    for ext in [".d.ts", ".tsx", ".ts"] {
        if let Some(stem) = path.strip_suffix(ext) {
            return stem;
        }
    }
    path
}

fn file_stem(path: &str) -> &str {
    let stem = strip_ext(path);
    stem.rsplit('/').next().unwrap_or(stem)
}
