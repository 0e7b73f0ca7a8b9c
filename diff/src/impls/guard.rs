//! Guard bytes around every output buffer a check hands a Rust kernel: a fixed pattern
//! before and after the buffer, checked after the call in every build (release included,
//! where no sanitizer runs). A kernel that writes outside its output — an off-by-some bound
//! on a SIMD store — changes a guard, and the answer becomes a harness fault naming the
//! kernel, which mismatches the reference and is reported like any other difference.

use crate::oracle::{Fault, Got, Miss};
// The compiler may assume a kernel writes only inside the buffer it was given: the guards
// are read through `black_box`, so their checks are never folded away.
use std::hint::black_box;

/// Bytes of guard on each side (more than any SIMD store can overrun by: 32-byte stores).
pub const GUARD_BYTES: usize = 64;
/// The guard pattern (a byte no kernel output is likely to end with by chance).
pub const PATTERN: u8 = 0xa5;
/// The guard pattern as an `i32` (rejection samplers' output slices).
const PATTERN_I32: i32 = i32::from_ne_bytes([PATTERN; 4]);
/// Guard `i32`s on each side of an `i32` buffer.
const GUARD_I32: usize = GUARD_BYTES / 4;

/// A value with guard bytes before and after it in memory (`#[repr(C)]`: the guards are
/// adjacent to the value, since 64 is a multiple of every alignment used here).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Guarded<T: Copy> {
    pre: [u8; GUARD_BYTES],
    /// The guarded value (hand `&mut g.v` to the kernel).
    pub v: T,
    post: [u8; GUARD_BYTES],
}

const _: () = assert!(core::mem::align_of::<mldsa::poly::Poly>() <= GUARD_BYTES);

impl<T: Copy> std::fmt::Debug for Guarded<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guarded")
            .field("violation", &self.violation())
            .finish_non_exhaustive()
    }
}

impl<T: Copy> Guarded<T> {
    /// `v` between two guards.
    pub fn new(v: T) -> Self {
        Guarded {
            pre: [PATTERN; GUARD_BYTES],
            v,
            post: [PATTERN; GUARD_BYTES],
        }
    }

    /// Where a guard was changed, if one was.
    pub fn violation(&self) -> Option<Violation> {
        Violation::find(black_box(&self.pre), black_box(&self.post))
    }
}

/// A byte buffer of `len` bytes with guards on both sides.
#[derive(Clone, Debug)]
pub struct GuardedBytes {
    buf: Vec<u8>,
    len: usize,
}

impl GuardedBytes {
    /// `len` zero bytes between two guards.
    pub fn zeroed(len: usize) -> Self {
        let mut buf = vec![PATTERN; len + 2 * GUARD_BYTES];
        buf[GUARD_BYTES..GUARD_BYTES + len].fill(0);
        GuardedBytes { buf, len }
    }

    /// The buffer to hand the kernel.
    pub fn out(&mut self) -> &mut [u8] {
        &mut self.buf[GUARD_BYTES..GUARD_BYTES + self.len]
    }

    /// Where a guard was changed, if one was.
    pub fn violation(&self) -> Option<Violation> {
        let buf = black_box(&self.buf[..]);
        Violation::find(&buf[..GUARD_BYTES], &buf[GUARD_BYTES + self.len..])
    }

    /// The buffer's contents.
    pub fn into_vec(mut self) -> Vec<u8> {
        self.buf.truncate(GUARD_BYTES + self.len);
        self.buf.drain(..GUARD_BYTES);
        self.buf
    }
}

/// An `i32` buffer of `len` values with guards on both sides.
#[derive(Clone, Debug)]
pub struct GuardedI32 {
    buf: Vec<i32>,
    len: usize,
}

impl GuardedI32 {
    /// `len` zeros between two guards.
    pub fn zeroed(len: usize) -> Self {
        let mut buf = vec![PATTERN_I32; len + 2 * GUARD_I32];
        buf[GUARD_I32..GUARD_I32 + len].fill(0);
        GuardedI32 { buf, len }
    }

    /// The buffer to hand the kernel.
    pub fn out(&mut self) -> &mut [i32] {
        &mut self.buf[GUARD_I32..GUARD_I32 + self.len]
    }

    /// The buffer's contents.
    pub fn values(&self) -> &[i32] {
        &self.buf[GUARD_I32..GUARD_I32 + self.len]
    }

    /// Where a guard was changed, if one was.
    pub fn violation(&self) -> Option<Violation> {
        let bytes = |v: &[i32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_ne_bytes()).collect() };
        let buf = black_box(&self.buf[..]);
        Violation::find(
            &bytes(&buf[..GUARD_I32]),
            &bytes(&buf[GUARD_I32 + self.len..]),
        )
    }
}

/// `len` polynomials with a guard polynomial (every byte [`PATTERN`]) on each side.
#[derive(Clone, Debug)]
pub struct GuardedPolys {
    buf: Vec<mldsa::poly::Poly>,
    len: usize,
}

impl GuardedPolys {
    /// `len` zero polynomials between two guards.
    pub fn zeroed(len: usize) -> Self {
        use mldsa::poly::Poly;
        let guard = Poly::from_coeffs([PATTERN_I32; mldsa::params::N]);
        let mut buf = vec![guard; len + 2];
        buf[1..=len].fill(Poly::ZERO);
        GuardedPolys { buf, len }
    }

    /// The polynomials to hand the kernel.
    pub fn out(&mut self) -> &mut [mldsa::poly::Poly] {
        &mut self.buf[1..=self.len]
    }

    /// The polynomials.
    pub fn polys(&self) -> &[mldsa::poly::Poly] {
        &self.buf[1..=self.len]
    }

    /// Where a guard was changed, if one was.
    pub fn violation(&self) -> Option<Violation> {
        let buf = black_box(&self.buf[..]);
        let bytes = |p: &mldsa::poly::Poly| -> Vec<u8> {
            p.coeffs.iter().flat_map(|x| x.to_ne_bytes()).collect()
        };
        Violation::find(&bytes(&buf[0]), &bytes(&buf[self.len + 1]))
    }
}

/// Which guard changed, and how far from the buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Bytes before the buffer that changed (the farthest one, counted from the start).
    pub before: usize,
    /// Bytes after the buffer that changed (the farthest one, counted from the end).
    pub after: usize,
}

impl Violation {
    fn find(pre: &[u8], post: &[u8]) -> Option<Violation> {
        let before = pre
            .iter()
            .position(|&b| b != PATTERN)
            .map_or(0, |i| pre.len() - i);
        let after = post
            .iter()
            .rposition(|&b| b != PATTERN)
            .map_or(0, |i| i + 1);
        (before > 0 || after > 0).then_some(Violation { before, after })
    }

    /// The fault this violation is: `kernel` wrote outside its output.
    pub fn fault(self, kernel: &'static str) -> Fault {
        Fault::Guard {
            kernel,
            before: self.before,
            after: self.after,
        }
    }
}

/// `value` if no guard in `violations` changed, else the first violation as a fault naming
/// `kernel`.
pub fn checked<T>(kernel: &'static str, violations: &[Option<Violation>], value: T) -> Got<T> {
    match violations.iter().flatten().next() {
        Some(v) => Err(Miss::Fault(v.fault(kernel))),
        None => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_past_either_end_is_seen() {
        let mut g = GuardedBytes::zeroed(10);
        assert_eq!(g.violation(), None);
        g.buf[GUARD_BYTES + 10 + 3] = 0;
        assert_eq!(
            g.violation(),
            Some(Violation {
                before: 0,
                after: 4
            })
        );
        let mut g = GuardedI32::zeroed(5);
        g.buf[GUARD_I32 - 1] = 7;
        assert_eq!(g.violation().map(|v| v.before), Some(4));
        let mut p = Guarded::new(mldsa::poly::Poly::ZERO);
        assert_eq!(p.violation(), None);
        p.post[0] = 1;
        assert!(matches!(
            checked("ntt", &[p.violation()], ()),
            Err(Miss::Fault(Fault::Guard { kernel: "ntt", .. }))
        ));
    }
}
