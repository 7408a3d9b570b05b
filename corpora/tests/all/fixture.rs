//! A fake npm package built in memory, and a fake npm that serves it.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use corpora::{FetchPlan, Npm, PackageDef, Pin, Provenance, Take};
use sha2::{Digest, Sha512};

pub const PACKAGE: &str = "@fixture/pkg";

/// A gzipped npm-style tarball (`package/...`) holding `files`.
pub fn tarball(files: &[(&str, &[u8])]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (path, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, format!("package/{path}"), *bytes)
            .unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

/// The default fixture: authored sources, a source map, and files to leave out.
pub fn default_tarball() -> Vec<u8> {
    let map = serde_json::json!({
        "version": 3,
        "sources": ["../src/mapped.ts", "webpack://pkg/./lib/ns.ts", "../../../../../etc/escape.ts", "../styles.css"],
        "sourcesContent": ["export const m = 1;\n", "export const n = 2;\n", "export const e = 3;\n", "body {}"],
        "mappings": ""
    })
    .to_string();
    tarball(&[
        ("package.json", b"{\"name\":\"@fixture/pkg\"}"),
        ("src/a.ts", b"export const a: number = 1;\n"),
        (
            "src/sub/b.ts",
            b"import { a } from '../a';\nexport const b = a;\n",
        ),
        ("src/notes.md", b"# not source\n"),
        ("dist/index.js.map", map.as_bytes()),
        ("dist/index.js", b"exports.m = 1;\n"),
    ])
}

pub fn integrity(bytes: &[u8]) -> String {
    format!(
        "sha512-{}",
        base64::engine::general_purpose::STANDARD.encode(Sha512::digest(bytes))
    )
}

/// What the standard library stand-ins take: declaration files under `src/`.
pub const TAKE_DECLARATIONS: &[Take] = &[Take::Files {
    dir: "src/",
    name_prefix: "",
    suffix: ".d.ts",
    recursive: true,
    except_prefix: None,
}];

pub const TAKE: &[Take] = &[
    Take::Files {
        dir: "src/",
        name_prefix: "",
        suffix: ".ts",
        recursive: true,
        except_prefix: None,
    },
    Take::Maps {
        dir: "dist/",
        except_dirs: &[],
    },
];

pub fn plan(name: &str, integrity: String) -> FetchPlan {
    plan_taking(name, integrity, TAKE)
}

/// A fetch plan for the fixture package that takes `take` from it.
pub fn plan_taking(name: &str, integrity: String, take: &'static [Take]) -> FetchPlan {
    FetchPlan {
        name: name.to_string(),
        provenance: Provenance::AuthoredSource,
        packages: vec![(
            PackageDef {
                package: PACKAGE,
                prefix: "",
                take,
            },
            Pin {
                corpus: name.to_string(),
                package: PACKAGE.to_string(),
                version: "1.0.0".to_string(),
                integrity,
                what: "src/**/*.ts and dist maps".to_string(),
            },
        )],
    }
}

/// A shell script standing in for npm.
pub fn script(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("fake-npm");
    let mut f = std::fs::File::create(&path).unwrap();
    writeln!(f, "#!/bin/sh\n{body}").unwrap();
    drop(f);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    // A test thread that forked while the script was open for writing holds that fd until
    // its child execs, and exec of the script fails with "text file busy" meanwhile.
    for _ in 0..200 {
        match std::process::Command::new(&path).arg("--probe").output() {
            Err(e) if e.raw_os_error() == Some(26) => {
                std::thread::sleep(std::time::Duration::from_millis(5))
            }
            _ => break,
        }
    }
    path
}

/// An npm whose `view` gives the address of `tgz` (written next to it).
pub fn npm_serving(dir: &Path, tgz: &[u8]) -> Npm {
    let file = dir.join("pkg-1.0.0.tgz");
    std::fs::write(&file, tgz).unwrap();
    let program = script(
        dir,
        &format!(
            "case \"$1\" in view) echo \"file://{}\";; *) echo \"unexpected $*\" >&2; exit 3;; esac",
            file.display()
        ),
    );
    Npm {
        program: program.into(),
    }
}

/// Every entry under `<root>/corpora`, hidden ones included (none when it does not exist).
pub fn cache_entries(root: &Path) -> Vec<String> {
    match std::fs::read_dir(root.join("corpora")) {
        Ok(rd) => rd
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    }
}
