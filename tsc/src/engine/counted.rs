//! QuickJS's allocator: every request reaches the process's global allocator (the contender)
//! exactly as rquickjs's `rust-alloc` makes it, and is counted, so that the collection schedule
//! can follow what the engine allocated without asking any contender.
use std::alloc::{self, Layout};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rquickjs::allocator::Allocator;

/// Blocks are aligned for QuickJS's largest scalar, a `u64`.
const ALIGN: usize = std::mem::align_of::<u64>();

/// Each block is preceded by its usable size (QuickJS asks for it; `std::alloc` cannot tell):
/// a request of n bytes reaches the global allocator as `HEADER + n` rounded up to 8, as glibc's
/// own chunk header would.
const HEADER: usize = 8;

/// What the engine has asked for since the runtime started, in bytes; read by the checker
/// threads between turns.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    /// Usable bytes of every block allocated or grown by realloc.
    pub allocated: AtomicU64,
    /// Usable bytes of every block freed or shrunk away by realloc.
    pub freed: AtomicU64,
}

impl Counters {
    /// Usable bytes the engine holds now.
    pub fn live(&self) -> u64 {
        self.allocated
            .load(Relaxed)
            .saturating_sub(self.freed.load(Relaxed))
    }
}

pub(crate) struct Counted(pub Arc<Counters>);

fn usable(size: usize) -> usize {
    size.div_ceil(ALIGN) * ALIGN
}

fn layout(usable: usize) -> Option<Layout> {
    Layout::from_size_align(usable.checked_add(HEADER)?, ALIGN).ok()
}

impl Counted {
    /// Writes the header of a block the global allocator returned at `base`; null stays null.
    ///
    /// # Safety
    /// `base` is null or the start of a block of at least `HEADER + size` bytes.
    unsafe fn finish(&self, base: *mut u8, size: usize) -> *mut u8 {
        if base.is_null() {
            return base;
        }
        self.0.allocated.fetch_add(size as u64, Relaxed);
        // SAFETY: the block holds HEADER + size bytes, aligned to 8 for the header's usize.
        unsafe {
            base.cast::<usize>().write(size);
            base.add(HEADER)
        }
    }
}

// SAFETY: every pointer returned is null or HEADER bytes into a block of the global allocator
// made with `layout(size)`, 8-byte aligned, with at least `size` usable bytes recorded in the
// header; dealloc and realloc rebuild that same layout from the header.
unsafe impl Allocator for Counted {
    fn alloc(&mut self, size: usize) -> *mut u8 {
        let size = usable(size);
        let Some(layout) = layout(size) else {
            return std::ptr::null_mut();
        };
        // SAFETY: the layout is never zero-sized (HEADER > 0); `finish` gets that block.
        unsafe { self.finish(alloc::alloc(layout), size) }
    }

    fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
        let Some(total) = count.checked_mul(size).filter(|&n| n > 0) else {
            return std::ptr::null_mut();
        };
        let size = usable(total);
        let Some(layout) = layout(size) else {
            return std::ptr::null_mut();
        };
        // SAFETY: as in alloc.
        unsafe { self.finish(alloc::alloc_zeroed(layout), size) }
    }

    unsafe fn dealloc(&mut self, ptr: *mut u8) {
        // SAFETY: the caller passes a pointer this allocator returned, HEADER bytes into its
        // block, whose header holds the usable size it was made with.
        unsafe {
            let base = ptr.sub(HEADER);
            let size = base.cast::<usize>().read();
            self.0.freed.fetch_add(size as u64, Relaxed);
            alloc::dealloc(
                base,
                Layout::from_size_align_unchecked(size + HEADER, ALIGN),
            );
        }
    }

    unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        let new_size = usable(new_size);
        if layout(new_size).is_none() {
            return std::ptr::null_mut();
        }
        // SAFETY: as in dealloc for the old block; the new size is a valid layout's (checked).
        unsafe {
            let base = ptr.sub(HEADER);
            let old_size = base.cast::<usize>().read();
            let old = Layout::from_size_align_unchecked(old_size + HEADER, ALIGN);
            let moved = alloc::realloc(base, old, new_size + HEADER);
            if moved.is_null() {
                return moved;
            }
            self.0.freed.fetch_add(old_size as u64, Relaxed);
            self.finish(moved, new_size)
        }
    }

    unsafe fn usable_size(ptr: *mut u8) -> usize {
        // SAFETY: the caller passes a pointer this allocator returned.
        unsafe { ptr.sub(HEADER).cast::<usize>().read() }
    }
}
