//! The walk: goes over a file's syntax, checks it and reports. The top layer: it calls every
//! other, and nothing calls it but [`Checker::check_file`] (the crate's way in) and
//! [`Checker::check_expr`] (a lower layer's way to an initializer's or a body's type). Every
//! other item here is `pub(super)`, so a call into the walk from another layer does not compile
//! (`tests/all/layers.rs` keeps it so).
mod annotations;
mod calls;
mod constraints;
mod declarations;
mod elaboration;
mod expressions;
mod statements;
