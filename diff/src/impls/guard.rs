//! Guard bytes around every output buffer the harness hands one of this crate's kernels: a
//! fixed pattern before and after the buffer, checked after the call in every build (release
//! included, where no sanitizer runs). A kernel that writes outside its output — an
//! off-by-some bound on a SIMD store — changes a guard, and the answer becomes a harness fault
//! naming the kernel, which mismatches the reference and is reported like any other
//! difference. One type, [`Guarded`], for every kind of buffer.

use crate::oracle::{Fault, Got, Miss};
use mldsa::poly::Poly;
// The compiler may assume a kernel writes only inside the buffer it was given: the guards
// are read through `black_box`, so their checks are never folded away.
use std::hint::black_box;

/// Bytes of guard on each side, at least (more than any SIMD store can overrun by: 32-byte
/// stores).
pub const GUARD_BYTES: usize = 64;
/// The guard pattern (a byte no kernel output is likely to end with by chance).
pub const PATTERN: u8 = 0xa5;

/// An element of a guarded buffer: the value every byte of which is [`PATTERN`], and its
/// bytes in memory.
pub trait Element: Copy + PartialEq {
    const GUARD: Self;
    /// Appends its bytes in memory order to `out`.
    fn bytes(&self, out: &mut Vec<u8>);
}

macro_rules! int_elements {
    ($($t:ty),*) => {$(
        impl Element for $t {
            const GUARD: $t = <$t>::from_ne_bytes([PATTERN; size_of::<$t>()]);
            fn bytes(&self, out: &mut Vec<u8>) {
                out.extend(self.to_ne_bytes());
            }
        }
    )*};
}
int_elements!(u8, i32, u64);

impl Element for Poly {
    const GUARD: Poly = Poly::from_coeffs([i32::GUARD; mldsa::params::N]);
    fn bytes(&self, out: &mut Vec<u8>) {
        self.coeffs.iter().for_each(|c| c.bytes(out));
    }
}

impl<T: Element, const M: usize> Element for [T; M] {
    const GUARD: [T; M] = [T::GUARD; M];
    fn bytes(&self, out: &mut Vec<u8>) {
        self.iter().for_each(|x| x.bytes(out));
    }
}

/// Values with guards on both sides, contiguous in memory: whole elements of [`Element::GUARD`],
/// at least [`GUARD_BYTES`] on each side.
#[derive(Clone, Debug)]
pub struct Guarded<T> {
    buf: Vec<T>,
    /// Guard elements on each side.
    guard: usize,
}

impl<T: Element> Guarded<T> {
    /// `values` between two guards.
    pub fn new(values: &[T]) -> Self {
        let guard = GUARD_BYTES.div_ceil(size_of::<T>().max(1)).max(1);
        let mut buf = vec![T::GUARD; guard];
        buf.extend_from_slice(values);
        buf.extend(std::iter::repeat_n(T::GUARD, guard));
        Guarded { buf, guard }
    }

    /// The buffer to hand the kernel.
    pub fn out(&mut self) -> &mut [T] {
        let n = self.buf.len();
        &mut self.buf[self.guard..n - self.guard]
    }

    pub fn values(&self) -> &[T] {
        &self.buf[self.guard..self.buf.len() - self.guard]
    }

    /// Where a guard was changed, if one was.
    pub fn violation(&self) -> Option<Violation> {
        let buf = black_box(&self.buf[..]);
        let (pre, post) = (&buf[..self.guard], &buf[buf.len() - self.guard..]);
        if pre.iter().chain(post).all(|x| *x == T::GUARD) {
            return None;
        }
        let bytes = |xs: &[T]| {
            let mut out = Vec::new();
            xs.iter().for_each(|x| x.bytes(&mut out));
            out
        };
        Violation::find(&bytes(pre), &bytes(post))
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
            kernel: kernel.to_string(),
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
        let mut g = Guarded::new(&[0u8; 10]);
        assert_eq!(g.violation(), None);
        g.buf[GUARD_BYTES + 10 + 3] = 0;
        assert_eq!(
            g.violation(),
            Some(Violation {
                before: 0,
                after: 4
            })
        );
        let mut g = Guarded::new(&[0i32; 5]);
        g.buf[GUARD_BYTES / 4 - 1] = 7;
        assert_eq!(g.violation().map(|v| v.before), Some(4));
        let mut p = Guarded::new(&[Poly::ZERO]);
        assert_eq!(p.violation(), None);
        p.buf[2].coeffs[0] = 1;
        assert!(matches!(
            checked("ntt", &[p.violation()], ()),
            Err(Miss::Fault(Fault::Guard { ref kernel, .. })) if kernel == "ntt"
        ));
        // Writes inside the buffer are not violations.
        let mut m = Guarded::new(&[[Poly::ZERO; 2]; 3]);
        m.out()[2][1].coeffs[255] = -1;
        assert_eq!(m.violation(), None);
    }
}
