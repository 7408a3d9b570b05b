//! compare's integration tests, one module per feature.
mod bad_input;
mod careless;
mod child_builds;
mod children;
mod command;
mod fake;
mod knobs;
mod model;
mod no_fetch;
mod precision;
mod report;
mod resume;
mod resume_plan;
mod schedule;
mod slice_service;
mod statistics;
mod workload;
