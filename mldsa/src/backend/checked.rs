//! [`Checked`], the only way scheme code calls a kernel: it checks the kernel's contract
//! ([`contract`]) on its inputs and outputs with `debug_assert!`, then calls the backend.

use super::contract;
use super::traits::Backend;
use crate::error::HintError;
use crate::params::{Eta, Gamma1, Gamma2, N};
use crate::poly::Poly;

/// The way scheme code calls kernels: checks each kernel's contract on its inputs and
/// outputs with `debug_assert!`, then calls the backend.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checked<B>(pub(crate) B);

macro_rules! check {
    ($c:expr, $name:literal, $($p:expr),+) => {
        $( debug_assert!($c.holds(&$p.coeffs), "kernel {} contract violated: {:?} not within {:?}", $name, contract::first_violation($c, &$p.coeffs), $c); )+
    };
}

impl<B: Backend> Checked<B> {
    pub(crate) fn ntt(self, a: &mut Poly) {
        check!(contract::NTT.input[0], "ntt", a);
        self.0.ntt(a);
        check!(contract::NTT.output[0], "ntt", a);
    }
    pub(crate) fn invntt_tomont(self, a: &mut Poly) {
        check!(contract::INVNTT_TOMONT.input[0], "invntt_tomont", a);
        self.0.invntt_tomont(a);
        check!(contract::INVNTT_TOMONT.output[0], "invntt_tomont", a);
    }
    pub(crate) fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        check!(contract::POINTWISE.input[0], "pointwise_montgomery", a, b);
        self.0.pointwise_montgomery(c, a, b);
        check!(contract::POINTWISE.output[0], "pointwise_montgomery", c);
    }
    pub(crate) fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        debug_assert!(
            a.len() == b.len() && (1..=7).contains(&a.len()),
            "kernel contract violated"
        );
        for (x, y) in a.iter().zip(b) {
            check!(
                contract::POINTWISE_ACC.input[0],
                "pointwise_acc_montgomery",
                x,
                y
            );
        }
        self.0.pointwise_acc_montgomery(c, a, b);
        check!(
            contract::POINTWISE_ACC.output[0],
            "pointwise_acc_montgomery",
            c
        );
    }
    pub(crate) fn reduce(self, a: &mut Poly) {
        check!(contract::REDUCE.input[0], "reduce", a);
        self.0.reduce(a);
        check!(contract::REDUCE.output[0], "reduce", a);
    }
    pub(crate) fn caddq(self, a: &mut Poly) {
        check!(contract::CADDQ.input[0], "caddq", a);
        self.0.caddq(a);
        check!(contract::CADDQ.output[0], "caddq", a);
    }
    pub(crate) fn add(self, a: &mut Poly, b: &Poly) {
        check!(contract::ADD.input[0], "add", a, b);
        self.0.add(a, b);
    }
    pub(crate) fn sub(self, a: &mut Poly, b: &Poly) {
        check!(contract::SUB.input[0], "sub", a, b);
        self.0.sub(a, b);
    }
    pub(crate) fn shiftl(self, a: &mut Poly) {
        check!(contract::SHIFTL.input[0], "shiftl", a);
        self.0.shiftl(a);
        check!(contract::SHIFTL.output[0], "shiftl", a);
    }
    pub(crate) fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        check!(contract::POWER2ROUND.input[0], "power2round", a);
        self.0.power2round(t1, t0, a);
        check!(contract::POWER2ROUND.output[0], "power2round", t1);
        check!(contract::POWER2ROUND.output[1], "power2round", t0);
    }
    pub(crate) fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        let c = contract::decompose(g);
        check!(c.input[0], "decompose", a);
        self.0.decompose(g, a1, a0, a);
        check!(c.output[0], "decompose", a1);
        check!(c.output[1], "decompose", a0);
    }
    pub(crate) fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        let c = contract::make_hint(g);
        check!(c.input[0], "make_hint", a0);
        check!(c.input[1], "make_hint", a1);
        let n = self.0.make_hint(g, h, a0, a1);
        check!(c.output[0], "make_hint", h);
        debug_assert_eq!(
            n,
            h.coeffs.iter().filter(|&&x| x != 0).count(),
            "kernel contract violated"
        );
        n
    }
    pub(crate) fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        let c = contract::use_hint(g);
        check!(c.input[0], "use_hint", a);
        check!(c.input[1], "use_hint", h);
        self.0.use_hint(g, out, a, h);
        check!(c.output[0], "use_hint", out);
    }
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "the contract's constant bound (q - 1) / 8, in a debug assertion"
    )]
    pub(crate) fn chknorm(self, a: &Poly, bound: i32) -> bool {
        check!(contract::CHKNORM.input[0], "chknorm", a);
        debug_assert!(
            (0..=(crate::params::Q - 1) / 8).contains(&bound),
            "kernel contract violated"
        );
        self.0.chknorm(a, bound)
    }
    pub(crate) fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        debug_assert!(
            out.len() <= N && buf.len().is_multiple_of(3),
            "kernel contract violated"
        );
        let n = self.0.rej_uniform(out, buf);
        debug_assert!(
            n <= out.len() && contract::REJ_UNIFORM.output[0].holds(&out[..n]),
            "kernel contract violated"
        );
        n
    }
    pub(crate) fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        debug_assert!(out.len() <= N, "kernel contract violated");
        let n = self.0.rej_eta(eta, out, buf);
        debug_assert!(
            n <= out.len() && contract::rej_eta(eta).output[0].holds(&out[..n]),
            "kernel contract violated"
        );
        n
    }
    pub(crate) fn pack_t1(self, out: &mut [u8], a: &Poly) {
        check!(contract::PACK_T1.input[0], "pack_t1", a);
        self.0.pack_t1(out, a);
    }
    pub(crate) fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_t1(a, buf);
        check!(contract::UNPACK_T1.output[0], "unpack_t1", a);
    }
    pub(crate) fn pack_t0(self, out: &mut [u8], a: &Poly) {
        check!(contract::PACK_T0.input[0], "pack_t0", a);
        self.0.pack_t0(out, a);
    }
    pub(crate) fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_t0(a, buf);
        check!(contract::UNPACK_T0.output[0], "unpack_t0", a);
    }
    pub(crate) fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        check!(contract::pack_eta(eta).input[0], "pack_eta", a);
        self.0.pack_eta(eta, out, a);
    }
    pub(crate) fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        let ok = self.0.unpack_eta(eta, a, buf);
        debug_assert_eq!(
            ok,
            contract::pack_eta(eta).input[0].holds(&a.coeffs),
            "kernel contract violated"
        );
        ok
    }
    pub(crate) fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        check!(contract::pack_z(g).input[0], "pack_z", a);
        self.0.pack_z(g, out, a);
    }
    pub(crate) fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_z(g, a, buf);
        check!(contract::pack_z(g).input[0], "unpack_z", a);
    }
    pub(crate) fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        check!(contract::pack_w1(g).input[0], "pack_w1", a);
        self.0.pack_w1(g, out, a);
    }
    pub(crate) fn pack_hint(self, out: &mut [u8], h: &[Poly], omega: usize) {
        debug_assert!(
            h.iter().all(|p| contract::HINT_BITS.holds(&p.coeffs)),
            "kernel contract violated"
        );
        debug_assert!(
            h.iter()
                .map(|p| p.coeffs.iter().filter(|&&x| x != 0).count())
                .sum::<usize>()
                <= omega,
            "kernel contract violated"
        );
        self.0.pack_hint(out, h, omega);
    }
    pub(crate) fn unpack_hint(
        self,
        h: &mut [Poly],
        buf: &[u8],
        omega: usize,
    ) -> Result<(), HintError> {
        self.0.unpack_hint(h, buf, omega)
    }
    pub(crate) fn keccak_f1600(self, s: &mut [u64; 25]) {
        self.0.keccak_f1600(s);
    }
    pub(crate) fn keccak_f1600_x4(self, s: &mut [u64; 100]) {
        self.0.keccak_f1600_x4(s);
    }
    pub(crate) fn keccak_f1600_x4x2(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.0.keccak_f1600_x4x2(s0, s1);
    }
    pub(crate) fn keccak_f1600_public(self, s: &mut [u64; 25]) {
        self.0.keccak_f1600_public(s);
    }
    pub(crate) fn keccak_f1600_x4_public(self, s: &mut [u64; 100]) {
        self.0.keccak_f1600_x4_public(s);
    }
    pub(crate) fn keccak_f1600_x4x2_public(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.0.keccak_f1600_x4x2_public(s0, s1);
    }
}
