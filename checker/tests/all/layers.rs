//! The layers of `src/check/` (checker/README.md, "Layers"). The compiler keeps a lower layer
//! from calling the walk: every item of `walk/` is `pub(super)`, the walk's own, but its two
//! ways in. These tests keep it so, reading the sources: the walk offers nothing more, no
//! lower layer checks a whole file, and every file of `check/` is in a layer folder.
use std::path::{Path, PathBuf};

const LAYERS: [&str; 4] = ["walk", "flow", "symbols", "types"];

/// What the walk offers outside its folder: the crate's way in, and a lower layer's way to an
/// initializer's or a body's type.
const WALK_WAYS_IN: [&str; 2] = ["check_expr", "check_file"];

fn check_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/check")
}

/// The `.rs` files of a layer folder with their text, sorted by name.
fn layer_files(layer: &str) -> Vec<(String, String)> {
    let dir = check_dir().join(layer);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (
                format!("{layer}/{}", p.file_name().unwrap().to_string_lossy()),
                text,
            )
        })
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no source files read in {}",
        dir.display()
    );
    files
}

/// The code of a file: comments gone, a trailing `#[cfg(test)]` module cut off.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap();
    text.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The items a file offers beyond `pub(super)`: (name, line) of each `pub`, `pub(crate)` or
/// `pub(in ...)` item.
fn widened_items(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (i, line) in code(text).lines().enumerate() {
        let line = line.trim_start();
        let rest = match line.strip_prefix("pub(in ") {
            Some(path) => path.split_once(") ").map_or(path, |(_, r)| r),
            None => match ["pub ", "pub(crate) "]
                .iter()
                .find_map(|p| line.strip_prefix(p))
            {
                Some(rest) => rest,
                None => continue,
            },
        };
        const KEYWORDS: [&str; 10] = [
            "fn", "struct", "enum", "const", "type", "static", "mod", "use", "trait", "unsafe",
        ];
        let name = rest
            .split_whitespace()
            .find(|w| !KEYWORDS.contains(w))
            .unwrap_or(rest);
        let name: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        out.push((name, i + 1));
    }
    out
}

/// Calls of `name` (`.name(` or `name(` not preceded by `fn `) in a file's code.
fn calls_of(text: &str, name: &str) -> usize {
    let code = code(text);
    code.match_indices(&format!("{name}("))
        .filter(|&(at, _)| {
            let before = &code[..at];
            !before.ends_with("fn ") && !before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
        })
        .count()
}

#[test]
fn the_walk_offers_nothing_but_its_ways_in() {
    let mut widened = Vec::new();
    for (file, text) in layer_files("walk") {
        for (name, line) in widened_items(&text) {
            if !WALK_WAYS_IN.contains(&name.as_str()) {
                widened.push(format!("{file}:{line} {name}"));
            }
        }
    }
    assert!(
        widened.is_empty(),
        "the walk offers these to other layers (make them pub(super), or call them from the \
         walk): {widened:?}"
    );
}

#[test]
fn no_lower_layer_checks_a_file() {
    let mut calls = Vec::new();
    for layer in &LAYERS[1..] {
        for (file, text) in layer_files(layer) {
            let n = calls_of(&text, "check_file");
            if n > 0 {
                calls.push(format!("{file}: {n}"));
            }
        }
    }
    assert!(calls.is_empty(), "lower layers call check_file: {calls:?}");
}

#[test]
fn every_file_of_check_is_in_a_layer_folder() {
    let mut loose = Vec::new();
    for entry in std::fs::read_dir(check_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".rs");
        if !LAYERS.contains(&stem) {
            loose.push(name);
        }
    }
    assert!(
        loose.is_empty(),
        "check/ holds files in no layer: {loose:?}"
    );
    for layer in LAYERS {
        layer_files(layer);
    }
}

#[test]
fn the_walk_is_found_by_its_ways_in() {
    let walk = layer_files("walk");
    for way in WALK_WAYS_IN {
        assert!(
            walk.iter()
                .any(|(_, text)| widened_items(text).iter().any(|(n, _)| n == way)),
            "{way} not found in walk/: the test reads the wrong files"
        );
    }
}
