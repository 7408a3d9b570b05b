//! compare's integration tests, one module per feature.
mod bad_input;
mod children;
mod fake;
mod precision;
mod report;
mod resume;
mod schedule;
mod statistics;
