//! Flow: narrows a reference by the conditions it passed, over the binder's control-flow
//! graph, and says what one condition leaves of a type. What the walk and the other lower
//! layers ask of it is `pub(in crate::check)`; the rest is `pub(super)`, its own.
pub(super) mod guards;
pub(super) mod narrow;
