//! What the terminal shows: the progress bar while runs go, the table at the end.
pub mod progress;
pub mod table;
