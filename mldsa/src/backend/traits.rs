//! The [`Backend`] trait: the kernels every backend implements. Each default body is the
//! portable kernel of the same name, so the portable backend's impl (at the end of this
//! file) is empty and a SIMD backend overrides only what it accelerates.

#[allow(unused_imports)] // `contract` is named by the doc links
use super::contract;
use super::kind::BackendKind;
use super::portable::{self, Portable};
use crate::error::HintError;
use crate::params::{Eta, Gamma1, Gamma2};
use crate::poly::Poly;

/// The kernels. Each method's contract (input bounds, output bounds, how results compare
/// between backends) is written in [`contract`] and checked with `debug_assert!` by
/// [`Checked`](super::Checked), the only way scheme code calls a kernel.
///
/// Every method's default body is the portable kernel (`portable::kernels`): the portable
/// backend is exactly the defaults, and a SIMD backend overrides only what it accelerates.
pub trait Backend: Copy + core::fmt::Debug + Send + Sync + 'static {
    /// Which backend this is.
    const KIND: BackendKind;

    /// Converts an NTT-domain polynomial from the canonical (FIPS 204 bit-reversed)
    /// coefficient order to this backend's own NTT order. A backend whose `ntt` output is in
    /// another order owns that permutation: the samplers apply this to polynomials drawn
    /// directly in the NTT domain (the matrix A), and tests use it to compare in canonical
    /// order. The default (canonical order) does nothing.
    fn ntt_order_from_canonical(self, a: &mut Poly) {
        let _ = a;
    }
    /// Inverse of [`Backend::ntt_order_from_canonical`].
    fn ntt_order_to_canonical(self, a: &mut Poly) {
        let _ = a;
    }

    /// Whether one 4-way Keccak call costs less than two single ones, so samplers should
    /// pad a last group of two or three polynomials into a 4-way call (a lone last one
    /// takes the single sponge: one 4-way call costs more than one single call).
    const PREFERS_X4: bool = false;

    /// Whether [`Backend::keccak_f1600_x4x2`] costs less than two 4-way permutations, so
    /// samplers should take eight polynomials at a time (padding a last group of five to
    /// seven into an 8-way call).
    const PREFERS_X8: bool = false;

    /// Runs a whole operation (keygen, sign, verify) in a context compiled for this
    /// backend's CPU features, so the scheme code around the kernels benefits too. The
    /// portable backend just calls `f`.
    #[inline]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        f()
    }

    /// Keccak-f[1600] on one state (25 lanes, FIPS 202 lane order).
    fn keccak_f1600(self, state: &mut [u64; 25]) {
        portable::kernels::keccak_f1600(state)
    }

    /// Keccak-f[1600] on four independent states, interleaved: lane `i` of instance `j` is
    /// `states[4 * i + j]`.
    fn keccak_f1600_x4(self, states: &mut [u64; 100]) {
        // Four calls of the one-way permutation (de-interleaving).
        let mut s = [0u64; 25];
        for j in 0..4 {
            for (i, lane) in s.iter_mut().enumerate() {
                *lane = states[4 * i + j];
            }
            self.keccak_f1600(&mut s);
            for (i, lane) in s.iter().enumerate() {
                states[4 * i + j] = *lane;
            }
        }
        // The states may be secret (ExpandS, ExpandMask): no copy is left behind.
        zeroize::Zeroize::zeroize(&mut s[..]);
    }

    /// Two independent 4-way permutations ([`Backend::keccak_f1600_x4`] on each): a backend
    /// may interleave them.
    fn keccak_f1600_x4x2(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.keccak_f1600_x4(s0);
        self.keccak_f1600_x4(s1);
    }

    /// [`Backend::keccak_f1600`] of a state that holds no secret
    /// ([`Secrecy::Public`](crate::keccak::Secrecy)): the same permutation, without wiping
    /// what it leaves on the stack. The default is the portable permutation's: a backend
    /// with a permutation of its own overrides both.
    fn keccak_f1600_public(self, state: &mut [u64; 25]) {
        portable::kernels::keccak_f1600_public(state)
    }

    /// [`Backend::keccak_f1600_x4`] of states that hold no secret, as
    /// [`Backend::keccak_f1600_public`]. The default is the wiping one.
    fn keccak_f1600_x4_public(self, states: &mut [u64; 100]) {
        self.keccak_f1600_x4(states)
    }

    /// [`Backend::keccak_f1600_x4x2`] of states that hold no secret, as
    /// [`Backend::keccak_f1600_public`]. The default is the wiping one.
    fn keccak_f1600_x4x2_public(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.keccak_f1600_x4x2(s0, s1)
    }

    /// Forward NTT (FIPS 204 Alg. 41) in place; output in bit-reversed order as in FIPS 204.
    /// Contract: [`contract::NTT`].
    fn ntt(self, a: &mut Poly) {
        portable::kernels::ntt(a)
    }

    /// Inverse NTT (FIPS 204 Alg. 42) times the Montgomery factor 2^32.
    /// Contract: [`contract::INVNTT_TOMONT`].
    fn invntt_tomont(self, a: &mut Poly) {
        portable::kernels::invntt_tomont(a)
    }

    /// Coefficient-wise Montgomery product c = a * b * 2^-32 (FIPS 204 Alg. 45, in
    /// Montgomery form). Contract: [`contract::POINTWISE`].
    fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        portable::kernels::pointwise_montgomery(c, a, b)
    }

    /// c = sum_i a\[i\] * b\[i\] * 2^-32 over L = `a.len()` terms (L in 1..=7): one row of
    /// A times a vector (FIPS 204 Alg. 48). Contract: [`contract::POINTWISE_ACC`].
    fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        portable::kernels::pointwise_acc_montgomery(c, a, b)
    }

    /// Reduces each coefficient to a representative of absolute value at most 6283009.
    /// Contract: [`contract::REDUCE`].
    fn reduce(self, a: &mut Poly) {
        portable::kernels::reduce(a)
    }

    /// Adds q to negative coefficients. Contract: [`contract::CADDQ`].
    fn caddq(self, a: &mut Poly) {
        portable::kernels::caddq(a)
    }

    /// a = a + b (no reduction). Contract: [`contract::ADD`].
    fn add(self, a: &mut Poly, b: &Poly) {
        portable::kernels::add(a, b)
    }

    /// a = a - b (no reduction). Contract: [`contract::SUB`].
    fn sub(self, a: &mut Poly, b: &Poly) {
        portable::kernels::sub(a, b)
    }

    /// a = a * 2^d. Contract: [`contract::SHIFTL`].
    fn shiftl(self, a: &mut Poly) {
        portable::kernels::shiftl(a)
    }

    /// Power2Round (FIPS 204 Alg. 35): a = t1 * 2^d + t0. Contract: [`contract::POWER2ROUND`].
    fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        portable::kernels::power2round(t1, t0, a)
    }

    /// Decompose (FIPS 204 Alg. 36): a = a1 * 2 gamma2 + a0 (mod q).
    /// Contract: [`contract::DECOMPOSE`].
    fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        portable::kernels::decompose(g, a1, a0, a)
    }

    /// Hint bits: h_i = 1 iff HighBits(a1_i * 2 gamma2 + a0_i) != a1_i; returns the number
    /// of ones. Equivalent to FIPS 204 Alg. 39 MakeHint(-ct0, w - cs2 + ct0) with
    /// a0 = w0 - cs2 + ct0, a1 = w1. Contract: [`contract::MAKE_HINT`].
    fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        portable::kernels::make_hint(g, h, a0, a1)
    }

    /// UseHint (FIPS 204 Alg. 40). Contract: [`contract::USE_HINT`].
    fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        portable::kernels::use_hint(g, out, a, h)
    }

    /// True iff some |a_i| >= bound (infinity-norm check). Constant time in the
    /// coefficients. Contract: [`contract::CHKNORM`].
    fn chknorm(self, a: &Poly, bound: i32) -> bool {
        portable::kernels::chknorm(a, bound)
    }

    /// RejNTTPoly inner loop (FIPS 204 Alg. 30, 14): fills `out` from 3-byte groups of
    /// `buf` (whole groups only), returns how many entries were written. Entries of `out`
    /// past the returned count are unspecified (a SIMD backend may store whole vectors).
    /// Contract: [`contract::REJ_UNIFORM`].
    fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        portable::kernels::rej_uniform(out, buf)
    }

    /// RejBoundedPoly inner loop (FIPS 204 Alg. 31, 15): fills `out` from the half-bytes of
    /// `buf`, returns how many entries were written; entries past that count are
    /// unspecified. Contract: [`contract::REJ_ETA`].
    fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        portable::kernels::rej_eta(eta, out, buf)
    }

    /// SimpleBitPack(t1, 2^10 - 1) (FIPS 204 Alg. 16). Contract: [`contract::PACK_T1`].
    fn pack_t1(self, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_t1(out, a)
    }
    /// SimpleBitUnpack of t1 (Alg. 18). Contract: [`contract::UNPACK_T1`].
    fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        portable::kernels::unpack_t1(a, buf)
    }
    /// BitPack(t0, 2^12 - 1, 2^12) (Alg. 17). Contract: [`contract::PACK_T0`].
    fn pack_t0(self, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_t0(out, a)
    }
    /// BitUnpack of t0 (Alg. 19). Contract: [`contract::UNPACK_T0`].
    fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        portable::kernels::unpack_t0(a, buf)
    }
    /// BitPack(s, eta, eta) (Alg. 17). Contract: [`contract::PACK_ETA`].
    fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_eta(eta, out, a)
    }
    /// BitUnpack of s1/s2 (Alg. 19); returns false if a coefficient is outside [-eta, eta]
    /// (the output then holds the out-of-range values). Constant time.
    /// Contract: [`contract::UNPACK_ETA`].
    fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        portable::kernels::unpack_eta(eta, a, buf)
    }
    /// BitPack(z, gamma1 - 1, gamma1) (Alg. 17). Contract: [`contract::PACK_Z`].
    fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_z(g, out, a)
    }
    /// BitUnpack of z and of ExpandMask's output (Alg. 19, 34).
    /// Contract: [`contract::UNPACK_Z`].
    fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        portable::kernels::unpack_z(g, a, buf)
    }
    /// SimpleBitPack(w1, m - 1) (Alg. 16, 28). Contract: [`contract::PACK_W1`].
    fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_w1(g, out, a)
    }

    /// HintBitPack (FIPS 204 Alg. 20) of `h.len()` = k polynomials with coefficients in
    /// {0, 1} and at most omega ones in total. `out.len()` = omega + k.
    fn pack_hint(self, out: &mut [u8], h: &[Poly], omega: usize) {
        portable::pack_hint(out, h, omega)
    }

    /// HintBitUnpack (FIPS 204 Alg. 21) with every rejection rule of the standard.
    /// `buf.len()` = omega + k; `h.len()` = k.
    fn unpack_hint(self, h: &mut [Poly], buf: &[u8], omega: usize) -> Result<(), HintError> {
        portable::unpack_hint(h, buf, omega)
    }
}

/// The portable kernels are the trait's default methods, so this impl is empty: every other
/// backend inherits whatever it does not accelerate.
impl Backend for Portable {
    const KIND: BackendKind = BackendKind::Portable;
}
