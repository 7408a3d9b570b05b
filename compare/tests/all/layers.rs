//! compare's files import one another without a circle, and its folders in one direction.
//!
//! The edges are the real paths of the code (`use` declarations and `crate::`, `super::`,
//! `self::` paths in items), read from `src/` with comments, strings and `#[cfg(test)]`
//! modules left out, so a doc link is no edge; each path goes to the file that declares the
//! module it names. `COMPARE_SRC=DIR` reads another checkout's `src/` (main's, say) instead.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first: a file may import its own layer and those below it, never one
/// above. A layer is a folder or a top-level file of `src/` (its module name); what no
/// layer names is the wiring on top (`app`, `cli`, the crate root).
const LAYERS: &[&[&str]] = &[
    &["workload", "stats", "table", "environment", "contender"],
    &["results"],
    &["studies"],
    &["output"],
    &["export"],
    &["calibrate", "benchmark", "child"],
    &["command"],
    &["shard", "merge"],
];

/// A module of `src/` by its path (`results/kernel`; `` for the crate root).
type Module = String;

#[test]
fn compare_s_files_import_one_another_without_a_circle() {
    let graph = Graph::read(&source_dir());
    let circles = graph.circles();
    assert!(
        circles.is_empty(),
        "import circles among compare's files:\n{}\n\nedges:\n{}",
        circles
            .iter()
            .map(|c| graph.show_circle(c))
            .collect::<Vec<_>>()
            .join("\n"),
        graph.show_edges()
    );
}

#[test]
fn compare_s_layers_import_only_those_below_them() {
    let graph = Graph::read(&source_dir());
    let upward: Vec<String> = graph
        .edges()
        .filter_map(|(from, to, via)| {
            let (a, b) = (layer(from)?, layer(to)?);
            (b > a).then(|| format!("{from} -> {to} ({via})"))
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports of a higher layer (layers, lowest first: {LAYERS:?}):\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_import_reader_sees_what_it_must() {
    let graph = Graph::read(&source_dir());
    assert!(graph.files.len() > 40, "read {} files", graph.files.len());
    let has = |from: &str, to: &str| graph.edges().any(|(a, b, _)| a == from && b == to);
    // A grouped use, an inline path in a body, and a sibling through `super::`.
    assert!(has("benchmark/runner", "export"));
    assert!(has("benchmark/runner", "benchmark/measure"));
    assert!(has("export/markdown", "export/memory"));
    let lexed = lex(
        "/// [`crate::merge`]\nfn f() { let s = \"crate::shard\"; let c = '\"'; }\n\
                     #[cfg(test)]\nmod tests { use crate::app; }\nuse crate::{a::{b, c as d}, e};",
    );
    let paths = paths("x", &lexed);
    assert_eq!(paths, ["a::b", "a::c", "e"], "{lexed}");
}

fn source_dir() -> PathBuf {
    std::env::var_os("COMPARE_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// The layer of a module: the index in [`LAYERS`] of its top-level name.
fn layer(module: &str) -> Option<usize> {
    let top = module.split('/').next()?;
    LAYERS.iter().position(|names| names.contains(&top))
}

struct Graph {
    files: BTreeSet<Module>,
    /// From a file to each file it imports, with one path that does.
    edges: BTreeMap<Module, BTreeMap<Module, String>>,
}

impl Graph {
    fn read(src: &Path) -> Graph {
        let mut sources = BTreeMap::new();
        collect(src, src, &mut sources);
        let files: BTreeSet<Module> = sources.keys().cloned().collect();
        let mut edges: BTreeMap<Module, BTreeMap<Module, String>> = BTreeMap::new();
        for (module, text) in &sources {
            for path in paths(module, &lex(text)) {
                if let Some(target) = resolve(&files, &path)
                    && target != *module
                    && !target.is_empty()
                {
                    edges
                        .entry(module.clone())
                        .or_default()
                        .entry(target)
                        .or_insert(path);
                }
            }
        }
        Graph { files, edges }
    }

    fn edges(&self) -> impl Iterator<Item = (&str, &str, &str)> {
        self.edges.iter().flat_map(|(from, to)| {
            to.iter()
                .map(move |(to, via)| (from.as_str(), to.as_str(), via.as_str()))
        })
    }

    /// Every strongly connected set of more than one file (Tarjan's algorithm).
    fn circles(&self) -> Vec<Vec<Module>> {
        struct State<'g> {
            graph: &'g Graph,
            index: BTreeMap<&'g str, usize>,
            low: BTreeMap<&'g str, usize>,
            stack: Vec<&'g str>,
            on_stack: BTreeSet<&'g str>,
            found: Vec<Vec<Module>>,
        }
        fn visit<'g>(s: &mut State<'g>, v: &'g str) {
            let n = s.index.len();
            s.index.insert(v, n);
            s.low.insert(v, n);
            s.stack.push(v);
            s.on_stack.insert(v);
            let graph = s.graph;
            for w in graph.edges.get(v).into_iter().flat_map(|to| to.keys()) {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let low = s.low[v].min(s.low[w]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w) {
                    let low = s.low[v].min(s.index[w]);
                    s.low.insert(v, low);
                }
            }
            if s.low[v] == s.index[v] {
                let mut component = Vec::new();
                while let Some(w) = s.stack.pop() {
                    s.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    s.found.push(component);
                }
            }
        }
        let mut state = State {
            graph: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            found: Vec::new(),
        };
        for v in &self.files {
            if !state.index.contains_key(v.as_str()) {
                visit(&mut state, v);
            }
        }
        state.found
    }

    fn show_circle(&self, circle: &[Module]) -> String {
        let inside: Vec<String> = self
            .edges()
            .filter(|(a, b, _)| circle.iter().any(|c| c == a) && circle.iter().any(|c| c == b))
            .map(|(a, b, via)| format!("  {a} -> {b} ({via})"))
            .collect();
        format!(
            "{} files: {}\n{}",
            circle.len(),
            circle.join(", "),
            inside.join("\n")
        )
    }

    fn show_edges(&self) -> String {
        let lines: Vec<String> = self
            .edges()
            .map(|(a, b, via)| format!("  {a} -> {b} ({via})"))
            .collect();
        lines.join("\n")
    }
}

/// Every `.rs` file under `dir` by module path, less the binaries (their own crates).
fn collect(src: &Path, dir: &Path, into: &mut BTreeMap<Module, String>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        let relative = path
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            if relative != "bin" {
                collect(src, &path, into);
            }
            continue;
        }
        let Some(stem) = relative.strip_suffix(".rs") else {
            continue;
        };
        let module = match stem {
            "lib" => String::new(),
            "main" => continue,
            _ => stem.strip_suffix("/mod").unwrap_or(stem).to_string(),
        };
        into.insert(module, std::fs::read_to_string(&path).unwrap());
    }
}

/// `text` with comments, string and character literals blanked and `#[cfg(test)]` modules
/// left out.
fn lex(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            let mut depth = 0;
            while i < b.len() {
                if text[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if text[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(len) = raw_string(rest) {
            out.push_str("\"\"");
            i += len;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\''), or a lifetime, kept.
            let literal = match rest.get(1..).map(|r| r.chars().collect::<Vec<_>>()) {
                Some(c) if c.first() == Some(&'\\') => rest[2..].find('\'').map(|n| n + 3),
                Some(c) if c.get(1) == Some(&'\'') => Some(2 + c[0].len_utf8()),
                _ => None,
            };
            match literal {
                Some(len) => {
                    out.push_str("' '");
                    i += len;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else if rest.starts_with("#[cfg(test)]") {
            i += "#[cfg(test)]".len();
            let after = text[i..].trim_start();
            if after.starts_with("mod ") && !after[..after.find([';', '{']).unwrap_or(0)].is_empty()
            {
                let open = i + text[i..].find(['{', ';']).unwrap_or(0);
                if b[open] == b'{' {
                    i = matching_brace(b, open);
                }
            }
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The length of the raw string (`r"..."`, `r#"..."#`, `br#"..."#`) `text` starts with.
fn raw_string(text: &str) -> Option<usize> {
    let body = text.strip_prefix("br").or_else(|| text.strip_prefix('r'))?;
    let hashes = body.len() - body.trim_start_matches('#').len();
    let body = &body[hashes..];
    if !body.starts_with('"') {
        return None;
    }
    let close = format!("\"{}", "#".repeat(hashes));
    let end = body[1..].find(&close)?;
    Some(text.len() - body.len() + 1 + end + close.len())
}

/// The index just past the brace that closes the one at `open`.
fn matching_brace(b: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    b.len()
}

/// The paths `code` (lexed) of `module` names, each from the crate root as `a::b::c`:
/// every `use` tree expanded, and every `crate::`, `super::` or `self::` path elsewhere.
fn paths(module: &str, code: &str) -> Vec<String> {
    let tokens = tokens(code);
    let here: Vec<String> = module
        .split('/')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "use" {
            let end = tokens[i..]
                .iter()
                .position(|t| t == ";")
                .map_or(tokens.len(), |n| i + n);
            let mut leaves = Vec::new();
            expand(&tokens[i + 1..end], &mut Vec::new(), &mut leaves);
            found.extend(leaves.into_iter().filter_map(|p| absolute(&here, &p, true)));
            i = end;
        } else if matches!(tokens[i].as_str(), "crate" | "super" | "self")
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && (i == 0 || tokens[i - 1] != "::")
        {
            let mut path = vec![tokens[i].clone()];
            let mut j = i + 1;
            while tokens.get(j).is_some_and(|t| t == "::")
                && tokens.get(j + 1).is_some_and(|t| is_ident(t))
            {
                path.push(tokens[j + 1].clone());
                j += 2;
            }
            found.extend(absolute(&here, &path, false));
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

/// Expands a `use` tree (`a::{b, c::{d as e}}`) into its leaf paths.
fn expand(tokens: &[String], prefix: &mut Vec<String>, leaves: &mut Vec<Vec<String>>) {
    let mut i = 0;
    let depth = prefix.len();
    while i < tokens.len() {
        match tokens[i].as_str() {
            "{" => {
                let close = i + matching(&tokens[i..]);
                for part in split_top(&tokens[i + 1..close]) {
                    expand(part, prefix, leaves);
                }
                prefix.truncate(depth);
                return;
            }
            "::" | "pub" | "(" | ")" => i += 1,
            "as" => break,
            t if is_ident(t) => {
                prefix.push(t.to_string());
                i += 1;
            }
            _ => i += 1,
        }
    }
    if prefix.len() > depth {
        leaves.push(prefix.clone());
    }
    prefix.truncate(depth);
}

fn matching(tokens: &[String]) -> usize {
    let mut depth = 0;
    for (i, t) in tokens.iter().enumerate() {
        match t.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    tokens.len() - 1
}

fn split_top(tokens: &[String]) -> Vec<&[String]> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, t) in tokens.iter().enumerate() {
        match t.as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&tokens[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tokens[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

/// `path` as seen from the module `here`, from the crate root; `None` for another crate's.
/// A `use` path may also start with a child module of `here`.
fn absolute(here: &[String], path: &[String], in_use: bool) -> Option<String> {
    let mut base: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first()?.as_str() {
        "crate" => rest = &path[1..],
        "self" => {
            base = here.to_vec();
            rest = &path[1..];
        }
        "super" => {
            base = here.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        // `use kernel::X` in results.rs names its child; another crate's path lands in no
        // file but `here`, which is no edge.
        _ if in_use => base = here.to_vec(),
        _ => return None,
    }
    Some(
        base.iter()
            .chain(rest)
            .cloned()
            .collect::<Vec<_>>()
            .join("::"),
    )
}

/// The file a path from the crate root lands in: the longest prefix that is a module file.
fn resolve(files: &BTreeSet<Module>, path: &str) -> Option<Module> {
    let parts: Vec<&str> = path.split("::").collect();
    (0..=parts.len())
        .rev()
        .map(|n| parts[..n].join("/"))
        .find(|m| files.contains(m))
        .filter(|m| !m.is_empty())
}

fn tokens(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push(code[i..end].to_string());
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            tokens.push("::".to_string());
        } else if !c.is_whitespace() {
            tokens.push(c.to_string());
        }
    }
    tokens
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}
