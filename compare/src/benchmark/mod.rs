//! Running the bake-off: which child runs when ([`schedule`]), how a child is started
//! ([`launcher`]), how one run is measured ([`measure`]) and judged ([`judge`]), and the loop
//! that ties them together and keeps every finished run ([`runner`]), giving every child the
//! same stack and environment layout ([`layout`]); signals stop it between steps
//! ([`interrupt`]) and no process of a run outlives compare ([`watcher`]).
pub mod capture;
pub mod children;
pub mod interrupt;
pub mod judge;
pub mod launcher;
pub mod layout;
pub mod measure;
pub mod quiet;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod vmstat;
pub mod watcher;
