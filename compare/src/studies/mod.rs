//! The studies a results file answers: the publication beside our runs (`reproduce`), the
//! carve-record model of every slice policy's faults and RSS (`model`), and the policy
//! frontier (`policies`). Each reads `ok` runs from the results model and its statistics
//! from `stats`; the renderers in `output` and `export` show what they compute.
pub mod model;
pub mod policies;
pub mod reproduce;
