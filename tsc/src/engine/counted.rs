//! QuickJS's allocator: every request reaches the process's global allocator (the contender)
//! exactly as rquickjs's `rust-alloc` makes it, and is counted, so that the collection schedule
//! can follow what the engine allocated without asking any contender.
//!
//! Each block's header also names the checker whose thread made it, so that under `handback`
//! a block freed on another checker's thread can go back to its maker (see [`Counters`]).
use std::alloc::{self, Layout};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering::Relaxed};

use rquickjs::allocator::Allocator;

/// Blocks are aligned for QuickJS's largest scalar, a `u64`.
const ALIGN: usize = std::mem::align_of::<u64>();

/// Each block is preceded by its usable size (QuickJS asks for it; `std::alloc` cannot tell):
/// a request of n bytes reaches the global allocator as `HEADER + n` rounded up to 8, as glibc's
/// own chunk header would. The header's top 16 bits name the block's maker ([`maker`]), the
/// rest its usable size.
const HEADER: usize = 8;

/// Where the maker sits in the header; usable sizes stay below 2^48 bytes.
const MAKER_SHIFT: u32 = 48;
const SIZE_MASK: u64 = (1 << MAKER_SHIFT) - 1;

thread_local! {
    /// The maker this thread's blocks are tagged with: checker k's thread is k + 1, any other
    /// thread 0 (never handed back).
    static MAKER: Cell<u16> = const { Cell::new(0) };
}

/// Tags the blocks this thread makes from now on as checker `index`'s.
pub(crate) fn make_as(index: usize) {
    MAKER.with(|m| m.set(u16::try_from(index + 1).unwrap_or(0)));
}

fn maker() -> u16 {
    MAKER.with(Cell::get)
}

/// What the engine has asked for since the runtime started, in bytes; read by the checker
/// threads between turns.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    /// Usable bytes of every block allocated or grown by realloc.
    pub allocated: AtomicU64,
    /// Usable bytes of every block freed or shrunk away by realloc.
    pub freed: AtomicU64,
    /// Under `handback`, one list per maker (index k + 1 for checker k) of the blocks freed on
    /// another checker's thread, linked through their first word and freed by their maker's
    /// thread at the start of its next turn ([`Counters::take_back`]); empty otherwise.
    handback: Box<[AtomicPtr<u8>]>,
    /// Blocks put on those lists, and blocks their makers took back.
    pub handed_back: AtomicU64,
    pub taken_back: AtomicU64,
}

impl Counters {
    /// Counters for `checkers` checkers; `handback` makes a block freed on another checker's
    /// thread wait for its maker.
    pub fn new(checkers: usize, handback: bool) -> Counters {
        let lists = if handback { checkers + 1 } else { 0 };
        Counters {
            handback: (0..lists).map(|_| AtomicPtr::default()).collect(),
            ..Counters::default()
        }
    }

    /// Usable bytes the engine holds now.
    pub fn live(&self) -> u64 {
        self.allocated
            .load(Relaxed)
            .saturating_sub(self.freed.load(Relaxed))
    }

    /// Frees, on this thread, the blocks it made that other checkers' threads freed since it
    /// last looked: they reach the contender as the maker's own frees. Call it only while this
    /// thread has the runtime's turn (no other thread frees then).
    pub fn take_back(&self) {
        let Some(list) = self.handback.get(usize::from(maker())) else {
            return;
        };
        let mut block = list.swap(std::ptr::null_mut(), Relaxed);
        let mut count = 0;
        while !block.is_null() {
            // SAFETY: every block on the list is HEADER bytes into a live block of the global
            // allocator, its header intact and its first word the next block (`dealloc`).
            unsafe {
                let next = block.cast::<*mut u8>().read();
                let base = block.sub(HEADER);
                alloc::dealloc(base, block_layout(header_size(base)));
                block = next;
            }
            count += 1;
        }
        self.taken_back.fetch_add(count, Relaxed);
    }

    /// Puts a block freed on this thread on its maker's list, where its maker is another
    /// checker, `handback` is on and the block can hold the link; `false` otherwise.
    ///
    /// # Safety
    /// `ptr` is HEADER bytes into a block of this allocator that the engine has just freed.
    unsafe fn hand_back(&self, ptr: *mut u8, header: u64) -> bool {
        let made_by = (header >> MAKER_SHIFT) as u16;
        let size = header & SIZE_MASK;
        if made_by == 0 || made_by == maker() || size < 8 {
            return false;
        }
        let Some(list) = self.handback.get(usize::from(made_by)) else {
            return false;
        };
        let mut head = list.load(Relaxed);
        loop {
            // SAFETY: the block has at least 8 usable bytes, 8-byte aligned, no longer the engine's.
            unsafe { ptr.cast::<*mut u8>().write(head) };
            match list.compare_exchange_weak(head, ptr, Relaxed, Relaxed) {
                Ok(_) => break,
                Err(now) => head = now,
            }
        }
        self.handed_back.fetch_add(1, Relaxed);
        true
    }
}

pub(crate) struct Counted(pub Arc<Counters>);

fn usable(size: usize) -> usize {
    size.div_ceil(ALIGN) * ALIGN
}

fn layout(usable: usize) -> Option<Layout> {
    Layout::from_size_align(usable.checked_add(HEADER)?, ALIGN)
        .ok()
        .filter(|_| (usable as u64) <= SIZE_MASK)
}

/// The layout a block of `usable` bytes was made with (checked by `layout` when it was made).
fn block_layout(usable: usize) -> Layout {
    // SAFETY: `layout(usable)` succeeded when the block was made.
    unsafe { Layout::from_size_align_unchecked(usable + HEADER, ALIGN) }
}

/// The usable size in the header at `base`.
///
/// # Safety
/// `base` is the start of a block of this allocator.
unsafe fn header_size(base: *mut u8) -> usize {
    // SAFETY: per the caller, the block starts with its header.
    (unsafe { base.cast::<u64>().read() } & SIZE_MASK) as usize
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
        let header = size as u64 | u64::from(maker()) << MAKER_SHIFT;
        // SAFETY: the block holds HEADER + size bytes, aligned to 8 for the header's u64.
        unsafe {
            base.cast::<u64>().write(header);
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
        // block, whose header holds the usable size it was made with and its maker.
        unsafe {
            let base = ptr.sub(HEADER);
            let header = base.cast::<u64>().read();
            self.0.freed.fetch_add(header & SIZE_MASK, Relaxed);
            if !self.0.hand_back(ptr, header) {
                alloc::dealloc(base, block_layout((header & SIZE_MASK) as usize));
            }
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
            let old_size = header_size(base);
            let old = block_layout(old_size);
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
        unsafe { header_size(ptr.sub(HEADER)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Allocates a block of `size` bytes on a new thread tagged as checker `index`'s.
    fn made_by(counted: &Arc<Counters>, index: usize, size: usize) -> usize {
        let counters = counted.clone();
        std::thread::spawn(move || {
            make_as(index);
            Counted(counters).alloc(size) as usize
        })
        .join()
        .unwrap()
    }

    #[test]
    fn under_handback_a_block_freed_on_another_checkers_thread_waits_for_its_maker() {
        let counters = Arc::new(Counters::new(2, true));
        let block = made_by(&counters, 0, 40);
        make_as(1);
        // SAFETY: the block came from this allocator and is freed once.
        unsafe { Counted(counters.clone()).dealloc(block as *mut u8) };
        assert_eq!(counters.handed_back.load(Relaxed), 1);
        assert_eq!(counters.live(), 0, "the engine's view: freed");
        counters.take_back();
        assert_eq!(
            counters.taken_back.load(Relaxed),
            0,
            "not checker 1's block"
        );
        make_as(0);
        counters.take_back();
        assert_eq!(counters.taken_back.load(Relaxed), 1);
        counters.take_back();
        assert_eq!(counters.taken_back.load(Relaxed), 1, "taken back once");
    }

    #[test]
    fn a_block_freed_by_its_maker_or_without_handback_is_freed_at_once() {
        for (handback, freer) in [(true, 0), (false, 1)] {
            let counters = Arc::new(Counters::new(2, handback));
            let block = made_by(&counters, 0, 40);
            make_as(freer);
            // SAFETY: as above.
            unsafe { Counted(counters.clone()).dealloc(block as *mut u8) };
            assert_eq!(counters.handed_back.load(Relaxed), 0);
        }
    }

    #[test]
    fn the_maker_in_the_header_leaves_the_usable_size_as_it_was() {
        let counters = Arc::new(Counters::new(2, true));
        let block = made_by(&counters, 1, 100);
        // SAFETY: the block came from this allocator.
        let usable = unsafe { Counted::usable_size(block as *mut u8) };
        assert_eq!(usable, 104);
        make_as(1);
        // SAFETY: freed once, by its maker.
        unsafe { Counted(counters.clone()).dealloc(block as *mut u8) };
        assert_eq!(counters.handed_back.load(Relaxed), 0);
    }
}
