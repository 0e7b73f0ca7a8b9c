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

/// A 64-byte aligned local kept in memory, for [`align_frame`].
#[cfg(target_arch = "x86_64")]
#[repr(C, align(64))]
pub(crate) struct CacheLine(pub(crate) [u8; 64]);

/// Makes the current function's frame 64-byte aligned (a [`CacheLine`] the compiler must
/// keep in memory), so its spills of `ymm` and `zmm` registers are aligned and never
/// straddle two cache lines, or a 4 KiB page. Without it, where the stack lay decided how
/// fast the SIMD Keccak permutations ran: the AVX2 4-way permutation ran 30-60% slower over
/// a window of 192 bytes of every 4 KiB of stack placements (Zen 3 and Zen 4; with its rounds
/// inlined but the frame unaligned, 20% slower at every placement in some processes), the
/// AVX-512 8-way one up to 70% slower over a band (BENCHMARKS.md).
#[cfg(target_arch = "x86_64")]
macro_rules! align_frame {
    () => {
        let mut line = crate::backend::frame::CacheLine([0; 64]);
        core::hint::black_box(&mut line.0);
    };
}
#[cfg(target_arch = "x86_64")]
pub(crate) use align_frame;
