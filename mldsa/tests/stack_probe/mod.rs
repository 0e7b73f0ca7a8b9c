//! Stack painting for the stack tests (`secret_residue.rs`, `stack_use.rs`): run an
//! operation on a thread of its own, over a stack region painted beforehand with a
//! per-address pattern, then copy that region out and see which words the operation
//! overwrote (its depth) and what it left there (its residue).
//!
//! How: [`probe`] spawns a thread with a [`THREAD_STACK`]-byte stack. On it, [`paint`] (never
//! inlined, calling nothing) fills [`DEPTH`] bytes lying [`GAP`] bytes below its own frame
//! with the pattern; [`below_pad`] then runs the operation under a 4 KiB pad, so every frame
//! of the operation lies inside the painted region; [`snapshot`] (never inlined, calling
//! nothing) copies the region into a buffer allocated before. Everything the test keeps
//! (inputs, outputs, the expected secrets) is on the heap, so the region holds only what
//! the operation left on the stack. The accesses are volatile through raw addresses: the
//! region is stack memory of this thread below the live frames, which no Rust object owns.
#![allow(unsafe_code, dead_code)]

use std::hint::black_box;

/// Stack of the probing thread.
pub(crate) const THREAD_STACK: usize = 4 << 20;
/// Bytes painted (and copied back), deeper than any operation goes.
pub(crate) const DEPTH: usize = 1 << 20;
/// Bytes left unpainted between the painter's (and the copier's) own frame and the region,
/// so neither touches the region with its own frame.
const GAP: usize = 1024;
/// The pad [`below_pad`] puts between the caller's frame and the operation's.
const PAD: usize = 4096;

/// The word painted at `addr`: different at every address, so an operation cannot write
/// the painted value back by accident.
#[inline(always)]
fn pattern(addr: usize) -> u64 {
    (addr as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5a5a_c3c3_a5a5_3c3c
}

/// Address of a local of the calling frame (an approximation of the stack pointer).
#[inline(always)]
fn here() -> usize {
    let marker = 0u64;
    black_box(&marker) as *const u64 as usize
}

/// Paints [`DEPTH`] bytes ending [`GAP`] bytes below this frame; returns the region
/// `(bottom, top)`.
#[inline(never)]
fn paint() -> (usize, usize) {
    let top = (here() - GAP) & !7;
    let bottom = top - DEPTH;
    let mut a = bottom;
    while a < top {
        // SAFETY: [bottom, top) lies below this (innermost) frame and inside this thread's
        // stack (DEPTH + GAP + the frames above < THREAD_STACK): memory no live object owns.
        // Aligned to 8 bytes.
        unsafe { std::ptr::with_exposed_provenance_mut::<u64>(a).write_volatile(pattern(a)) };
        a += 8;
    }
    (bottom, top)
}

/// Copies the region `(bottom, top)` into `out` (one word per 8 bytes). Called from the
/// same frame as [`paint`], so it runs at about the same depth and its frame stays above
/// the region: its marker may sit a few words lower in its frame than the painter's (on
/// aarch64 in release, 8 bytes: 1016 bytes above the region, not 1024), and it calls
/// nothing, so half of [`GAP`] above the region leaves room for all of its frame below the
/// marker.
#[inline(never)]
fn snapshot(bottom: usize, top: usize, out: &mut [u64]) {
    assert!(
        here() - GAP / 2 >= top,
        "the copier's frame reaches into the region"
    );
    for (i, w) in out.iter_mut().enumerate() {
        let a = bottom + 8 * i;
        // SAFETY: as in `paint`: an aligned word of this thread's stack below the live frames.
        *w = unsafe { std::ptr::with_exposed_provenance::<u64>(a).read_volatile() };
    }
}

/// Runs `f` below a [`PAD`]-byte local; returns its result and the address where the pad
/// ends (the top of `f`'s frames).
#[inline(never)]
fn below_pad<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let pad = [0u8; PAD];
    let at = black_box(&pad) as *const u8 as usize;
    let r = f();
    black_box(&pad);
    (r, at)
}

/// What [`probe`] saw.
pub(crate) struct Probe<R> {
    /// `f`'s result.
    pub(crate) result: R,
    /// Stack bytes `f` used: from the top of its frames to the deepest word it overwrote.
    pub(crate) used: usize,
    /// The region after `f` returned, bytes in memory order, lowest address first.
    pub(crate) region: Vec<u8>,
    /// Whether the deepest painted word was still intact (the region was deep enough).
    pub(crate) deep_enough: bool,
    /// Which 8-byte words of the region `f` overwrote (the rest still hold the paint).
    pub(crate) written: Vec<bool>,
}

/// Runs `f` on a fresh thread over a painted stack region (see the module documentation).
pub(crate) fn probe<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> Probe<R> {
    std::thread::Builder::new()
        .stack_size(THREAD_STACK)
        .spawn(move || {
            let mut words = vec![0u64; DEPTH / 8];
            let (bottom, top) = paint();
            let (result, pad_at) = below_pad(f);
            snapshot(bottom, top, &mut words);
            let lowest = words
                .iter()
                .enumerate()
                .find(|&(i, &w)| w != pattern(bottom + 8 * i))
                .map_or(top, |(i, _)| bottom + 8 * i);
            let region: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
            let written = (words.iter().enumerate())
                .map(|(i, &w)| w != pattern(bottom + 8 * i))
                .collect();
            Probe {
                result,
                used: pad_at.saturating_sub(lowest),
                region,
                deep_enough: words[0] == pattern(bottom),
                written,
            }
        })
        .expect("spawn the probing thread")
        .join()
        .expect("the probing thread")
}
