//! The x86_64 AVX-512 backend. Its token, [`Avx512`], can only be made by
//! [`Avx512::detect`], which checks the CPU; every kernel is a `#[target_feature]` function
//! called from the safe trait methods because the token proves the features are there.
//!
//! Required subsets, in one place ([`REQUIRED`]): AVX-512 F (the 512-bit registers,
//! `vpternlogq`, `vprolq`), VL (the same instructions on 256-bit registers), BW and DQ (the
//! 8/16-bit and 64-bit forms the arithmetic kernels use), VBMI (the byte permute `vpermb`
//! that packing places bytes with; every AVX-512 CPU since Ice Lake and Zen 4 has it, the
//! Skylake-SP generation does not and uses the AVX2 backend), and AVX2 with POPCNT, because the
//! token holds an [`Avx2`] token: a kernel this backend does not accelerate is the AVX2 one,
//! so everything the AVX2 backend guarantees (its NTT order included) holds here too.
//!
//! Accelerated so far, each measured faster than its AVX2 version here (BENCHMARKS.md):
//! - Keccak (`keccak`): the 4-way permutation keeps the four states in 25 `ymm` registers
//!   (the one-way permutation is the same with one state in every lane), and the pair of
//!   4-way permutations (the samplers' eight polynomials at a time) keeps all eight in 25
//!   `zmm` registers, one permutation for what AVX2 needs two for; chi and theta's parities
//!   are one `vpternlogq` per lane, rho one `vprolq`.
//! - The NTT and its inverse (`ntt`): the AVX2 ones two iterations at a time, 16 lanes, with
//!   the same output order.
//! - The rejection samplers' loops (`sample`): sixteen candidates at a time, compacted by
//!   `vpcompressd` (RejNTTPoly's three-byte groups; RejBoundedPoly's nibbles, mapped by a
//!   register permute).
//! - The coefficient-wise arithmetic (`arith`): the Montgomery products, single and L-fold,
//!   reduce, caddq, add, sub and shiftl, the AVX2 arithmetic on 16 lanes.
//! - The rounding kernels and the norm check (`round`): Power2Round, Decompose, MakeHint,
//!   UseHint, with lane selections in mask registers.
//!
//! - Packing and unpacking (`pack`) of t1, t0, s1/s2, z (and packing of w1): sixteen fields a
//!   step, each step's bytes with one masked store or load (no padded copy for the last
//!   steps); `vpermb` places the packed bytes, `vpermd` and `vpshufb` fetch the unpacked.
//!
//! Every other kernel (the hint encoding and the NTT-order permutations) is forwarded to the AVX2
//! backend until a measured AVX-512 version beats it.
//!
//! The kernels load and store polynomials with aligned 64-byte instructions: `Poly` is
//! 64-byte aligned (`util` asserts it at compile time).
#![allow(unsafe_code)]

mod arith;
mod keccak;
mod ntt;
mod pack;
mod round;
mod sample;
mod util;

use super::{Avx2, Backend, BackendKind};
use crate::error::HintError;
use crate::params::{D, Eta, Gamma1, Gamma2};
use crate::poly::Poly;

/// The CPU features this backend needs, as `is_x86_feature_detected!` and
/// `#[target_feature]` name them (beside the AVX2 backend's, which [`Avx2::detect`] checks:
/// [`super::avx2::REQUIRED`]).
pub const REQUIRED: [&str; 5] = ["avx512f", "avx512vl", "avx512bw", "avx512dq", "avx512vbmi"];

/// Proof that this CPU has AVX-512 F, VL, BW, DQ and VBMI, and what the AVX2 backend needs.
/// Zero-sized; only
/// [`Avx512::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx512 {
    avx2: Avx2,
}

impl Avx512 {
    /// The token, if the CPU has every subset of [`REQUIRED`] and AVX2: detected at run time
    /// with `std`, or known at compile time when built with those target features.
    pub fn detect() -> Option<Avx512> {
        let avx2 = Avx2::detect()?;
        #[cfg(feature = "std")]
        let has = std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512vbmi");
        #[cfg(not(feature = "std"))]
        let has = cfg!(all(
            target_feature = "avx512f",
            target_feature = "avx512vl",
            target_feature = "avx512bw",
            target_feature = "avx512dq",
            target_feature = "avx512vbmi"
        ));
        has.then_some(Avx512 { avx2 })
    }
}

/// Calls an AVX-512 kernel from a safe method.
macro_rules! avx512 {
    ($e:expr) => {
        // SAFETY: `self` is an `Avx512` token, which exists only on CPUs with every subset
        // of `REQUIRED` and AVX2.
        unsafe { $e }
    };
}

/// Forwards kernels this backend does not accelerate to the AVX2 backend.
macro_rules! forward_to_avx2 {
    ($(fn $name:ident(self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)?;)*) => {
        $(
            #[inline]
            fn $name(self $(, $arg: $ty)*) $(-> $ret)? {
                self.avx2.$name($($arg),*)
            }
        )*
    };
}

impl Backend for Avx512 {
    const KIND: BackendKind = BackendKind::Avx512;
    const PREFERS_X4: bool = true;
    const PREFERS_X8: bool = true;

    /// Runs `f` inside a function compiled with AVX2 and the AVX-512 subsets enabled, so
    /// that what the compiler inlines into it is compiled for them too.
    #[inline]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
        fn with_avx512<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        avx512!(with_avx512(f))
    }

    fn keccak_f1600(self, state: &mut [u64; 25]) {
        avx512!(keccak::keccak_x1(state))
    }
    fn keccak_f1600_x4(self, states: &mut [u64; 100]) {
        avx512!(keccak::keccak_x4(states))
    }
    fn keccak_f1600_x4x2(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        avx512!(keccak::keccak_x8(s0, s1))
    }
    fn keccak_f1600_public(self, state: &mut [u64; 25]) {
        avx512!(keccak::keccak_x1_public(state))
    }
    fn keccak_f1600_x4_public(self, states: &mut [u64; 100]) {
        avx512!(keccak::keccak_x4_public(states))
    }
    fn keccak_f1600_x4x2_public(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        avx512!(keccak::keccak_x8_public(s0, s1))
    }

    fn ntt(self, a: &mut Poly) {
        avx512!(ntt::ntt(a))
    }
    fn invntt_tomont(self, a: &mut Poly) {
        avx512!(ntt::invntt_tomont(a))
    }

    fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        avx512!(arith::pointwise(c, a, b))
    }
    fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        avx512!(arith::pointwise_acc(c, a, b))
    }
    fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        avx512!(sample::rej_uniform(self.avx2, out, buf))
    }
    fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        avx512!(sample::rej_eta(eta, out, buf))
    }

    fn reduce(self, a: &mut Poly) {
        avx512!(arith::reduce(a))
    }
    fn caddq(self, a: &mut Poly) {
        avx512!(arith::caddq(a))
    }
    fn add(self, a: &mut Poly, b: &Poly) {
        avx512!(arith::add(a, b))
    }
    fn sub(self, a: &mut Poly, b: &Poly) {
        avx512!(arith::sub(a, b))
    }
    fn shiftl(self, a: &mut Poly) {
        avx512!(arith::shiftl(a))
    }
    fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        avx512!(round::power2round(t1, t0, a))
    }
    fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        avx512!(round::decompose(g, a1, a0, a))
    }
    fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        avx512!(round::make_hint(g, h, a0, a1))
    }
    fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        avx512!(round::use_hint(g, out, a, h))
    }
    fn chknorm(self, a: &Poly, bound: i32) -> bool {
        avx512!(round::chknorm(a, bound))
    }
    fn pack_t1(self, out: &mut [u8], a: &Poly) {
        avx512!(pack::pack_fields(out, a, 10, None))
    }
    fn pack_t0(self, out: &mut [u8], a: &Poly) {
        avx512!(pack::pack_fields(out, a, 13, Some(1 << (D - 1))))
    }
    fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        avx512!(pack::pack_fields(out, a, eta.bits(), Some(eta.value())))
    }
    fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        avx512!(pack::pack_fields(out, a, g.z_bits(), Some(g.value())))
    }
    fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        avx512!(pack::pack_fields(out, a, g.w1_bits(), None))
    }
    fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        avx512!(pack::unpack_fields(a, buf, g.z_bits(), Some(g.value())))
    }
    fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        avx512!(pack::unpack_fields(a, buf, 10, None))
    }
    fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        avx512!(pack::unpack_fields(a, buf, 13, Some(1 << 12)))
    }
    fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        avx512!(pack::unpack_eta(eta, a, buf))
    }

    forward_to_avx2! {
        fn ntt_order_from_canonical(self, a: &mut Poly);
        fn ntt_order_to_canonical(self, a: &mut Poly);
        fn pack_hint(self, out: &mut [u8], h: &[Poly], omega: usize);
        fn unpack_hint(self, h: &mut [Poly], buf: &[u8], omega: usize) -> Result<(), HintError>;
    }
}
