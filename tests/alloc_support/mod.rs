//! A counting global allocator for the tests that pin allocations and
//! memory: including this module installs it. It forwards every operation
//! to `System` and counts, for the current thread only (so the test
//! harness's threads and other tests running in parallel are not seen):
//!
//! - allocation events: `alloc`, `alloc_zeroed` and `realloc` (a stack
//!   that grows shows up as a `realloc`), [`allocations_during`];
//! - bytes asked for: an allocation's size, a reallocation's new size,
//!   [`bytes_during`];
//! - bytes held (allocated and not yet freed) and their peak,
//!   [`peak_during`]; during a `realloc` both blocks count, as both may
//!   exist while the bytes are copied.
//!
//! The counters are `const`-initialized thread-local `Cell`s, which neither
//! allocate nor register destructors; they are reached with `try_with`,
//! since during thread teardown the slots may be gone (such allocations are
//! outside any measured window anyway).
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting what the current thread does.
pub struct Counting;

thread_local! {
    static EVENTS: Cell<usize> = const { Cell::new(0) };
    static ASKED: Cell<usize> = const { Cell::new(0) };
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// One allocation event asking for `bytes`.
fn allocated(bytes: usize) {
    let _ = EVENTS.try_with(|c| c.set(c.get() + 1));
    let _ = ASKED.try_with(|c| c.set(c.get() + bytes));
    held(bytes as isize);
}

/// `bytes` more (or fewer) held.
fn held(bytes: isize) {
    let _ = HELD.try_with(|held| {
        held.set(held.get() + bytes);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(held.get())));
    });
}

// SAFETY: every method forwards to `System` unchanged; the counters only
// touch `const`-initialized thread-local `Cell`s, which neither allocate
// nor register destructors.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        allocated(layout.size());
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        allocated(layout.size());
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Both blocks may exist while the bytes are copied.
        allocated(new_size);
        held(-(layout.size() as isize));
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        held(-(layout.size() as isize));
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations (and reallocations) this thread makes while
/// running `f` (no warm-up: callers warm up where they mean to).
pub fn allocations_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = EVENTS.with(Cell::get);
    let r = f();
    (r, EVENTS.with(Cell::get) - before)
}

/// The bytes this thread asks for while running `f`.
pub fn bytes_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ASKED.with(Cell::get);
    let r = f();
    (r, ASKED.with(Cell::get) - before)
}

/// The most bytes this thread held at once while running `f`, beyond what
/// it held before.
pub fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = HELD.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let r = f();
    (r, (PEAK.with(Cell::get) - before) as usize)
}
