//! Types: everything that operates on types (members, properties, instantiation,
//! conditional and mapped types, inference, type predicates, widening, freshness and excess
//! properties, relations, variance, printing, limits). What the walk and the other lower
//! layers ask of it is `pub(in crate::check)`; the rest is `pub(super)`, its own.
pub(super) mod conditional;
pub(super) mod excess;
pub(super) mod inference;
pub(super) mod instantiation;
pub(super) mod limits;
pub(super) mod mapped;
pub(super) mod members;
pub(super) mod outer;
pub(super) mod predicates;
pub(super) mod printing;
pub(super) mod properties;
pub(super) mod relations;
pub(super) mod sigrel;
pub(super) mod spread;
pub(super) mod this;
pub(super) mod union_signatures;
pub(super) mod variance;
pub(super) mod widening;
