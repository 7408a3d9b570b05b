//! Merging the global declarations of every file (script files, the standard library,
//! `declare global`) into one global table, and the variance markers after them.
use rustc_hash::FxHashMap;
use swc_atoms::Atom;

use super::{FileBinding, GLOBAL_FILE, Globals, Symbol, SymbolId, flags};

/// Merges the global declarations of all files into a fresh global table.
pub fn merge_globals<'a>(files: &[FileBinding<'a>]) -> Globals<'a> {
    let mut m = Merger {
        files,
        out: Globals::default(),
    };
    for f in files {
        for &id in &f.globals {
            let name = m.symbol(id).name.clone();
            m.merge_into(name, id, None);
        }
    }
    // The variance markers, after every merged symbol (so those keep their ids).
    for name in VARIANCE_MARKERS {
        m.out
            .global_symbols
            .push(Symbol::new(Atom::from(name), flags::TYPE_PARAM));
    }
    m.out
}

/// Type parameters no declaration names, the last symbols of every checker's global
/// table: the checker's variance markers (TypeScript's `markerSuperType`,
/// `markerSubType`, `markerOtherType`).
pub const VARIANCE_MARKERS: [&str; 3] = ["markerSuper", "markerSub", "markerOther"];

struct Merger<'a, 'f> {
    files: &'f [FileBinding<'a>],
    out: Globals<'a>,
}

impl<'a> Merger<'a, '_> {
    fn symbol(&self, id: SymbolId) -> &Symbol<'a> {
        if id.file == GLOBAL_FILE {
            &self.out.global_symbols[id.index as usize]
        } else {
            &self.files[id.file as usize].symbols[id.index as usize]
        }
    }

    fn table(&mut self, parent: Option<SymbolId>) -> &mut FxHashMap<Atom, SymbolId> {
        match parent {
            None => &mut self.out.globals,
            Some(p) => &mut self.out.global_symbols[p.index as usize].exports,
        }
    }

    /// Adds `id` under `name` to the global table, or to the exports of the merged
    /// namespace `parent`, merging with what is already there.
    fn merge_into(&mut self, name: Atom, id: SymbolId, parent: Option<SymbolId>) {
        let existing = self.table(parent).get(&name).copied();
        let target = match existing {
            None => {
                self.table(parent).insert(name, id);
                return;
            }
            Some(existing) if existing.file == GLOBAL_FILE => existing,
            Some(existing) => {
                // First collision: a merged symbol that starts as a copy of `existing`.
                let first = self.symbol(existing);
                let mut copy = Symbol::new(first.name.clone(), first.flags);
                copy.decls = first.decls.clone();
                copy.members = first.members.clone();
                let first_exports: Vec<(Atom, SymbolId)> =
                    first.exports.iter().map(|(k, v)| (k.clone(), *v)).collect();
                let merged_id = SymbolId {
                    file: GLOBAL_FILE,
                    index: self.out.global_symbols.len() as u32,
                };
                self.out.global_symbols.push(copy);
                self.table(parent).insert(name, merged_id);
                for (k, v) in first_exports {
                    self.merge_into(k, v, Some(merged_id));
                }
                merged_id
            }
        };
        let other = self.symbol(id);
        let flags = other.flags;
        let decls = other.decls.clone();
        let members: Vec<(Atom, SymbolId)> =
            other.members.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let exports: Vec<(Atom, SymbolId)> =
            other.exports.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let t = &mut self.out.global_symbols[target.index as usize];
        t.flags |= flags;
        t.decls.extend(decls);
        for (k, v) in members {
            t.members.entry(k).or_insert(v);
        }
        for (k, v) in exports {
            self.merge_into(k, v, Some(target));
        }
    }
}
