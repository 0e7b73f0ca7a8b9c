//! Test-only fault injection (feature `planted-bugs`, never on by default). [`Planted`] wraps
//! a backend and forwards every kernel to it; with `MLDSA_PLANTED_BUG=<kernel>` set, it then
//! corrupts that one kernel's result on the inputs named below (for most kernels about one
//! random input in 64). [`AnyBackend::new`](super::AnyBackend::new) hands out
//! `Planted<Portable>` for the portable backend when the variable is set, so the fuzz driver
//! can show each target finds a wrong kernel and time how long that takes. No kernel holds
//! fault code: every fault is a post-processing of the inner kernel's result (or, for the
//! two rejection samplers, a splice of inner calls around the one candidate it gets wrong).

use std::string::String;
use std::sync::OnceLock;

use super::field;
use super::kind::BackendKind;
use super::traits::Backend;
use crate::error::HintError;
use crate::params::{D, Eta, Gamma1, Gamma2, Q};
use crate::poly::Poly;

/// The value of `MLDSA_PLANTED_BUG`, read once.
fn setting() -> &'static str {
    static WHICH: OnceLock<String> = OnceLock::new();
    WHICH.get_or_init(|| std::env::var("MLDSA_PLANTED_BUG").unwrap_or_default())
}

/// Whether `MLDSA_PLANTED_BUG` names a kernel (is set and non-empty).
pub(crate) fn enabled() -> bool {
    !setting().is_empty()
}

#[cfg(test)]
std::thread_local! {
    /// Tests name the planted kernel per thread instead of through the environment.
    static OVERRIDE: core::cell::Cell<Option<&'static str>> = const { core::cell::Cell::new(None) };
}

/// Whether the planted bug of `kernel` is switched on in this process.
fn active(kernel: &str) -> bool {
    #[cfg(test)]
    if let Some(k) = OVERRIDE.with(|o| o.get()) {
        return k == kernel;
    }
    setting() == kernel
}

/// A backend whose kernels are `B`'s, one of them made wrong by `MLDSA_PLANTED_BUG`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Planted<B>(pub B);

/// The usual fault: entry 3 of `$x` changed by `$fault` when `$cond` holds of it.
macro_rules! at3 {
    ($kernel:literal, $x:expr, |$v:ident| $cond:expr, $fault:expr) => {
        if active($kernel) {
            let $v = &mut $x[3];
            if $cond {
                $fault;
            }
        }
    };
}

/// The Keccak fault on one state (lane 3 of instance `j` of `stride` interleaved states).
fn keccak_fault(s: &mut [u64], stride: usize) {
    if active("keccak") {
        for j in 0..stride {
            let lane = &mut s[3 * stride + j];
            if *lane & 63 == 17 {
                *lane ^= 1;
            }
        }
    }
}

/// CoeffFromThreeBytes' candidate of a 3-byte group.
fn three_bytes(b: &[u8]) -> u32 {
    u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2] & 0x7f) << 16
}

impl<B: Backend> Backend for Planted<B> {
    const KIND: BackendKind = B::KIND;
    const PREFERS_X4: bool = B::PREFERS_X4;
    const PREFERS_X8: bool = B::PREFERS_X8;

    fn ntt_order_from_canonical(self, a: &mut Poly) {
        self.0.ntt_order_from_canonical(a)
    }
    fn ntt_order_to_canonical(self, a: &mut Poly) {
        self.0.ntt_order_to_canonical(a)
    }
    #[inline]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        self.0.run(f)
    }

    fn keccak_f1600(self, state: &mut [u64; 25]) {
        self.0.keccak_f1600(state);
        keccak_fault(state, 1);
    }
    /// As four single calls would see it: the fault on each instance.
    fn keccak_f1600_x4(self, states: &mut [u64; 100]) {
        self.0.keccak_f1600_x4(states);
        keccak_fault(states, 4);
    }
    fn keccak_f1600_x4x2(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.0.keccak_f1600_x4x2(s0, s1);
        keccak_fault(s0, 4);
        keccak_fault(s1, 4);
    }
    fn keccak_f1600_public(self, state: &mut [u64; 25]) {
        self.0.keccak_f1600_public(state);
        keccak_fault(state, 1);
    }
    fn keccak_f1600_x4_public(self, states: &mut [u64; 100]) {
        self.0.keccak_f1600_x4_public(states);
        keccak_fault(states, 4);
    }
    fn keccak_f1600_x4x2_public(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.0.keccak_f1600_x4x2_public(s0, s1);
        keccak_fault(s0, 4);
        keccak_fault(s1, 4);
    }

    fn ntt(self, a: &mut Poly) {
        self.0.ntt(a);
        at3!("ntt", a.coeffs, |x| *x & 63 == 17, *x += 1);
    }
    fn invntt_tomont(self, a: &mut Poly) {
        self.0.invntt_tomont(a);
        at3!("invntt_tomont", a.coeffs, |x| *x & 63 == 17, *x += 1);
    }
    fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        self.0.pointwise_montgomery(c, a, b);
        at3!("pointwise_montgomery", c.coeffs, |x| *x & 63 == 17, *x += 1);
    }
    fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        self.0.pointwise_acc_montgomery(c, a, b);
        at3!(
            "pointwise_acc_montgomery",
            c.coeffs,
            |x| *x & 63 == 17,
            *x += 1
        );
    }
    fn reduce(self, a: &mut Poly) {
        self.0.reduce(a);
        at3!("reduce", a.coeffs, |x| *x & 63 == 17, *x += 1);
    }
    fn caddq(self, a: &mut Poly) {
        self.0.caddq(a);
        at3!("caddq", a.coeffs, |x| *x & 63 == 17, *x -= 1);
    }
    fn add(self, a: &mut Poly, b: &Poly) {
        self.0.add(a, b);
        at3!("add", a.coeffs, |x| *x & 63 == 17, *x += 1);
    }
    fn sub(self, a: &mut Poly, b: &Poly) {
        self.0.sub(a, b);
        at3!("sub", a.coeffs, |x| *x & 63 == 17, *x += 1);
    }
    fn shiftl(self, a: &mut Poly) {
        self.0.shiftl(a);
        at3!("shiftl", a.coeffs, |x| (*x >> D) & 63 == 17, *x += 1);
    }
    fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        self.0.power2round(t1, t0, a);
        at3!("power2round", t1.coeffs, |x| *x & 63 == 17, *x ^= 1);
    }

    /// The wrap-around corner r0 = -gamma2 comes out as +gamma2.
    fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        self.0.decompose(g, a1, a0, a);
        if active("decompose") {
            for x in a0.coeffs.iter_mut().filter(|x| **x == -g.value()) {
                *x = g.value();
            }
        }
    }
    /// The a0 = -gamma2, a1 != 0 clause is forgotten.
    fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        let n = self.0.make_hint(g, h, a0, a1);
        if !active("make_hint") {
            return n;
        }
        for i in 0..h.coeffs.len() {
            if a0.coeffs[i] == -g.value() && a1.coeffs[i] != 0 {
                h.coeffs[i] = 0;
            }
        }
        h.coeffs.iter().filter(|&&x| x != 0).count()
    }
    /// r0 = 0 treated as positive (the PQClean AVX2 behaviour).
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "test-only fault injection (feature planted-bugs, never in a release); UseHint is verification, on public values"
    )]
    fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        self.0.use_hint(g, out, a, h);
        if active("use_hint") {
            for i in 0..out.coeffs.len() {
                let (r1, r0) = field::decompose(g, a.coeffs[i]);
                if h.coeffs[i] == 1 && r0 == 0 {
                    out.coeffs[i] = (r1 + 1) % g.m();
                }
            }
        }
    }
    /// Off by one: |a| = bound passes.
    fn chknorm(self, a: &Poly, bound: i32) -> bool {
        let over = self.0.chknorm(a, bound);
        if !active("chknorm") {
            return over;
        }
        over && a.coeffs.iter().any(|&x| x.unsigned_abs() > bound as u32)
    }

    /// q itself is accepted: the inner kernel runs on the stretches between groups equal
    /// to q, which are spliced in.
    fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        if !active("rej_uniform") {
            return self.0.rej_uniform(out, buf);
        }
        let (mut n, mut start) = (0, 0);
        for (g, group) in buf.chunks_exact(3).enumerate() {
            if three_bytes(group) == Q as u32 {
                n += self.0.rej_uniform(&mut out[n..], &buf[start..3 * g]);
                if n == out.len() {
                    return n;
                }
                out[n] = Q;
                n += 1;
                start = 3 * g + 3;
            }
        }
        n + self.0.rej_uniform(&mut out[n..], &buf[start..])
    }
    /// Nibble 15 of byte 3 is accepted, as eta - (15 mod (2 eta + 1)): the inner kernel
    /// samples bytes 0..3 and 4.., byte 3 is sampled here.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "test-only fault injection (feature planted-bugs, never in a release): the wrong reduction it plants"
    )]
    fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        if !active("rej_eta") || buf.len() <= 3 {
            return self.0.rej_eta(eta, out, buf);
        }
        let e = eta.value();
        let mut n = self.0.rej_eta(eta, out, &buf[..3]);
        for nib in [i32::from(buf[3] & 0x0f), i32::from(buf[3] >> 4)] {
            if n == out.len() {
                return n;
            }
            let limit = match eta {
                Eta::Two => 15,
                Eta::Four => 9,
            };
            // For every accepted nibble (the planted 15 included) the value is
            // eta - (nibble mod (2 eta + 1)), as CoeffFromHalfByte computes it.
            let accept = nib == 15 || nib < limit;
            if accept {
                out[n] = e - nib % (2 * e + 1);
                n += 1;
            }
        }
        n + self.0.rej_eta(eta, &mut out[n..], &buf[4..])
    }

    fn pack_t1(self, out: &mut [u8], a: &Poly) {
        self.0.pack_t1(out, a);
        at3!("pack_t1", out, |x| *x & 63 == 17, *x ^= 1);
    }
    fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_t1(a, buf);
        at3!("unpack_t1", a.coeffs, |x| *x & 63 == 17, *x ^= 1);
    }
    fn pack_t0(self, out: &mut [u8], a: &Poly) {
        self.0.pack_t0(out, a);
        at3!("pack_t0", out, |x| *x & 63 == 17, *x ^= 1);
    }
    fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_t0(a, buf);
        at3!("unpack_t0", a.coeffs, |x| *x & 63 == 17, *x ^= 1);
    }
    fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        self.0.pack_eta(eta, out, a);
        at3!("pack_eta", out, |x| *x & 63 == 17, *x ^= 1);
    }
    /// Two sites: "unpack_eta" flips coefficient 3 of a (1, -1) pair at 3 and 4;
    /// "unpack_eta_range" lets 2 eta + 1 (the coefficient -eta - 1) through the range check.
    fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        let ok = self.0.unpack_eta(eta, a, buf);
        if active("unpack_eta") && a.coeffs[3] == 1 && a.coeffs[4] == -1 {
            a.coeffs[3] = -1;
        }
        if active("unpack_eta_range") {
            return a.coeffs.iter().all(|&x| x >= -eta.value() - 1);
        }
        ok
    }
    fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        self.0.pack_z(g, out, a);
        at3!("pack_z", out, |x| *x & 63 == 17, *x ^= 1);
    }
    fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_z(g, a, buf);
        at3!("unpack_z", a.coeffs, |x| *x & 63 == 17, *x ^= 1);
    }
    fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        self.0.pack_w1(g, out, a);
        at3!("pack_w1", out, |x| *x & 15 == 9, *x ^= 1);
    }

    fn pack_hint(self, out: &mut [u8], h: &[Poly], omega: usize) {
        self.0.pack_hint(out, h, omega);
        if active("pack_hint") && out[0] == 17 {
            out[0] = 18;
        }
    }
    /// A non-zero byte in the last padding slot is not noticed.
    fn unpack_hint(self, h: &mut [Poly], buf: &[u8], omega: usize) -> Result<(), HintError> {
        let r = self.0.unpack_hint(h, buf, omega);
        if r == Err(HintError::NonZeroPadding) && active("unpack_hint") && !h.is_empty() {
            // The padding starts after the last cumulative count (valid, or the inner
            // kernel would not have reached the padding check).
            let used = usize::from(buf[omega + h.len() - 1]);
            if used < omega && buf[used..omega - 1].iter().all(|&b| b == 0) {
                return Ok(());
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;

    /// Runs `f` with the planted bug of `kernel` switched on in this thread.
    fn with_bug(kernel: &'static str, f: impl FnOnce()) {
        OVERRIDE.with(|o| o.set(Some(kernel)));
        f();
        OVERRIDE.with(|o| o.set(None));
    }

    fn poly(at: &[(usize, i32)]) -> Poly {
        let mut p = Poly::ZERO;
        for &(i, x) in at {
            p.coeffs[i] = x;
        }
        p
    }

    #[test]
    fn planted_kernels_differ_exactly_on_their_trigger() {
        let p = Planted(Portable);
        with_bug("reduce", || {
            for (x, differs) in [(17, true), (16, false), (17 + 64, true), (Q + 18, false)] {
                let (mut a, mut b) = (poly(&[(3, x)]), poly(&[(3, x)]));
                Portable.reduce(&mut a);
                p.reduce(&mut b);
                assert_eq!(a != b, differs, "reduce, coefficient 3 = {x}");
            }
        });
        with_bug("decompose", || {
            let g = Gamma2::QMinus1Over88;
            // q - gamma2 is the wrap-around corner: r0 = -gamma2.
            for (r, differs) in [
                (Q - g.value(), true),
                (Q - g.value() - 1, false),
                (5, false),
            ] {
                let a = poly(&[(0, r)]);
                let (mut x1, mut x0, mut y1, mut y0) =
                    (Poly::ZERO, Poly::ZERO, Poly::ZERO, Poly::ZERO);
                Portable.decompose(g, &mut x1, &mut x0, &a);
                p.decompose(g, &mut y1, &mut y0, &a);
                assert_eq!(x1, y1);
                assert_eq!(x0 != y0, differs, "decompose r = {r}");
            }
        });
        with_bug("chknorm", || {
            let bound = 1000;
            assert!(Portable.chknorm(&poly(&[(7, bound)]), bound));
            assert!(!p.chknorm(&poly(&[(7, bound)]), bound));
            assert!(p.chknorm(&poly(&[(7, -bound - 1)]), bound));
            assert!(!p.chknorm(&poly(&[(7, bound - 1)]), bound));
        });
        with_bug("rej_uniform", || {
            // Groups q - 1, q, 5: the planted sampler keeps q.
            let buf = [0x00, 0xE0, 0x7F, 0x01, 0xE0, 0x7F, 5, 0, 0];
            let (mut o0, mut o1) = ([0; 8], [0; 8]);
            assert_eq!(Portable.rej_uniform(&mut o0, &buf), 2);
            assert_eq!(p.rej_uniform(&mut o1, &buf), 3);
            assert_eq!(o1[..3], [Q - 1, Q, 5]);
            // Room for one value only: both stop after q - 1.
            assert_eq!(p.rej_uniform(&mut o1[..1], &buf), 1);
            let clean = [0x00, 0xE0, 0x7F, 0x02, 0xE0, 0x7F, 5, 0, 0];
            assert_eq!(Portable.rej_uniform(&mut o0, &clean), 2);
            assert_eq!(p.rej_uniform(&mut o1, &clean), 2);
            assert_eq!(o0[..2], o1[..2]);
        });
        with_bug("rej_eta", || {
            for (byte3, differs) in [(0xF1u8, true), (0x1F, true), (0x21, false)] {
                let buf = [0x10, 0x32, 0x54, byte3, 0x76, 0x98];
                let (mut o0, mut o1) = ([9; 16], [9; 16]);
                let n0 = Portable.rej_eta(Eta::Two, &mut o0, &buf);
                let n1 = p.rej_eta(Eta::Two, &mut o1, &buf);
                assert_eq!((n0, o0[..n0].to_vec()) != (n1, o1[..n1].to_vec()), differs);
            }
        });
        with_bug("unpack_hint", || {
            let (omega, k) = (80, 4);
            let mut h = [Poly::ZERO; 4];
            let mut buf = [0u8; 84];
            buf[omega - 1] = 1;
            assert_eq!(
                Portable.unpack_hint(&mut h, &buf, omega),
                Err(HintError::NonZeroPadding)
            );
            assert_eq!(p.unpack_hint(&mut h, &buf, omega), Ok(()));
            buf[omega - 2] = 1;
            assert_eq!(
                p.unpack_hint(&mut h[..k], &buf, omega),
                Err(HintError::NonZeroPadding)
            );
        });
    }

    #[test]
    fn planted_keccak_x4_is_four_planted_single_calls() {
        let p = Planted(Portable);
        with_bug("keccak", || {
            // Find single states whose output triggers the fault (lane 3 = 17 mod 64), and
            // ones that do not.
            let (mut hit, mut miss) = (None, None);
            for i in 0..10_000u64 {
                let mut s = [0u64; 25];
                s[0] = i;
                let input = s;
                Portable.keccak_f1600(&mut s);
                if s[3] & 63 == 17 {
                    hit.get_or_insert(input);
                } else {
                    miss.get_or_insert(input);
                }
                if hit.is_some() && miss.is_some() {
                    break;
                }
            }
            let (hit, miss) = (hit.expect("a trigger"), miss.expect("a non-trigger"));
            let single = |b: &dyn Fn(&mut [u64; 25]), s: [u64; 25]| {
                let mut s = s;
                b(&mut s);
                s
            };
            let portable = |s: &mut [u64; 25]| Portable.keccak_f1600(s);
            let planted = |s: &mut [u64; 25]| p.keccak_f1600(s);
            assert_ne!(single(&portable, hit), single(&planted, hit));
            assert_eq!(single(&portable, miss), single(&planted, miss));
            // Four-way and two four-way: each instance as the single planted call.
            let inputs = [hit, miss, miss, hit];
            let mut x4 = [0u64; 100];
            for (j, s) in inputs.iter().enumerate() {
                for i in 0..25 {
                    x4[4 * i + j] = s[i];
                }
            }
            let (mut a, mut b, mut c) = (x4, x4, x4);
            p.keccak_f1600_x4(&mut a);
            p.keccak_f1600_x4x2(&mut b, &mut c);
            for (j, s) in inputs.iter().enumerate() {
                let want = single(&planted, *s);
                for i in 0..25 {
                    assert_eq!([a[4 * i + j], b[4 * i + j], c[4 * i + j]], [want[i]; 3]);
                }
            }
        });
    }
}
