//! The aarch64 Neon backend. Its token, [`Neon`], can only be made by [`Neon::detect`];
//! every kernel is a `#[target_feature(enable = "neon")]` function, called from the safe
//! trait methods because the token proves the feature is there. Neon (Advanced SIMD) is
//! mandatory in the aarch64 targets Rust supports, so detection is a compile-time check.
//!
//! NTT-domain polynomials stay in the canonical (FIPS 204 bit-reversed) order: the NTT and
//! its inverse are bit-identical to the portable ones (see [`ntt`]). So is every other
//! kernel except the L-fold product, which sums 64-bit products and reduces once (its
//! contract compares mod q).
//!
//! Keccak: the 4-way permutation as two 2-way ones, with the Armv8.2 SHA3 instructions when
//! the CPU has them (run-time detection; [`NeonSha3`] is the proof) and plain Neon otherwise;
//! the one-way permutation and hint packing are the portable ones. `rej_eta` uses no
//! secret-indexed table (it samples s1 and s2): its compaction is computed; `rej_uniform`'s
//! compaction table is indexed by which candidates of the public matrix A were accepted.
//!
//! This file only holds the token and the `Backend` impl, which forwards to the kernels in
//! the submodules.
#![allow(unsafe_code)]

mod arith;
mod keccak;
mod ntt;
mod pack;
mod sample;

use super::{Backend, BackendKind};
use crate::params::{Eta, Gamma1, Gamma2};
use crate::poly::Poly;

/// Calls a Neon kernel from a safe method.
macro_rules! neon {
    ($e:expr) => {
        // SAFETY: `self` is a `Neon` token, which exists only if the target has Neon.
        unsafe { $e }
    };
}

/// Proof that this CPU has Neon. Zero-sized; only [`Neon::detect`] makes one (and
/// [`Neon::plain`] from it). `SHA3`: whether the 4-way Keccak takes the SHA3 path when the
/// CPU has the instructions ([`Neon`], the backend) or always the plain Neon path
/// ([`NeonPlain`], which the differential harness compares as a second implementation on
/// CPUs with SHA3, so both paths are checked on one machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeonToken<const SHA3: bool> {
    _private: (),
}

/// The Neon backend.
pub type Neon = NeonToken<true>;
/// The Neon backend with the plain Neon Keccak path whatever the CPU has.
pub type NeonPlain = NeonToken<false>;

impl Neon {
    /// The same kernels with the plain Neon Keccak path.
    pub fn plain(self) -> NeonPlain {
        NeonToken { _private: () }
    }

    /// The token, if the target has Neon (Advanced SIMD): every aarch64 target Rust supports
    /// enables it, so this is known at compile time.
    pub fn detect() -> Option<Neon> {
        cfg!(target_feature = "neon").then_some(NeonToken { _private: () })
    }

    /// The SHA3-instructions token, if this CPU has them (FEAT_SHA3, Armv8.2): detected at
    /// run time with `std`, known at compile time (`-C target-feature=+sha3`) without.
    pub fn sha3(self) -> Option<NeonSha3> {
        #[cfg(feature = "std")]
        let has = std::arch::is_aarch64_feature_detected!("sha3");
        #[cfg(not(feature = "std"))]
        let has = cfg!(target_feature = "sha3");
        has.then_some(NeonSha3 { _private: () })
    }

    /// The 4-way Keccak permutation on the plain Neon path, whatever the CPU has (the
    /// backend itself takes the SHA3 path when it can); for tests and benchmarks.
    pub fn keccak_f1600_x4_plain(self, states: &mut [u64; 100]) {
        neon!(keccak::keccak_x4_neon(states))
    }

    /// [`Neon::keccak_f1600_x4_plain`] of states that hold no secret: no frame wipe.
    pub fn keccak_f1600_x4_plain_public(self, states: &mut [u64; 100]) {
        neon!(keccak::keccak_x4_neon_public(states))
    }
}

/// Proof that this CPU has Neon and the Armv8.2 SHA3 instructions (`eor3`, `rax1`, `xar`,
/// `bcax`). Zero-sized; only [`Neon::sha3`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NeonSha3 {
    _private: (),
}

impl NeonSha3 {
    /// The 4-way Keccak permutation with the SHA3 instructions.
    pub fn keccak_f1600_x4(self, states: &mut [u64; 100]) {
        // SAFETY: `self` is a `NeonSha3` token, which exists only if the CPU has Neon and SHA3.
        unsafe { keccak::keccak_x4_sha3(states) }
    }

    /// [`NeonSha3::keccak_f1600_x4`] of states that hold no secret: no frame wipe.
    pub fn keccak_f1600_x4_public(self, states: &mut [u64; 100]) {
        // SAFETY: as above.
        unsafe { keccak::keccak_x4_sha3_public(states) }
    }
}

impl<const SHA3: bool> Backend for NeonToken<SHA3> {
    const KIND: BackendKind = BackendKind::Neon;
    /// A 4-way call is two 2-way Neon permutations. With the SHA3 instructions (Apple M,
    /// Neoverse N2/V1/V2, Cortex-A710 and later) a 2-way permutation is about 66 vector
    /// instructions a round against about 100 scalar ones for one state, so a padded 4-way
    /// call beats two single ones. Without them (Cortex-A72/A76) a round is about 160 vector
    /// instructions for two states and the call is about even with two scalar permutations;
    /// the constant cannot depend on run-time detection, so it follows the SHA3 cores.
    const PREFERS_X4: bool = true;
    /// The 8-way call is two 4-way calls one after the other (a 2-way state fills the
    /// register file, so interleaving two would spill): no cheaper than two 4-way calls.
    const PREFERS_X8: bool = false;

    /// Runs `f` inside a function compiled with Neon enabled, so that what the compiler
    /// inlines into it (the scheme code around the kernels) is compiled for Neon too.
    #[inline]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        #[target_feature(enable = "neon")]
        fn with_neon<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        neon!(with_neon(f))
    }

    fn keccak_f1600_x4(self, states: &mut [u64; 100]) {
        let neon: Neon = NeonToken { _private: () };
        match neon.sha3().filter(|_| SHA3) {
            Some(sha3) => sha3.keccak_f1600_x4(states),
            None => neon.keccak_f1600_x4_plain(states),
        }
    }
    /// The same permutations as [`Backend::keccak_f1600_x4`] without the frame wipe, for
    /// states that hold no secret (the trait's default would wipe).
    fn keccak_f1600_x4_public(self, states: &mut [u64; 100]) {
        let neon: Neon = NeonToken { _private: () };
        match neon.sha3().filter(|_| SHA3) {
            Some(sha3) => sha3.keccak_f1600_x4_public(states),
            None => neon.keccak_f1600_x4_plain_public(states),
        }
    }
    /// Two public 4-way calls (the default would take the wiping pair).
    fn keccak_f1600_x4x2_public(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.keccak_f1600_x4_public(s0);
        self.keccak_f1600_x4_public(s1);
    }
    fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        neon!(sample::rej_uniform(out, buf))
    }
    fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        neon!(sample::rej_eta(eta, out, buf))
    }
    fn pack_t1(self, out: &mut [u8], a: &Poly) {
        neon!(pack::pack_fields(out, a, 10, None))
    }
    fn pack_t0(self, out: &mut [u8], a: &Poly) {
        neon!(pack::pack_fields(out, a, 13, Some(1 << 12)))
    }
    fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        neon!(pack::pack_fields(out, a, eta.bits(), Some(eta.value())))
    }
    fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        neon!(pack::pack_fields(out, a, g.z_bits(), Some(g.value())))
    }
    fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        neon!(pack::pack_fields(out, a, g.w1_bits(), None))
    }
    fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        neon!(pack::unpack_fields(a, buf, g.z_bits(), Some(g.value())))
    }
    fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        neon!(pack::unpack_fields(a, buf, 10, None))
    }
    fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        neon!(pack::unpack_fields(a, buf, 13, Some(1 << 12)))
    }
    fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        neon!(pack::unpack_eta(eta, a, buf))
    }
    fn ntt(self, a: &mut Poly) {
        neon!(ntt::ntt(a))
    }
    fn invntt_tomont(self, a: &mut Poly) {
        neon!(ntt::invntt_tomont(a))
    }
    fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        neon!(arith::pointwise(c, a, b))
    }
    fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        neon!(arith::pointwise_acc(c, a, b))
    }
    fn reduce(self, a: &mut Poly) {
        neon!(arith::reduce(a))
    }
    fn caddq(self, a: &mut Poly) {
        neon!(arith::caddq(a))
    }
    fn add(self, a: &mut Poly, b: &Poly) {
        neon!(arith::add(a, b))
    }
    fn sub(self, a: &mut Poly, b: &Poly) {
        neon!(arith::sub(a, b))
    }
    fn shiftl(self, a: &mut Poly) {
        neon!(arith::shiftl(a))
    }
    fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        neon!(arith::power2round(t1, t0, a))
    }
    fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        neon!(arith::decompose(g, a1, a0, a))
    }
    fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        neon!(arith::make_hint(g, h, a0, a1))
    }
    fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        neon!(arith::use_hint(g, out, a, h))
    }
    fn chknorm(self, a: &Poly, bound: i32) -> bool {
        neon!(arith::chknorm(a, bound))
    }
}
