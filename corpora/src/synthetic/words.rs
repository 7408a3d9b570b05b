//! Vocabulary for names that read like a real project's, and a factory that keeps
//! every exported name unique across the project.

use super::rng::Rng;
use std::collections::HashSet;

pub const NOUNS: &[&str] = &[
    "User",
    "Order",
    "Session",
    "Route",
    "Schema",
    "Query",
    "Column",
    "Entity",
    "Widget",
    "Layer",
    "Element",
    "Shape",
    "Scene",
    "Frame",
    "Token",
    "Node",
    "Router",
    "Request",
    "Response",
    "Client",
    "Server",
    "Cache",
    "Store",
    "Event",
    "Handler",
    "Plugin",
    "Option",
    "Context",
    "Result",
    "Record",
    "Transport",
    "Link",
    "Procedure",
    "Middleware",
    "Repository",
    "Migration",
    "Relation",
    "Index",
    "Driver",
    "Connection",
    "Page",
    "Browser",
    "Locator",
    "Selector",
    "Viewport",
    "Canvas",
    "Tool",
    "Panel",
    "Theme",
    "Color",
    "Font",
    "Point",
    "Bounds",
    "Binding",
    "Arrow",
    "Text",
    "Image",
    "Library",
    "History",
    "Action",
    "Command",
    "Subscriber",
    "Listener",
    "Channel",
    "Stream",
    "Batch",
    "Payload",
    "Header",
    "Cookie",
    "Account",
    "Profile",
    "Project",
    "Document",
    "Section",
    "Field",
    "Filter",
    "Sorter",
    "Cursor",
    "Range",
    "Selection",
    "Group",
    "Member",
    "Role",
    "Policy",
    "Permission",
    "Task",
    "Job",
    "Queue",
    "Worker",
    "Timer",
    "Metric",
    "Trace",
    "Span",
    "Snapshot",
    "Diff",
    "Patch",
    "Asset",
    "Bundle",
    "Module",
    "Package",
    "Manifest",
    "Tenant",
    "Invoice",
    "Payment",
    "Product",
    "Category",
    "Comment",
    "Post",
    "Tag",
    "Message",
    "Thread",
    "Frame",
    "Dialog",
    "Tooltip",
    "Menu",
    "Toolbar",
    "Sidebar",
    "Grid",
    "Cell",
    "Row",
    "Table",
    "View",
    "Transaction",
    "Lock",
    "Lease",
    "Replica",
    "Shard",
    "Pool",
];

pub const PREFIXES: &[&str] = &[
    "", "", "", "", "Base", "Default", "Remote", "Local", "Shared", "Inner", "Raw", "Parsed",
    "Pending", "Cached", "Active", "Linked", "Nested", "Scoped", "Typed", "Mapped", "Internal",
    "Public", "Static", "Dynamic", "Lazy", "Primary",
];

pub const SUFFIXES: &[&str] = &[
    "Options",
    "State",
    "Info",
    "Meta",
    "Spec",
    "Config",
    "Descriptor",
    "Params",
    "Settings",
    "Data",
    "Shape",
    "Details",
    "Summary",
    "Input",
    "Output",
    "Entry",
    "Definition",
    "Map",
];

pub const CLASS_SUFFIXES: &[&str] = &[
    "Service",
    "Manager",
    "Builder",
    "Factory",
    "Registry",
    "Controller",
    "Provider",
    "Adapter",
    "Resolver",
    "Loader",
    "Tracker",
    "Renderer",
    "Executor",
    "Visitor",
    "Collector",
    "Pool",
];

pub const VERBS: &[&str] = &[
    "create",
    "build",
    "get",
    "find",
    "resolve",
    "parse",
    "format",
    "render",
    "load",
    "save",
    "update",
    "merge",
    "apply",
    "compute",
    "normalize",
    "validate",
    "serialize",
    "measure",
    "collect",
    "select",
    "transform",
    "register",
    "dispatch",
    "handle",
    "restore",
    "sync",
    "encode",
    "decode",
    "prepare",
    "compose",
];

pub const MEMBERS: &[&str] = &[
    "id",
    "name",
    "label",
    "title",
    "kind",
    "status",
    "count",
    "total",
    "width",
    "height",
    "x",
    "y",
    "angle",
    "offset",
    "limit",
    "index",
    "version",
    "createdAt",
    "updatedAt",
    "enabled",
    "visible",
    "locked",
    "owner",
    "parent",
    "children",
    "items",
    "entries",
    "tags",
    "path",
    "url",
    "method",
    "input",
    "output",
    "value",
    "values",
    "key",
    "keys",
    "mode",
    "scale",
    "zoom",
    "opacity",
    "color",
    "stroke",
    "fill",
    "fontSize",
    "text",
    "description",
    "priority",
    "retries",
    "timeout",
    "delay",
    "capacity",
    "size",
    "depth",
    "level",
    "score",
    "weight",
    "source",
    "target",
    "prefix",
    "suffix",
    "group",
    "role",
    "scope",
    "origin",
    "region",
];

pub const WORDS: &[&str] = &[
    "alpha",
    "beta",
    "draft",
    "ready",
    "pending",
    "active",
    "closed",
    "archived",
    "primary",
    "secondary",
    "local",
    "remote",
    "inline",
    "block",
    "query",
    "mutation",
    "subscription",
    "solid",
    "dashed",
    "dotted",
    "hidden",
    "visible",
    "read",
    "write",
    "admin",
    "guest",
    "owner",
    "small",
    "medium",
    "large",
    "left",
    "right",
    "center",
    "top",
    "bottom",
    "start",
    "end",
    "none",
    "auto",
    "manual",
    "error",
    "warning",
    "info",
    "debug",
    "success",
    "idle",
    "loading",
];

pub const FOLDERS: &[&str] = &[
    "core",
    "adapters",
    "internals",
    "links",
    "http",
    "observable",
    "rpc",
    "error",
    "shared",
    "components",
    "actions",
    "scene",
    "renderer",
    "data",
    "hooks",
    "clipboard",
    "element",
    "driver",
    "metadata",
    "decorator",
    "repository",
    "migration",
    "schema",
    "subscriber",
    "connection",
    "persistence",
    "query",
    "server",
    "client",
    "utils",
    "model",
    "services",
    "store",
    "history",
    "math",
    "geometry",
    "fonts",
    "export",
    "import",
    "dialogs",
    "panels",
];

pub const FILES: &[&str] = &[
    "router",
    "procedure",
    "builder",
    "handler",
    "context",
    "types",
    "utils",
    "parser",
    "encoder",
    "transformer",
    "middleware",
    "resolver",
    "errors",
    "config",
    "state",
    "store",
    "actions",
    "selection",
    "bounds",
    "shapes",
    "render",
    "scene",
    "history",
    "binding",
    "collision",
    "layout",
    "metadata",
    "entity",
    "repository",
    "manager",
    "driver",
    "column",
    "relation",
    "migration",
    "query",
    "options",
    "schema",
    "cache",
    "events",
    "stream",
    "batch",
    "links",
    "helpers",
    "constants",
    "format",
    "validate",
    "serialize",
    "loader",
    "registry",
    "tracker",
];

/// Makes names, and remembers them so no two exported names of a project collide.
pub struct Names {
    taken: HashSet<String>,
}

impl Names {
    /// A factory that never hands out one of `reserved`.
    pub fn new(reserved: &[&str]) -> Self {
        Names {
            taken: reserved.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Reserves `base`, or `base2`, `base3`, ... if it is taken.
    pub fn claim(&mut self, base: String) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        for n in 2.. {
            let candidate = format!("{base}{n}");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
        unreachable!("an unbounded counter always finds a free name")
    }

    pub fn type_name(&mut self, rng: &mut Rng, suffixes: &[&str]) -> String {
        let base = format!(
            "{}{}{}",
            rng.pick(PREFIXES),
            rng.pick(NOUNS),
            rng.pick(suffixes)
        );
        self.claim(base)
    }

    pub fn plain_type_name(&mut self, rng: &mut Rng) -> String {
        let base = format!("{}{}", rng.pick(PREFIXES), rng.pick(NOUNS));
        self.claim(base)
    }

    pub fn function_name(&mut self, rng: &mut Rng) -> String {
        let base = format!(
            "{}{}{}",
            rng.pick(VERBS),
            rng.pick(PREFIXES),
            rng.pick(NOUNS)
        );
        self.claim(base)
    }

    pub fn constant_name(&mut self, rng: &mut Rng) -> String {
        let noun = rng.pick(NOUNS);
        let base = match rng.below(3) {
            0 => format!("DEFAULT_{}", upper_snake(noun)),
            1 => format!("initial{noun}{}", rng.pick(SUFFIXES)),
            _ => format!("default{noun}{}", rng.pick(SUFFIXES)),
        };
        self.claim(base)
    }
}

pub fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

pub fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

pub fn upper_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, ch) in s.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(ch.to_ascii_uppercase());
    }
    out
}

pub fn kebab(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for (i, ch) in s.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}
