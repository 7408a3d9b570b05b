//! What the compiler host is given: every file of the corpus, the standard library, and the
//! corpus's own package names. One JSON document, parsed by each checker's runtime.
use std::collections::BTreeMap;

use corpora::Corpus;
use serde::Serialize;

use crate::TypeScript;

/// The host's input, exactly as `host.js` reads it (and `scripts/node-check.js` from a file).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    /// Corpus path to text. Invalid UTF-8 is replaced (U+FFFD), as a text editor would.
    pub files: BTreeMap<String, String>,
    /// Standard library file name (`lib.es5.d.ts`) to text.
    pub libs: BTreeMap<String, String>,
    /// `(module name, corpus path)`: how the corpus imports its own packages
    /// (`@trpc/server` is `server/src`), given to TypeScript as `paths`.
    pub roots: Vec<(String, String)>,
    /// The program's root files in corpus order: file *i* is checker *i mod N*'s.
    pub root_files: Vec<String>,
    /// Where typescript.js came from, for the node reference run; not read by the host.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub typescript: Option<String>,
}

impl Input {
    pub fn new(corpus: &Corpus, typescript: &TypeScript) -> Input {
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        let files: BTreeMap<String, String> = corpus
            .files
            .iter()
            .map(|f| (f.path.clone(), text(&f.bytes)))
            .collect();
        let root_files = corpus
            .files
            .iter()
            .filter(|f| workload::is_source_path(&f.path))
            .map(|f| f.path.clone())
            .collect();
        let libs = typescript
            .lib
            .iter()
            .map(|f| {
                let name = f.path.rsplit('/').next().unwrap_or(&f.path);
                (name.to_string(), text(&f.bytes))
            })
            .collect();
        let roots = corpora::module_roots(&corpus.name)
            .iter()
            .map(|(m, p)| (m.to_string(), p.to_string()))
            .collect();
        Input {
            files,
            libs,
            roots,
            root_files,
            typescript: None,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("strings and lists always serialise")
    }

    /// Bytes of the corpus and the standard library.
    pub fn bytes(&self) -> u64 {
        self.files
            .values()
            .chain(self.libs.values())
            .map(|t| t.len() as u64)
            .sum()
    }

    /// Lines of the corpus and the standard library.
    pub fn lines(&self) -> u64 {
        self.files
            .values()
            .chain(self.libs.values())
            .map(|t| t.lines().count() as u64)
            .sum()
    }
}
