//! What the terminal shows: the progress bar while runs go, the tables and the report at
//! the end.
pub mod kernel;
pub mod progress;
pub mod quiet;
pub mod report;
pub mod studies;
pub mod table;
