//! corpora's integration tests; none touches the network.

mod cache;
mod cli;
mod fetch;
mod fixture;
mod local;
mod repo;
mod stats;
