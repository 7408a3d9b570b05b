//! Profiles: the shape of each real corpus (file count, size distribution, syntax mix)
//! as `corpora stats` measured it, for the generator to follow.

use std::fmt;
use std::str::FromStr;

/// Which real corpus the generated project imitates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// A blend of all shapes: the default, sized for the default bake-off.
    Mixed,
    /// Generic-heavy library source (type-level aliases, generic functions), `.ts` only.
    Trpc,
    /// A React-style application: about half `.tsx`, components, hooks, many small helpers.
    Excalidraw,
    /// An ORM: class- and decorator-heavy, async methods, many small files.
    Typeorm,
    /// Declarations only: a handful of very large `.d.ts` files with JSDoc and overloads.
    Playwright,
    /// A compiler and its library declarations: namespaces, enums, a few huge files.
    Typescript,
}

impl Profile {
    pub const ALL: [Profile; 6] = [
        Profile::Mixed,
        Profile::Trpc,
        Profile::Excalidraw,
        Profile::Typeorm,
        Profile::Playwright,
        Profile::Typescript,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Profile::Mixed => "mixed",
            Profile::Trpc => "trpc",
            Profile::Excalidraw => "excalidraw",
            Profile::Typeorm => "typeorm",
            Profile::Playwright => "playwright",
            Profile::Typescript => "typescript",
        }
    }

    pub fn shape(self) -> &'static Shape {
        match self {
            Profile::Mixed => &MIXED,
            Profile::Trpc => &TRPC,
            Profile::Excalidraw => &EXCALIDRAW,
            Profile::Typeorm => &TYPEORM,
            Profile::Playwright => &PLAYWRIGHT,
            Profile::Typescript => &TYPESCRIPT,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Profile {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Profile::ALL.into_iter().find(|p| p.name() == s).ok_or(())
    }
}

/// Relative weights of the top-level items a module is made of.
#[derive(Clone, Copy, Debug)]
pub struct Mix {
    pub interface: u32,
    pub alias: u32,
    pub type_level: u32,
    pub enumeration: u32,
    pub class: u32,
    pub entity: u32,
    pub function: u32,
    pub generic_function: u32,
    pub overload: u32,
    pub namespace: u32,
    pub constant: u32,
    pub async_function: u32,
    /// Only drawn in `.tsx` files, where it dominates.
    pub component: u32,
}

/// The measurable shape of a corpus.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Source bytes when no `@SIZE` is given (the real corpus's size, or the bake-off's
    /// default for `mixed`).
    pub default_bytes: u64,
    /// Median source file size, in bytes; sizes are log-normal around it.
    pub median_file_bytes: f64,
    /// Standard deviation of the natural log of the file size.
    pub sigma: f64,
    pub max_file_bytes: usize,
    /// Share of `.tsx` files, per mille.
    pub tsx_per_mille: u32,
    /// Share of `.d.ts` files, per mille.
    pub dts_per_mille: u32,
    pub mix: Mix,
    /// Top folders of the project; more are nested under them as the size grows.
    pub folders: &'static [&'static str],
    /// Files per folder before a new folder is opened.
    pub files_per_folder: (usize, usize),
    /// Whether folders get an `index.ts` that re-exports their modules.
    pub index_files: bool,
    /// File names are kebab-case (`query-builder.ts`) rather than camelCase.
    pub kebab_names: bool,
    /// One deliberate type error per this many source bytes, on average.
    pub error_every_bytes: usize,
    /// Share of object types written as `type X = { ... }` rather than interfaces.
    pub object_alias_per_mille: u32,
}

const MIB: u64 = 1 << 20;
const KIB: u64 = 1 << 10;

/// The default corpus size: big enough that several 16..512-byte class slices carve
/// past the 8 MiB switch point at one checker, small enough for the default bake-off.
pub const DEFAULT_MIXED_BYTES: u64 = 6 * MIB;

static MIXED: Shape = Shape {
    default_bytes: DEFAULT_MIXED_BYTES,
    median_file_bytes: 3500.0,
    sigma: 1.0,
    max_file_bytes: 160 << 10,
    tsx_per_mille: 200,
    dts_per_mille: 60,
    mix: Mix {
        interface: 14,
        alias: 6,
        type_level: 4,
        enumeration: 4,
        class: 10,
        entity: 4,
        function: 16,
        generic_function: 6,
        overload: 3,
        namespace: 3,
        constant: 8,
        async_function: 6,
        component: 60,
    },
    folders: &["app/src", "server/src", "shared/src", "ui/src"],
    files_per_folder: (4, 14),
    index_files: true,
    kebab_names: false,
    object_alias_per_mille: 250,
    error_every_bytes: 24 << 10,
};

static TRPC: Shape = Shape {
    default_bytes: 512 * KIB,
    median_file_bytes: 2700.0,
    sigma: 1.0,
    max_file_bytes: 32 << 10,
    tsx_per_mille: 0,
    dts_per_mille: 0,
    mix: Mix {
        interface: 16,
        alias: 14,
        type_level: 20,
        enumeration: 1,
        class: 2,
        entity: 0,
        function: 12,
        generic_function: 16,
        overload: 4,
        namespace: 1,
        constant: 8,
        async_function: 8,
        component: 0,
    },
    folders: &["server/src", "client/src"],
    files_per_folder: (3, 12),
    index_files: true,
    kebab_names: false,
    object_alias_per_mille: 300,
    error_every_bytes: 24 << 10,
};

static EXCALIDRAW: Shape = Shape {
    default_bytes: 5 * MIB,
    median_file_bytes: 2900.0,
    sigma: 1.7,
    max_file_bytes: 400 << 10,
    tsx_per_mille: 450,
    dts_per_mille: 50,
    mix: Mix {
        interface: 2,
        alias: 10,
        type_level: 3,
        enumeration: 2,
        class: 1,
        entity: 0,
        function: 20,
        generic_function: 4,
        overload: 1,
        namespace: 1,
        constant: 14,
        async_function: 3,
        component: 80,
    },
    folders: &[
        "excalidraw",
        "element/src",
        "math/src",
        "common/src",
        "utils/src",
    ],
    files_per_folder: (4, 16),
    index_files: true,
    kebab_names: false,
    object_alias_per_mille: 500,
    error_every_bytes: 24 << 10,
};

static TYPEORM: Shape = Shape {
    default_bytes: 4 * MIB,
    median_file_bytes: 2600.0,
    sigma: 1.6,
    max_file_bytes: 200 << 10,
    tsx_per_mille: 0,
    dts_per_mille: 0,
    mix: Mix {
        interface: 8,
        alias: 4,
        type_level: 2,
        enumeration: 4,
        class: 9,
        entity: 1,
        function: 12,
        generic_function: 4,
        overload: 3,
        namespace: 1,
        constant: 4,
        async_function: 8,
        component: 0,
    },
    folders: &["src"],
    files_per_folder: (4, 16),
    index_files: true,
    kebab_names: false,
    object_alias_per_mille: 100,
    error_every_bytes: 24 << 10,
};

static PLAYWRIGHT: Shape = Shape {
    default_bytes: 2304 * KIB,
    median_file_bytes: 400_000.0,
    sigma: 0.8,
    max_file_bytes: 1200 << 10,
    tsx_per_mille: 0,
    dts_per_mille: 1000,
    mix: Mix {
        interface: 40,
        alias: 30,
        type_level: 25,
        enumeration: 0,
        class: 1,
        entity: 0,
        function: 1,
        generic_function: 0,
        overload: 1,
        namespace: 1,
        constant: 1,
        async_function: 0,
        component: 0,
    },
    folders: &["types"],
    files_per_folder: (64, 64),
    index_files: false,
    kebab_names: false,
    object_alias_per_mille: 400,
    error_every_bytes: 48 << 10,
};

static TYPESCRIPT: Shape = Shape {
    default_bytes: 12 * MIB,
    median_file_bytes: 6000.0,
    sigma: 2.0,
    max_file_bytes: 4 << 20,
    tsx_per_mille: 0,
    dts_per_mille: 850,
    mix: Mix {
        interface: 14,
        alias: 5,
        type_level: 2,
        enumeration: 10,
        class: 4,
        entity: 0,
        function: 24,
        generic_function: 4,
        overload: 3,
        namespace: 20,
        constant: 8,
        async_function: 1,
        component: 0,
    },
    folders: &["lib"],
    files_per_folder: (200, 200),
    index_files: false,
    kebab_names: false,
    object_alias_per_mille: 100,
    error_every_bytes: 32 << 10,
};
