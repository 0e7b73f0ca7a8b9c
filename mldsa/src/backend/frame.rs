//! What a callee leaves in its own stack frame, which no `zeroize` of the caller's values
//! reaches: a Keccak permutation spills state lanes there, and the last permutation of an
//! ExpandS or ExpandMask stream holds secret output (`mldsa/tests/secret_residue.rs` found
//! both the `keccak` crate's and the Neon 4-way permutation's output on the stack after
//! KeyGen and Sign). The pattern: call the permutation through a function that is never
//! inlined, so that its whole frame lies below the caller's stack pointer, then call
//! [`wipe_below`] from the same caller, which writes zeroes over that region.

/// Writes `BYTES` zeroes below the caller's stack pointer (one bulk store, a `memset` or
/// its inlined equivalent), where the frame of a never-inlined function the caller has just
/// called was. Never inlined itself, so its array starts where that callee's frame started.
/// `black_box` of a mutable reference makes the array a stack buffer whose zeroes might be
/// read, so LLVM writes them; the standard library calls `black_box` best-effort (another
/// code generator may not honour it), and volatile stores (`zeroize`) would cost a store
/// per word on every permutation, so `secret_residue.rs` is what shows the wipe happens.
/// `BYTES` must cover the callee's frame and whatever it calls. That test checks it in the
/// test profile and (run with `--release`) in release, opt-level 3, on every target CI runs; an unoptimised build (opt-level 0, larger frames) is not checked.
#[inline(never)]
pub(crate) fn wipe_below<const BYTES: usize>() {
    let mut zeroes = [0u8; BYTES];
    core::hint::black_box(&mut zeroes);
}
