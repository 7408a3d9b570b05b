//! A computation whose result a cache keeps, and the signals that forbid keeping it. Five
//! things make a result depend on the order in which a checker asked for types, so no
//! cache may keep it for good:
//!
//! - a resolution's placeholder it leaned on (`lean`, see `check/symbols/resolution.rs`);
//! - a limit it ran past, or a conditional type chosen by a relation assumed while in
//!   progress (`inst_taint`, see `check/types/limits.rs`);
//! - an in-progress relation it assumed related (`assumed`, see `check/types/relations.rs`);
//! - a lenient relation it met while a variance was measured (`variance.unreliable`,
//!   see `check/types/variance.rs`);
//! - a `this` cycle guard it hit (`this.partial`, see `check/types/this.rs`).
//!
//! [`Checker::cache_scope`] starts such a computation: it clears the signals for what runs
//! inside, [`CacheScope::met`] says which were raised there, and dropping the scope hands
//! them on to the computation that encloses it (what leaned on a placeholder, its
//! enclosing computations lean on too), whichever way the scope is left. A site that
//! settles a signal itself (a relation that settled its own assumption, a measurement
//! that keeps its unreliable markers) clears it before the scope ends.
//!
//! **A declaration resolved lazily does not depend on its caller's limits**: the type of
//! a type node, of a symbol in a value position and an inferred return type are computed
//! with the instantiation depth and count from 0 ([`CacheScope::restart_limits`]), as if
//! asked from the top level of a node of its own, so the depth, count and tail-recursion
//! limits met inside are the declaration's own, whoever asks first. Without this, an
//! annotation first reached 90 instantiations deep inside another file's type, or when
//! another file's statement had spent most of the 5,000,000 instantiations, would keep
//! another type than one reached from the top.
//!
//! **What a limit decided, a declaration cache keeps with the limits that decided it**:
//! the declaration caches (type nodes, value types, inferred return types, alias declared
//! types, type parameter constraints, constraint checks) keep a result a limit decided,
//! so that the limited declaration is computed once (refusing them made excalidraw's
//! check recompute the same limited declarations without end), and keep beside it the
//! limits met while it was computed (`check/types/limits.rs`, [`Checker::limits_met`]). A
//! reader of such a result meets them again ([`Checker::meet_kept_limits`]): it is tainted
//! and each limit is reported at its current node, as if it had computed the declaration
//! itself. Every other cache refuses a tainted result, so a limit met inside a
//! declaration reaches every node that depends on it, whichever asked first.
use std::ops::{Deref, DerefMut};

use crate::check::Checker;
use crate::check::symbols::resolution::NO_LEAN;

/// The signals of the computation that encloses a [`CacheScope`], as they were when it
/// started.
struct Outer {
    lean: usize,
    inst_taint: bool,
    assumed: bool,
    unreliable: bool,
    partial: u32,
    limits_floor: usize,
}

/// A computation whose result a cache keeps: the checker, with the signals cleared for
/// what runs inside; dropping it hands them on to the enclosing computation.
pub(in crate::check) struct CacheScope<'c, 'a, 'b> {
    cx: &'c mut Checker<'a, 'b>,
    outer: Outer,
}

/// Which signals a [`CacheScope`] has raised so far.
#[derive(Clone, Copy, Debug)]
pub(in crate::check) struct Met {
    /// It leaned on the placeholder of a resolution in progress.
    pub leaned: bool,
    /// It ran past a limit (or chose a conditional type by an assumption).
    pub tainted: bool,
    /// It assumed an in-progress relation related.
    pub assumed: bool,
    /// It met a lenient relation while a variance was measured.
    pub unreliable: bool,
    /// It hit a `this` cycle guard.
    pub partial: bool,
}

impl Met {
    /// Neither a placeholder, a limit nor a relation's assumption decided the result: a
    /// cache of types may keep it.
    pub(in crate::check) fn cacheable(self) -> bool {
        !self.leaned && !self.tainted && !self.assumed
    }
}

impl<'a, 'b> Checker<'a, 'b> {
    /// Starts a computation whose result a cache keeps (see the module documentation).
    pub(in crate::check) fn cache_scope(&mut self) -> CacheScope<'_, 'a, 'b> {
        let outer = Outer {
            lean: std::mem::replace(&mut self.lean, NO_LEAN),
            inst_taint: std::mem::replace(&mut self.inst_taint, false),
            assumed: std::mem::replace(&mut self.assumed, false),
            unreliable: std::mem::replace(&mut self.variance.unreliable, false),
            partial: self.this.partial,
            limits_floor: self.open_limits_met(),
        };
        CacheScope { cx: self, outer }
    }

    /// A limit, the type table guard, a cycle guard or an assumption decided what is being
    /// computed: no enclosing cache keeps it, but a declaration's, which keeps the limits
    /// met with it (see the module documentation).
    pub(in crate::check) fn taint(&mut self) {
        self.inst_taint = true;
    }
}

impl CacheScope<'_, '_, '_> {
    /// The signals raised since the scope started.
    pub(in crate::check) fn met(&self) -> Met {
        Met {
            leaned: self.cx.lean != NO_LEAN,
            tainted: self.cx.inst_taint,
            assumed: self.cx.assumed,
            unreliable: self.cx.variance.unreliable,
            partial: self.cx.this.partial != self.outer.partial,
        }
    }
}

/// The caller's instantiation depth and count, while a declaration is resolved.
pub(super) struct Restarted {
    depth: u32,
    instantiations: u32,
}

impl CacheScope<'_, '_, '_> {
    /// Starts resolving a declaration here: the instantiation depth and count start from
    /// 0 inside. Returns the caller's, for [`Self::settle_declaration`].
    pub(super) fn restart_limits(&mut self) -> Restarted {
        Restarted {
            depth: std::mem::replace(&mut self.cx.inst_depth, 0),
            instantiations: self.cx.restart_instantiation_count(),
        }
    }

    /// Ends resolving a declaration: the caller's depth and count again (what the
    /// declaration spent is not the caller's, so the caller's limits do not depend on
    /// whether the declaration was cached). A limit met inside still taints the caller,
    /// which reads the result as it would read it from the declaration's cache.
    pub(super) fn settle_declaration(&mut self, restarted: Restarted) {
        self.cx.inst_depth = restarted.depth;
        self.cx.resume_instantiation_count(restarted.instantiations);
    }
}

impl<'a, 'b> Deref for CacheScope<'_, 'a, 'b> {
    type Target = Checker<'a, 'b>;

    fn deref(&self) -> &Self::Target {
        self.cx
    }
}

impl DerefMut for CacheScope<'_, '_, '_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.cx
    }
}

impl Drop for CacheScope<'_, '_, '_> {
    fn drop(&mut self) {
        let cx = &mut *self.cx;
        cx.lean = cx.lean.min(self.outer.lean);
        cx.inst_taint |= self.outer.inst_taint;
        cx.assumed |= self.outer.assumed;
        cx.variance.unreliable |= self.outer.unreliable;
        cx.close_limits_met(self.outer.limits_floor);
    }
}
