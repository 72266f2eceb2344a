//! Buffers the generated code reuses across calls: the loop stacks its
//! reverse sweep pops and the adjoints of slice arguments, kept in a
//! per-thread pool so that a gradient in steady state (an optimizer's
//! loop, `NAME_grad_acc` over data points) does not allocate.
//!
//! The pool holds raw blocks of memory, keyed by alignment and size, not by
//! type: one block serves a stack of `f64` in one call and the adjoint of a
//! slice in the next, and every element type works (`f32`, `f64`, `Dual`,
//! tuples, matrices, a user's generic `T`) without a bound on it.
//!
//! - Each thread has its own pool (nothing is shared, nothing locks); a
//!   buffer dropped on another thread than the one that took it goes to that
//!   thread's pool, which is fine: the blocks are plain global-allocator
//!   memory.
//! - A buffer is taken when a call starts a loop and given back when its
//!   owner drops, also while a panic unwinds; recursion and calls between
//!   differentiable functions take one buffer per live stack.
//! - A thread keeps at most [`MAX_BLOCKS`] blocks of at most [`MAX_BYTES`]
//!   in all; beyond, the blocks given back longest ago are freed.

use std::alloc::{Layout, dealloc};
use std::cell::RefCell;
use std::mem::{ManuallyDrop, align_of, size_of};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The most blocks a thread's pool keeps.
pub const MAX_BLOCKS: usize = 64;

/// The most bytes a thread's pool keeps.
pub const MAX_BYTES: usize = 64 << 20;

/// Memory from the global allocator with layout `(bytes, align)`, holding
/// no values; `elem` is the size of the values it held last.
struct Block {
    ptr: NonNull<u8>,
    bytes: usize,
    align: usize,
    elem: usize,
}

impl Block {
    /// How many `T` fit, if the block can hold `T`s at all: a `Vec<T>` must
    /// be given back with the layout it was allocated with, so the
    /// alignment must be `T`'s and the size a whole number of `T`s.
    fn capacity_for<T>(&self) -> Option<usize> {
        let size = size_of::<T>();
        (self.align == align_of::<T>() && self.bytes.is_multiple_of(size))
            .then(|| self.bytes / size)
    }

    /// Returns the memory to the global allocator.
    fn free(self) {
        // SAFETY: every block was a `Vec`'s buffer of exactly this size and
        // alignment, so this is the layout it was allocated with (and a
        // valid one); the block owned it and is consumed here.
        unsafe {
            dealloc(
                self.ptr.as_ptr(),
                Layout::from_size_align_unchecked(self.bytes, self.align),
            )
        }
    }

    /// The block as an empty `Vec<T>`.
    ///
    /// # Safety
    ///
    /// `capacity_for::<T>()` must be `Some`.
    unsafe fn into_vec<T>(self) -> Vec<T> {
        let capacity = self.bytes / size_of::<T>();
        // SAFETY: the block was allocated by the global allocator (it was a
        // `Vec`'s buffer) with alignment `align_of::<T>()` and size
        // `capacity·size_of::<T>()` (the caller checked both), which is what
        // `Vec::from_raw_parts` requires; the length 0 needs no initialized
        // element.
        unsafe { Vec::from_raw_parts(self.ptr.as_ptr().cast::<T>(), 0, capacity) }
    }
}

/// The largest block kept by exact size in [`Pool::small`]: a slice
/// argument's adjoint of a few elements (a point, a camera), which a call
/// of a differentiable helper takes and its caller gives back.
const SMALL_BYTES: usize = 128;

/// The alignment of the blocks kept by exact size: `f64`'s (and `u64`'s,
/// a pair of `f64`s').
const SMALL_ALIGN: usize = 8;

/// Blocks kept per exact size.
const SMALL_DEPTH: usize = 8;

/// A thread's blocks: `blocks[..len]` are `Some`. An array, not a `Vec`,
/// so that keeping a block never allocates.
///
/// Blocks of at most [`SMALL_BYTES`] with alignment [`SMALL_ALIGN`] are
/// kept apart, by exact size (`small[bytes / SMALL_ALIGN - 1]`, a stack of
/// up to [`SMALL_DEPTH`]): taking one is an index and a pop, where a
/// helper called once per data point would otherwise scan the blocks and
/// shift them, twice per slice argument (about half of a bundle
/// adjustment Jacobian's time). They count towards neither bound (at most
/// 8 blocks of each of 16 sizes, under 9 KiB in all).
struct Pool {
    blocks: [Option<Block>; MAX_BLOCKS],
    len: usize,
    bytes: usize,
    small: [SmallStack; SMALL_BYTES / SMALL_ALIGN],
}

/// Blocks of one small size, newest last: `ptrs[..len]`.
struct SmallStack {
    ptrs: [Option<NonNull<u8>>; SMALL_DEPTH],
    len: usize,
}

impl SmallStack {
    const EMPTY: SmallStack = SmallStack {
        ptrs: [None; SMALL_DEPTH],
        len: 0,
    };
}

/// The exact-size stack a block of `bytes` with alignment `align` goes to.
fn small_class(bytes: usize, align: usize) -> Option<usize> {
    (align == SMALL_ALIGN && bytes <= SMALL_BYTES && bytes.is_multiple_of(SMALL_ALIGN))
        .then(|| bytes / SMALL_ALIGN - 1)
}

impl Pool {
    /// The smallest block holding between `at_least` and `at_most` `T`s,
    /// preferring blocks that held values of `T`'s size: then each kind of
    /// value finds again the blocks it gave back (best fit within one size
    /// always succeeds when the same requests succeeded before), and a
    /// function's second call takes no block another kind of value needs.
    #[inline(never)]
    fn take<T>(&mut self, at_least: usize, at_most: usize) -> Option<Vec<T>> {
        // (same size, index, capacity) of the best so far. Newest first,
        // stopping at a block of `T`'s size holding exactly `at_least`: none
        // is better, and in a loop of calls the block a call gave back last
        // is the one the next asks for (a callee's slice adjoint), so the
        // scan is one step and the shift below moves nothing.
        let mut best: Option<(bool, usize, usize)> = None;
        for i in (0..self.len).rev() {
            let Some(b) = &self.blocks[i] else { continue };
            if let Some(cap) = b.capacity_for::<T>()
                && (at_least..=at_most).contains(&cap)
            {
                let same = b.elem == size_of::<T>();
                let better =
                    |(s, _, c): (bool, usize, usize)| (same && !s) || (same == s && cap < c);
                if best.is_none_or(better) {
                    best = Some((same, i, cap));
                    if same && cap == at_least {
                        break;
                    }
                }
            }
        }
        let (_, i, _) = best?;
        // Shifted out, so the others stay oldest first.
        self.blocks[i..self.len].rotate_left(1);
        self.len -= 1;
        let block = self.blocks[self.len].take()?;
        self.bytes -= block.bytes;
        // SAFETY: `capacity_for::<T>()` is `Some` for the chosen block.
        Some(unsafe { block.into_vec() })
    }

    /// Keeps `v`'s buffer as the newest block, freeing the oldest ones if
    /// the pool is full: a block nobody takes again (the adjoint of a
    /// custom rule, say) ages out instead of keeping the pool full and
    /// turning away the stacks that come back every call.
    #[inline(never)]
    fn keep<T>(&mut self, v: Vec<T>) {
        let bytes = v.capacity() * size_of::<T>();
        if bytes == 0 || bytes > MAX_BYTES {
            return;
        }
        while self.len == MAX_BLOCKS || self.bytes + bytes > MAX_BYTES {
            let Some(oldest) = self.blocks[0].take() else {
                break;
            };
            self.blocks[..self.len].rotate_left(1);
            self.len -= 1;
            self.bytes -= oldest.bytes;
            oldest.free();
        }
        let mut v = ManuallyDrop::new(v);
        debug_assert!(v.is_empty());
        let ptr = NonNull::new(v.as_mut_ptr().cast::<u8>())
            .expect("a Vec with capacity has a non-null buffer");
        self.blocks[self.len] = Some(Block {
            ptr,
            bytes,
            align: align_of::<T>(),
            elem: size_of::<T>(),
        });
        self.len += 1;
        self.bytes += bytes;
    }
}

impl Pool {
    /// The smallest exact-size block holding `at_least..=at_most` `T`s, if
    /// `T`'s blocks are kept by size and one is there.
    #[inline]
    fn take_small<T>(&mut self, at_least: usize, at_most: usize) -> Option<Vec<T>> {
        let size = size_of::<T>();
        if align_of::<T>() != SMALL_ALIGN || at_least == 0 {
            return None;
        }
        let last = at_most.min(SMALL_BYTES / size);
        for cap in at_least..=last {
            let class = small_class(cap * size, SMALL_ALIGN)?;
            let stack = &mut self.small[class];
            if stack.len > 0 {
                stack.len -= 1;
                let ptr = stack.ptrs[stack.len].take()?;
                // SAFETY: the block was a `Vec`'s buffer of `cap · size`
                // bytes with alignment `SMALL_ALIGN`, `T`'s: the layout a
                // `Vec<T>` of capacity `cap` has; it holds no values.
                return Some(unsafe { Vec::from_raw_parts(ptr.as_ptr().cast::<T>(), 0, cap) });
            }
        }
        None
    }

    /// Keeps `v`'s buffer by exact size if it is small and there is room
    /// (`None`), else gives `v` back.
    #[inline]
    fn keep_small<T>(&mut self, v: Vec<T>) -> Option<Vec<T>> {
        let bytes = v.capacity() * size_of::<T>();
        let Some(class) = small_class(bytes, align_of::<T>()) else {
            return Some(v);
        };
        let stack = &mut self.small[class];
        if stack.len == SMALL_DEPTH {
            return Some(v);
        }
        let mut v = ManuallyDrop::new(v);
        debug_assert!(v.is_empty());
        stack.ptrs[stack.len] = NonNull::new(v.as_mut_ptr().cast::<u8>());
        stack.len += 1;
        None
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.blocks
            .iter_mut()
            .filter_map(Option::take)
            .for_each(Block::free);
        for (class, stack) in self.small.iter_mut().enumerate() {
            for ptr in stack.ptrs.iter_mut().filter_map(Option::take) {
                Block {
                    ptr,
                    bytes: (class + 1) * SMALL_ALIGN,
                    align: SMALL_ALIGN,
                    elem: 0,
                }
                .free();
            }
        }
    }
}

thread_local! {
    static POOL: RefCell<Pool> = const {
        RefCell::new(Pool {
            blocks: [const { None }; MAX_BLOCKS],
            len: 0,
            bytes: 0,
            small: [SmallStack::EMPTY; SMALL_BYTES / SMALL_ALIGN],
        })
    };
}

/// An empty `Vec<T>` with room for `at_least..=at_most` elements from this
/// thread's pool, or `None` (no such block, the pool is busy or gone).
/// Inlined, the small blocks' path with it: the `Vec` a caller gets is
/// built in registers, not read back from memory the callee just wrote.
#[inline]
fn take<T>(at_least: usize, at_most: usize) -> Option<Vec<T>> {
    if size_of::<T>() == 0 {
        return None;
    }
    POOL.try_with(|p| {
        let mut p = p.try_borrow_mut().ok()?;
        match p.take_small(at_least, at_most) {
            Some(v) => Some(v),
            None => p.take(at_least, at_most),
        }
    })
    .ok()
    .flatten()
}

/// Gives `v`'s buffer to this thread's pool (its elements are dropped
/// first, so no user code runs while the pool is borrowed).
#[inline]
pub fn give<T>(mut v: Vec<T>) {
    v.clear();
    if size_of::<T>() == 0 || v.capacity() == 0 {
        return;
    }
    // If the pool is gone (thread teardown) or busy, `v` drops here.
    let _ = POOL.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut()
            && let Some(v) = p.keep_small(v)
        {
            p.keep(v);
        }
    });
}

/// An empty `Vec<T>` with room for `len` elements, in a pooled buffer of
/// at most twice that capacity (a struct's adjoint flattened into a row,
/// which its caller adds into its own and gives back).
#[inline]
pub fn empty<T>(len: usize) -> Vec<T> {
    take::<T>(len, len.saturating_mul(2)).unwrap_or_else(|| Vec::with_capacity(len))
}

/// `len` zeros, in a pooled buffer of at most twice that capacity (the
/// adjoint of a slice argument, which `NAME_grad` hands to its caller: a
/// small adjoint does not keep a large block).
#[inline]
pub fn zeros<T: Clone>(len: usize, zero: T) -> Vec<T> {
    // A new buffer of exactly `len`, which comes back to its own size.
    let v = take::<T>(len, len.saturating_mul(2)).unwrap_or_else(|| Vec::with_capacity(len));
    // Filled through its pointer and rebuilt last, so the `Vec` goes to
    // the caller in registers: `resize` kept it in memory, and reading it
    // back whole right after writing its fields one by one stalled (a
    // quarter of a small helper's reverse sweep).
    let mut v = ManuallyDrop::new(v);
    let (ptr, capacity) = (v.as_mut_ptr(), v.capacity());
    // A small adjoint (a point's, a camera's) is written element by
    // element: the compiler would turn the loop into a call of `memset`,
    // which costs more than the few stores (a tenth of a bundle adjustment
    // Jacobian's time); volatile stores keep them stores.
    let small = len.saturating_mul(size_of::<T>()) <= SMALL_BYTES;
    for i in 0..len {
        // SAFETY: `i < len <= capacity`, and the slot holds no value yet. A
        // panicking `clone` leaks the buffer and the values written, which
        // is safe.
        unsafe {
            match small {
                true => ptr.add(i).write_volatile(zero.clone()),
                false => ptr.add(i).write(zero.clone()),
            }
        }
    }
    // SAFETY: the buffer is `v`'s, of `capacity`, with `len` values
    // written; `v` is forgotten, so it is owned once.
    unsafe { Vec::from_raw_parts(ptr, len, capacity) }
}

/// A loop stack: a `Vec` whose buffer comes from this thread's pool and
/// goes back to it when the stack drops.
pub struct Stack<T> {
    values: Vec<T>,
}

impl<T> Stack<T> {
    /// An empty stack holding no buffer yet.
    #[inline]
    pub const fn new() -> Self {
        Stack { values: Vec::new() }
    }

    /// An empty stack with room for at least `capacity` values (none taken
    /// for 0).
    #[inline]
    pub fn with_capacity(capacity: usize) -> Self {
        let mut s = Stack::new();
        s.reserve(capacity);
        s
    }

    /// Room for `additional` more values; a stack without a buffer takes
    /// the smallest pooled one that fits, and one that must grow takes a
    /// pooled one at least twice as large, giving its own back (a loop
    /// taped for a whole nest reserves once per iteration of the nest).
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        let (len, capacity) = (self.values.len(), self.values.capacity());
        if capacity - len >= additional {
            return;
        }
        if capacity == 0 {
            if let Some(v) = take(additional, usize::MAX) {
                self.values = v;
            }
        } else {
            let at_least = (len + additional).max(capacity.saturating_mul(2));
            if let Some(mut v) = take(at_least, usize::MAX) {
                v.append(&mut self.values);
                give(std::mem::replace(&mut self.values, v));
            }
        }
        self.values.reserve(additional);
    }

    /// Pushes `v`; a stack without a buffer takes one from the pool first.
    #[inline(always)]
    pub fn push(&mut self, v: T) {
        if self.values.capacity() == 0 {
            self.reserve(1);
        }
        self.values.push(v);
    }
}

impl<T> Default for Stack<T> {
    fn default() -> Self {
        Stack::new()
    }
}

impl<T> Deref for Stack<T> {
    type Target = Vec<T>;
    #[inline(always)]
    fn deref(&self) -> &Vec<T> {
        &self.values
    }
}

impl<T> DerefMut for Stack<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.values
    }
}

/// The same values with the same capacity (a cache's capacity says whether
/// it is on), in a pooled buffer.
impl<T: Clone> Clone for Stack<T> {
    fn clone(&self) -> Self {
        let mut s = Stack::with_capacity(self.values.capacity());
        s.values.extend_from_slice(&self.values);
        s
    }
}

impl<T> Drop for Stack<T> {
    fn drop(&mut self) {
        give(std::mem::take(&mut self.values));
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Stack<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.values.fmt(f)
    }
}

/// The arrays a loop keeps, one per iteration, end to end in one pooled
/// buffer: keeping a `Vec` an iteration copies its elements instead of
/// allocating a copy, and the reverse sweep gets each back, last first, in
/// one reused `Vec`.
pub struct Rows<T> {
    values: Stack<T>,
    /// Where each row ends in `values`.
    ends: Stack<usize>,
    /// The buffer [`Rows::pop`] fills, when given back.
    row: Vec<T>,
    /// How many rows the last [`Rows::reserve`] announced.
    expected: usize,
}

impl<T: Clone> Rows<T> {
    /// No rows, no buffer taken yet.
    #[inline]
    pub const fn new() -> Self {
        Rows {
            values: Stack::new(),
            ends: Stack::new(),
            row: Vec::new(),
            expected: 0,
        }
    }

    /// Room for `additional` more rows (a loop's trip count, known as it
    /// starts).
    #[inline]
    pub fn reserve(&mut self, additional: usize) {
        self.ends.reserve(additional);
        self.expected = additional;
    }

    /// Room for `iterations` more iterations of a loop that keeps `rows`
    /// rows of `width` elements in all each (several arrays an iteration,
    /// of different lengths): one pooled buffer for all of them, taken
    /// now, so that no row grows it.
    #[inline]
    pub fn reserve_iterations(&mut self, iterations: usize, rows: usize, width: usize) {
        self.ends.reserve(iterations.saturating_mul(rows));
        self.values.reserve(iterations.saturating_mul(width));
        self.expected = iterations;
    }

    /// Keeps a copy of `row`'s elements. The first takes one pooled buffer
    /// for as many rows of its length as were reserved: the buffer the
    /// previous call gave back, not a small one grown again.
    #[inline]
    pub fn push(&mut self, row: &[T]) {
        if self.values.capacity() == 0 {
            self.values
                .reserve(row.len().saturating_mul(self.expected.max(1)));
        }
        self.values.extend_from_slice(row);
        let end = self.values.len();
        self.ends.push(end);
    }

    /// The last row kept, removed, in the buffer [`Rows::give_back`] last
    /// returned (or a pooled one).
    ///
    /// # Panics
    ///
    /// If no row is kept (a bug in autograd).
    #[inline]
    pub fn pop(&mut self) -> Vec<T> {
        let Some(end) = self.ends.pop() else {
            unreachable!("autograd: reverse sweep popped an empty stack (a bug in autograd)")
        };
        let start = self.ends.last().copied().unwrap_or(0);
        let mut row = std::mem::take(&mut self.row);
        if row.capacity() == 0 {
            row = empty(end - start);
        }
        row.clear();
        row.extend_from_slice(&self.values[start..end]);
        self.values.truncate(start);
        row
    }

    /// Returns the buffer of a row [`Rows::pop`] gave, for the next pop.
    #[inline]
    pub fn give_back(&mut self, row: Vec<T>) {
        give(std::mem::replace(&mut self.row, row));
    }
}

impl<T: Clone> Default for Rows<T> {
    fn default() -> Self {
        Rows::new()
    }
}

/// The same rows, in pooled buffers (a reusable pullback holds them).
impl<T: Clone> Clone for Rows<T> {
    fn clone(&self) -> Self {
        Rows {
            values: self.values.clone(),
            ends: self.ends.clone(),
            row: Vec::new(),
            expected: self.expected,
        }
    }
}

impl<T> Drop for Rows<T> {
    fn drop(&mut self) {
        give(std::mem::take(&mut self.row));
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Rows<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rows")
            .field("values", &self.values)
            .field("ends", &self.ends)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pooled_blocks() -> usize {
        POOL.with(|p| p.borrow().len)
    }

    #[test]
    fn a_dropped_stack_lends_its_buffer_to_the_next() {
        let mut a = Stack::<f64>::with_capacity(100);
        a.extend([1.0, 2.0]);
        let ptr = a.as_ptr();
        drop(a);
        let b = Stack::<f64>::with_capacity(50);
        assert_eq!(b.as_ptr(), ptr);
        assert!(b.is_empty());
        assert_eq!(b.capacity(), 100);
    }

    #[test]
    fn a_block_serves_another_type_of_the_same_alignment() {
        let a = Stack::<(f64, f64)>::with_capacity(8);
        let ptr = a.as_ptr().cast::<u8>();
        drop(a);
        // 8 pairs are 16 f64s; an f32 has another alignment.
        let f = Stack::<f32>::with_capacity(4);
        assert_ne!(f.as_ptr().cast::<u8>(), ptr);
        let v = zeros(12, 0.0_f64);
        assert_eq!(v.as_ptr().cast::<u8>(), ptr);
        assert_eq!(v, vec![0.0; 12]);
    }

    #[test]
    fn a_kind_of_value_takes_back_its_own_block_first() {
        // A 24-byte triple's block is the smallest that fits 250 f64s, but
        // the f64 block goes to the f64 stack and the triples keep theirs.
        drop(Stack::<(f64, f64, f64)>::with_capacity(252));
        drop(Stack::<f64>::with_capacity(1000));
        let f = Stack::<f64>::with_capacity(250);
        assert_eq!(f.capacity(), 1000);
        let t = Stack::<(f64, f64, f64)>::with_capacity(252);
        assert_eq!(t.capacity(), 252);
    }

    #[test]
    fn zeros_do_not_take_a_block_more_than_twice_their_size() {
        drop(Stack::<u64>::with_capacity(1000));
        let v = zeros(10, 0_u64);
        assert!(v.capacity() < 1000);
        give(v);
    }

    #[test]
    fn values_with_destructors_are_dropped_before_the_buffer_is_kept() {
        let counted = std::rc::Rc::new(());
        let mut s = Stack::with_capacity(4);
        s.push(counted.clone());
        s.push(counted.clone());
        drop(s);
        assert_eq!(std::rc::Rc::strong_count(&counted), 1);
        let s = Stack::<std::rc::Rc<()>>::with_capacity(4);
        assert!(s.is_empty());
    }

    #[test]
    fn the_pool_is_bounded_and_keeps_the_newest_blocks() {
        let stacks: Vec<Stack<u8>> = (0..2 * MAX_BLOCKS)
            .map(|_| Stack::with_capacity(1))
            .collect();
        drop(stacks);
        assert_eq!(pooled_blocks(), MAX_BLOCKS);
        // A block given back every call survives a stream of blocks nobody
        // takes again.
        for _ in 0..3 * MAX_BLOCKS {
            drop(Stack::<u64>::with_capacity(16));
            give(vec![0_u8; 3]);
        }
        assert!(take::<u64>(16, 16).is_some());
        drop(Stack::<u8>::with_capacity(MAX_BYTES + 1));
        drop(Stack::<u8>::with_capacity(MAX_BYTES / 2 + 1));
        drop(Stack::<u8>::with_capacity(MAX_BYTES / 2 + 1));
        assert!(POOL.with(|p| p.borrow().bytes) <= MAX_BYTES);
    }

    #[test]
    fn a_small_block_comes_back_by_its_exact_size() {
        // A helper's slice adjoint of three `f64`s, given back by its
        // caller and taken by the next call: the same block, without
        // touching the other blocks.
        drop(Stack::<f64>::with_capacity(1000));
        let v = zeros(3, 0.0_f64);
        let ptr = v.as_ptr();
        give(v);
        let blocks = pooled_blocks();
        let w = zeros(3, 0.0_f64);
        assert_eq!((w.as_ptr(), w.capacity()), (ptr, 3));
        assert_eq!(pooled_blocks(), blocks);
        // A larger request within twice the size takes the next size up.
        give(w);
        let x = zeros(2, 0.0_f64);
        assert_eq!(x.as_ptr(), ptr);
        assert_eq!(x, vec![0.0; 2]);
        // More than a size's stack holds go to the other blocks.
        let many: Vec<Vec<f64>> = (0..2 * SMALL_DEPTH).map(|_| zeros(5, 0.0)).collect();
        many.into_iter().for_each(give);
        assert_eq!(pooled_blocks(), blocks + SMALL_DEPTH);
    }

    #[test]
    fn an_empty_buffer_given_back_is_taken_again() {
        // A struct adjoint's row, flattened and added into its caller's
        // each call: one block, no allocation after the first.
        let mut row = empty::<f64>(2);
        row.extend([1.0, 2.0]);
        let ptr = row.as_ptr();
        give(row);
        for _ in 0..4 * SMALL_DEPTH {
            let row = empty::<f64>(2);
            assert_eq!((row.as_ptr(), row.len(), row.capacity()), (ptr, 0, 2));
            give(row);
        }
    }

    #[test]
    fn rows_come_back_last_first_in_one_buffer() {
        let mut rows = Rows::<f64>::new();
        rows.push(&[1.0, 2.0]);
        rows.push(&[]);
        rows.push(&[3.0, 4.0, 5.0]);
        let a = rows.pop();
        assert_eq!(a, [3.0, 4.0, 5.0]);
        let ptr = a.as_ptr();
        rows.give_back(a);
        let b = rows.pop();
        assert!(b.is_empty());
        assert_eq!(b.as_ptr(), ptr);
        rows.give_back(b);
        let c = rows.pop();
        assert_eq!((c.as_slice(), c.as_ptr()), (&[1.0, 2.0][..], ptr));
        // A row kept after the buffer moved on: a pooled one.
        rows.push(&[6.0]);
        assert_eq!(rows.pop(), [6.0]);
    }

    #[test]
    fn rows_of_different_lengths_fill_the_buffer_reserved_for_them() {
        let mut rows = Rows::<f64>::new();
        // Three iterations of a row of 1 and a row of 4.
        rows.reserve_iterations(3, 2, 1 + 4);
        let (values, ends) = (rows.values.as_ptr(), rows.ends.as_ptr());
        for i in 0..3 {
            let x = f64::from(i);
            rows.push(&[x]);
            rows.push(&[x, x, x, x]);
        }
        // Neither buffer moved: no row grew one.
        assert_eq!((rows.values.as_ptr(), rows.ends.as_ptr()), (values, ends));
        assert_eq!(rows.pop(), [2.0; 4]);
        assert_eq!(rows.pop(), [2.0]);
    }

    #[test]
    fn zero_sized_values_take_nothing() {
        let mut s = Stack::<()>::new();
        s.push(());
        s.push(());
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn a_clone_keeps_values_and_capacity() {
        let mut s = Stack::with_capacity(7);
        s.push(1.5_f32);
        let c = s.clone();
        assert_eq!(&c[..], &[1.5]);
        assert!(c.capacity() >= 7);
        let empty = Stack::<f32>::new();
        assert_eq!(empty.clone().capacity(), 0);
    }
}
