//! Symbols: the types of symbols in type and value positions, of type nodes, type
//! parameters' defaults and signatures from syntax, with the resolutions in progress and the
//! `CacheScope` guard. What the walk and the other lower layers ask of it is
//! `pub(in crate::check)`; the rest is `pub(super)`, its own.
pub(super) mod declared;
pub(super) mod defaults;
pub(super) mod resolution;
pub(super) mod scope;
pub(super) mod signatures;
pub(super) mod type_nodes;
pub(super) mod values;
