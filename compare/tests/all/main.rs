//! compare's integration tests, one module per feature.
mod bad_input;
mod children;
mod fake;
mod no_fetch;
mod report;
mod resume;
mod schedule;
mod slice_service;
mod statistics;
