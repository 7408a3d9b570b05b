//! What a module sees and imports: the symbols of a few earlier modules, the
//! relative specifiers that reach them, and the import header naming what was used.

use super::layout::strip_ext;
use super::{Gen, Kind};
use crate::synthetic::model::*;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

impl Gen<'_> {
    /// The symbols of a few earlier modules, nearby ones preferred, as real code imports.
    pub(super) fn visible_symbols(&mut self, folder: usize) -> Symbols {
        let mut scope = Symbols::default();
        let earlier: Vec<usize> = (0..self.cur)
            .filter(|&m| Some(m) != self.util_module && Some(m) != self.decorators_module)
            .collect();
        if earlier.is_empty() {
            return scope;
        }
        let same: Vec<usize> = earlier
            .iter()
            .copied()
            .filter(|&m| self.modules[m].folder == folder)
            .collect();
        let want = self.rng.range(2, 6);
        let mut chosen = HashSet::new();
        for _ in 0..want * 2 {
            if chosen.len() >= want {
                break;
            }
            let m = if !same.is_empty() && self.rng.chance(550) {
                *self.rng.pick(&same)
            } else if self.rng.chance(500) {
                // Recent modules are the likeliest neighbours.
                let from = earlier.len().saturating_sub(40);
                earlier[self.rng.range(from, earlier.len() - 1)]
            } else {
                *self.rng.pick(&earlier)
            };
            if chosen.insert(m) {
                scope.extend(&self.exports[m]);
            }
        }
        scope
    }

    pub(super) fn import_header(&mut self) -> String {
        // Group by specifier: two modules reached through one folder index share a line.
        let mut by_spec: BTreeMap<String, (Vec<String>, bool)> = BTreeMap::new();
        let used = std::mem::take(&mut self.used);
        for (module, names) in &used {
            let spec = self.specifier(*module);
            let entry = by_spec.entry(spec).or_insert((Vec::new(), true));
            for (name, type_only) in names {
                entry.0.push(name.clone());
                entry.1 &= *type_only;
            }
        }
        let mut header = String::new();
        for (spec, (mut names, type_only)) in by_spec {
            names.sort();
            names.dedup();
            let keyword = if type_only { "import type" } else { "import" };
            let one_line = format!("{keyword} {{ {} }} from \"{spec}\";", names.join(", "));
            if one_line.len() <= 100 {
                header.push_str(&one_line);
                header.push('\n');
            } else {
                let _ = writeln!(header, "{keyword} {{");
                for name in &names {
                    let _ = writeln!(header, "    {name},");
                }
                let _ = writeln!(header, "}} from \"{spec}\";");
            }
        }
        if !header.is_empty() {
            header.push('\n');
        }
        header
    }

    /// A relative specifier from the current module to `target`: extensionless, with
    /// `.js` for `.ts` as ESM code writes it, or through the target folder's index.
    fn specifier(&mut self, target: usize) -> String {
        let from = self.modules[self.cur].path.clone();
        let to_module = &self.modules[target];
        let to_folder = &self.folders[to_module.folder];
        let other_folder = to_module.folder != self.modules[self.cur].folder;
        let via_index = other_folder && to_folder.has_index && to_module.kind != Kind::Dts;
        let dts = to_module.kind == Kind::Dts;
        let to_path = to_module.path.clone();
        let folder_path = to_folder.path.clone();
        // Deterministic per (module, target), so one module always writes one form.
        let mut rng = self.rng.fork((self.cur as u64) << 32 | target as u64);
        let stem_path = if via_index && rng.chance(600) {
            match rng.below(3) {
                0 => folder_path,
                1 => format!("{folder_path}/index"),
                _ => format!("{folder_path}/index.js"),
            }
        } else {
            let bare = strip_ext(&to_path).to_string();
            if !dts && rng.chance(250) {
                format!("{bare}.js")
            } else {
                bare
            }
        };
        relative(&from, &stem_path)
    }

    pub(super) fn use_symbol(&mut self, module: usize, name: &str, type_only: bool) {
        if module == self.cur {
            return;
        }
        let entry = self.used.entry(module).or_default();
        match entry.get_mut(name) {
            Some(t) => *t &= type_only,
            None => {
                entry.insert(name.to_string(), type_only);
            }
        }
    }

    pub(super) fn use_util(&mut self, name: &str, type_only: bool) -> bool {
        match self.util_module {
            Some(m) => {
                self.use_symbol(m, name, type_only);
                true
            }
            None => false,
        }
    }

    pub(super) fn use_decorator(&mut self, name: &str) {
        if let Some(m) = self.decorators_module {
            self.use_symbol(m, name, false);
        }
    }
}

/// The relative specifier from the module at `from` to `to` (both corpus paths).
fn relative(from: &str, to: &str) -> String {
    let from_dir: Vec<&str> = from.split('/').collect();
    let from_dir = &from_dir[..from_dir.len() - 1];
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from_dir.len() - common;
    let rest = to_parts[common..].join("/");
    if ups == 0 {
        format!("./{rest}")
    } else {
        format!("{}{rest}", "../".repeat(ups))
    }
}

#[cfg(test)]
mod tests {
    use super::relative;

    #[test]
    fn relative_specifiers_climb_and_descend() {
        assert_eq!(relative("a/b/c.ts", "a/b/d"), "./d");
        assert_eq!(relative("a/b/c.ts", "a/e/d"), "../e/d");
        assert_eq!(relative("a/b/c.ts", "x/y"), "../../x/y");
        assert_eq!(relative("a/b/c.ts", "a/b/sub/index"), "./sub/index");
    }
}
