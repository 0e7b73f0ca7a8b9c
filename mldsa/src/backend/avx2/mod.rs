//! The x86_64 AVX2 backend. Its token, [`Avx2`], can only be made by [`Avx2::detect`], which
//! checks the CPU; every kernel is a `#[target_feature(enable = "avx2")]` function, called
//! from the safe trait methods because the token proves the feature is there.
//!
//! NTT-domain polynomials are kept in this backend's own order: the last three NTT layers,
//! which pair coefficients inside one 8-lane vector, run after an 8x8 transpose of each
//! 64-coefficient group so that they too are butterflies between whole vectors, and the
//! result stays transposed (the inverse NTT starts from it). So position 64g + 8r + c holds
//! canonical coefficient 64g + 8c + r; `ntt_order_from_canonical` / `_to_canonical` apply that
//! transpose (ExpandA's samples get it; tests compare in canonical order). Up to that order
//! the NTT is bit-identical to the portable one (same Montgomery arithmetic in the same
//! order); so is every other kernel except the L-fold product, which sums 64-bit products and
//! reduces once, and the inverse NTT, which folds the final factor into its last layer's
//! twiddle (both contracts compare mod q).
//!
//! Keccak: the 4-way permutation, and a pair of them run round by round in turn
//! (`keccak_f1600_x4x2`, which the samplers use for eight polynomials at a time); the
//! one-way permutation runs in general-purpose registers with BMI1 and BMI2 (`keccak_one`).
//!
//! Kernels not written here (hint packing) are the portable ones. `rej_eta`
//! uses no secret-indexed table (it samples s1 and s2): its compaction is computed;
//! `rej_uniform`'s compaction table is indexed by which candidates of the public matrix A
//! were accepted.
//!
//! One module per kernel family: `keccak`, `ntt`, `arith` (coefficient-wise arithmetic,
//! rounding, hints, norm check), `sample` (rejection sampling), `pack` (bit packing); `util`
//! holds the loads, stores and Montgomery product they share. This module holds the token
//! and the `Backend` impl, which only forwards to them.
#![allow(unsafe_code)]

mod arith;
mod keccak;
mod keccak_one;
pub(in crate::backend) mod ntt;
mod pack;
mod sample;
mod util;

use super::{Backend, BackendKind};
use crate::params::{D, Eta, Gamma1, Gamma2};
use crate::poly::Poly;

/// The CPU features this backend requires (`/proc/cpuinfo` spells them `avx2`, `popcnt`,
/// `bmi1`, `bmi2`): AVX2 for the vector kernels, POPCNT (the rejection samplers count
/// accepted candidates with it), BMI1 and BMI2 (the one-way Keccak's `andn` and `rorx`).
/// Every CPU with AVX2 so far has the other three.
pub const REQUIRED: [&str; 4] = ["avx2", "popcnt", "bmi1", "bmi2"];

/// Proof that this CPU has every feature in [`REQUIRED`]. Zero-sized; only
/// [`Avx2::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    _private: (),
}

impl Avx2 {
    /// The token, if the CPU supports every feature in [`REQUIRED`], detected at run time
    /// with `std`, or known at compile time when built with
    /// `-C target-feature=+avx2,+popcnt,+bmi1,+bmi2`.
    pub fn detect() -> Option<Avx2> {
        #[cfg(feature = "std")]
        let has = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2");
        #[cfg(not(feature = "std"))]
        let has = cfg!(all(
            target_feature = "avx2",
            target_feature = "popcnt",
            target_feature = "bmi1",
            target_feature = "bmi2"
        ));
        has.then_some(Avx2 { _private: () })
    }
}

/// Calls an AVX2 kernel from a safe method.
macro_rules! avx2 {
    ($e:expr) => {
        // SAFETY: `self` is an `Avx2` token, which exists only on CPUs with AVX2.
        unsafe { $e }
    };
}

impl Backend for Avx2 {
    const KIND: BackendKind = BackendKind::Avx2;
    const PREFERS_X4: bool = true;
    const PREFERS_X8: bool = true;

    /// Runs `f` inside a function compiled with AVX2 enabled, so that what the compiler
    /// inlines into it (the scheme code around the kernels) is compiled for AVX2 too.
    #[inline]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[target_feature(enable = "avx2")]
        fn with_avx2<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        // SAFETY: the token exists only if the CPU has AVX2.
        unsafe { with_avx2(f) }
    }

    fn keccak_f1600(self, state: &mut [u64; 25]) {
        avx2!(keccak_one::keccak_one(state))
    }
    fn keccak_f1600_public(self, state: &mut [u64; 25]) {
        avx2!(keccak_one::keccak_one_public(state))
    }
    fn keccak_f1600_x4(self, states: &mut [u64; 100]) {
        avx2!(keccak::keccak_x4(states))
    }
    fn keccak_f1600_x4x2(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        avx2!(keccak::keccak_x4x2(s0, s1))
    }
    fn keccak_f1600_x4_public(self, states: &mut [u64; 100]) {
        avx2!(keccak::keccak_x4_public(states))
    }
    fn keccak_f1600_x4x2_public(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        avx2!(keccak::keccak_x4x2_public(s0, s1))
    }
    fn ntt(self, a: &mut Poly) {
        avx2!(ntt::ntt(a))
    }
    fn ntt_order_from_canonical(self, a: &mut Poly) {
        avx2!(ntt::transpose_groups(a))
    }
    fn ntt_order_to_canonical(self, a: &mut Poly) {
        avx2!(ntt::transpose_groups(a))
    }
    fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        avx2!(sample::rej_uniform(out, buf))
    }
    fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        avx2!(sample::rej_eta(eta, out, buf))
    }
    fn pack_t1(self, out: &mut [u8], a: &Poly) {
        avx2!(pack::pack_fields(out, a, 10, None))
    }
    fn pack_t0(self, out: &mut [u8], a: &Poly) {
        avx2!(pack::pack_fields(out, a, 13, Some(1 << (D - 1))))
    }
    fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        avx2!(pack::pack_fields(out, a, eta.bits(), Some(eta.value())))
    }
    fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        avx2!(pack::pack_fields(out, a, g.z_bits(), Some(g.value())))
    }
    fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        avx2!(pack::pack_fields(out, a, g.w1_bits(), None))
    }
    fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        avx2!(pack::unpack_fields(a, buf, g.z_bits(), Some(g.value())))
    }
    fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        avx2!(pack::unpack_fields(a, buf, 10, None))
    }
    fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        avx2!(pack::unpack_fields(a, buf, 13, Some(1 << 12)))
    }
    fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        avx2!(pack::unpack_eta(eta, a, buf))
    }
    fn invntt_tomont(self, a: &mut Poly) {
        avx2!(ntt::invntt_tomont(a))
    }
    fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        avx2!(arith::pointwise(c, a, b))
    }
    fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        avx2!(arith::pointwise_acc(c, a, b))
    }
    fn reduce(self, a: &mut Poly) {
        avx2!(arith::reduce(a))
    }
    fn caddq(self, a: &mut Poly) {
        avx2!(arith::caddq(a))
    }
    fn add(self, a: &mut Poly, b: &Poly) {
        avx2!(arith::add(a, b))
    }
    fn sub(self, a: &mut Poly, b: &Poly) {
        avx2!(arith::sub(a, b))
    }
    fn shiftl(self, a: &mut Poly) {
        avx2!(arith::shiftl(a))
    }
    fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        avx2!(arith::power2round(t1, t0, a))
    }
    fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        avx2!(arith::decompose(g, a1, a0, a))
    }
    fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        avx2!(arith::make_hint(g, h, a0, a1))
    }
    fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        avx2!(arith::use_hint(g, out, a, h))
    }
    fn chknorm(self, a: &Poly, bound: i32) -> bool {
        avx2!(arith::chknorm(a, bound))
    }
    // Not overridden: the one-way Keccak permutation and hint packing (portable).
}
