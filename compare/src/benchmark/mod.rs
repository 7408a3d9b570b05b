//! Running the bake-off: which child runs when ([`schedule`]), how a child is started
//! ([`launcher`]), how one run is measured ([`measure`]), and the loop that ties them
//! together and keeps every finished run ([`runner`]).
pub mod children;
pub mod launcher;
pub mod measure;
pub mod runner;
pub mod schedule;
