//! Resolutions in progress (TypeScript's `resolutionTargets`): a value type or an inferred
//! return type met again while it is computed gives a placeholder, and what leaned on that
//! placeholder is kept only provisionally, until the resolution it leaned on completes.

use crate::bind::SymbolId;
use crate::check::Checker;
use crate::check::types::limits::Decided;
use crate::types::TypeId;

/// A lazily computed result that a cycle can meet again while it is being computed:
/// meeting it gives a placeholder (`any`), as TypeScript does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(in crate::check) enum Resolution {
    /// The type of a symbol in a value position.
    Value(SymbolId),
    /// The return type inferred from a function body (by node key).
    Return(u64),
    /// The measured variances of a generic type's parameters (`check/types/variance.rs`).
    Variance(SymbolId),
    /// A generic alias instantiated with arguments (by the mapper's key).
    Alias(SymbolId, u64),
    /// A type parameter's default (its declaring symbol and position, `check/symbols/defaults.rs`).
    Default((SymbolId, u32)),
}

/// A [`Resolution`] in progress, and the provisional results that leaned on its
/// placeholder (forgotten when it completes).
pub(in crate::check) struct Pending {
    what: Resolution,
    provisional: Vec<Resolution>,
}

/// No in-progress placeholder was met: what was computed may be cached.
pub(in crate::check) const NO_LEAN: usize = usize::MAX;

impl<'a, 'b> Checker<'a, 'b> {
    /// Starts computing `what`. `None` when it is already in progress (a cycle): the caller
    /// gives its placeholder, and whatever leans on that is not cached for good.
    pub(in crate::check) fn begin_resolution(
        &mut self,
        what: Resolution,
    ) -> Option<(usize, usize)> {
        if let Some(&at) = self.resolving.get(&what) {
            self.lean = self.lean.min(at);
            return None;
        }
        let at = self.resolutions.len();
        self.resolutions.push(Pending {
            what,
            provisional: Vec::new(),
        });
        self.resolving.insert(what, at);
        Some((at, std::mem::replace(&mut self.lean, NO_LEAN)))
    }

    /// Completes the resolution `begin_resolution` started, with result `t`. Returns
    /// whether `t` may be cached for good: it leaned on no placeholder, or only on its own
    /// (it is where the cycle was entered). Otherwise `t` is kept provisionally, for as long
    /// as the resolution it leaned on is in progress.
    ///
    /// What a limit decided is cached like any other result here (as it was before
    /// 39a88b0): refusing it made excalidraw's checker run away (over 11 GB in a minute at 1
    /// checker, the same at 39a88b0 itself), since every ask recomputed the limited
    /// declaration up to the limit again. Issue 25 keeps the history-dependence this allows.
    pub(in crate::check) fn end_resolution(
        &mut self,
        (at, outer): (usize, usize),
        t: TypeId,
    ) -> bool {
        let pending = self.resolutions.pop().expect("a resolution in progress");
        debug_assert_eq!(self.resolutions.len(), at);
        self.resolving.remove(&pending.what);
        for p in pending.provisional {
            self.provisional.remove(&p);
        }
        let lean = self.lean;
        if lean >= at {
            self.lean = outer;
            true
        } else {
            self.keep_provisionally(pending.what, t, lean);
            self.lean = outer.min(lean);
            false
        }
    }

    /// Remembers `t` for `what` until the resolution at `lean` completes.
    pub(in crate::check) fn keep_provisionally(
        &mut self,
        what: Resolution,
        t: TypeId,
        lean: usize,
    ) {
        self.provisional.insert(what, (t, lean));
        self.resolutions[lean].provisional.push(what);
    }

    /// A provisional result for `what`; using it leans on what it leaned on.
    pub(in crate::check) fn provisional_type(&mut self, what: Resolution) -> Option<TypeId> {
        let &(t, lean) = self.provisional.get(&what)?;
        self.lean = self.lean.min(lean);
        Some(t)
    }

    /// The value type a symbol has been given (by inference or by a contextual
    /// signature), cached or provisional.
    pub(in crate::check) fn known_value_type(&mut self, s: SymbolId) -> Option<TypeId> {
        if let Some(t) = self.sym_links.get(&s).and_then(|l| l.value_type) {
            self.meet_kept_limits(&Decided::Value(s));
            return Some(t);
        }
        self.provisional_type(Resolution::Value(s))
    }
}
