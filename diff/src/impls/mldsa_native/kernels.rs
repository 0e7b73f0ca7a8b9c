//! mldsa-native's native-backend kernels (x86_64 AVX2, AArch64), through its backend
//! interface (`src/native/api.h`) and the shim of ours that exports it
//! (csrc/mldsa_native_shim.h: each returns the kernel's result, 0 done, -1 fallback, else a
//! count or a verdict). How its contracts differ from the checks' is stated once, in
//! [`super::CONTRACT_DIFFERENCES`]; each difference is applied here and nowhere else. Every
//! input is checked against the kernel's own `api.h` contract before the call (an input
//! outside it is not offered, so no garbage is blamed on mldsa-native), and a kernel
//! answering -1 (fallback) does not answer the input. Every function takes the
//! [`NativeKernels`] token: the shim is compiled for AVX2 on x86_64.
#![allow(unsafe_code)]

use super::NativeKernels;
use crate::model::canonical;
use crate::oracle::{Got, Miss, offered};
use core::ffi::c_int;
use mldsa::backend::contract::{self, Bounds};
use mldsa::params::{Eta, Gamma1, Gamma2, Q};
use mldsa::poly::Poly;

unsafe extern "C" {
    fn mldsadiff_nat_shim_ntt(p: *mut Poly) -> c_int;
    fn mldsadiff_nat_shim_intt(p: *mut Poly) -> c_int;
    fn mldsadiff_nat_shim_caddq(p: *mut Poly) -> c_int;
    /// 1 if applied, 0 if the backend's order is bit-reversed.
    fn mldsadiff_nat_shim_permute_bitrev_to_custom(p: *mut Poly) -> c_int;
    fn mldsadiff_nat_shim_pointwise(a: *mut Poly, b: *const Poly) -> c_int;
    fn mldsadiff_nat_shim_use_hint_32(a: *mut Poly, h: *const Poly) -> c_int;
    fn mldsadiff_nat_shim_use_hint_88(a: *mut Poly, h: *const Poly) -> c_int;
    fn mldsadiff_nat_shim_decompose_32(a1: *mut Poly, a0: *mut Poly) -> c_int;
    fn mldsadiff_nat_shim_decompose_88(a1: *mut Poly, a0: *mut Poly) -> c_int;
    fn mldsadiff_nat_shim_acc_l4(w: *mut Poly, u: *const Poly, v: *const Poly) -> c_int;
    fn mldsadiff_nat_shim_acc_l5(w: *mut Poly, u: *const Poly, v: *const Poly) -> c_int;
    fn mldsadiff_nat_shim_acc_l7(w: *mut Poly, u: *const Poly, v: *const Poly) -> c_int;
    fn mldsadiff_nat_shim_rej_uniform(r: *mut i32, len: u32, buf: *const u8, n: u32) -> c_int;
    fn mldsadiff_nat_shim_rej_eta2(r: *mut i32, len: u32, buf: *const u8, n: u32) -> c_int;
    fn mldsadiff_nat_shim_rej_eta4(r: *mut i32, len: u32, buf: *const u8, n: u32) -> c_int;
    /// 1 if some |a_i| >= bound, 0 if not.
    fn mldsadiff_nat_shim_chknorm(p: *const Poly, bound: i32) -> c_int;
    fn mldsadiff_nat_shim_z_unpack_17(r: *mut Poly, buf: *const u8) -> c_int;
    fn mldsadiff_nat_shim_z_unpack_19(r: *mut Poly, buf: *const u8) -> c_int;
}

type InPlace = unsafe extern "C" fn(*mut Poly) -> c_int;
type TwoPolys = unsafe extern "C" fn(*mut Poly, *const Poly) -> c_int;

/// Runs a kernel on one polynomial in place.
fn in_place(_: NativeKernels, f: InPlace, a: &mut Poly) -> c_int {
    // SAFETY: `a` is one polynomial (256 i32s), copied into an aligned one by the shim; the
    // token says this CPU runs the native build.
    unsafe { f(a) }
}

/// Runs a kernel on `a` in place, reading `b`.
fn two(_: NativeKernels, f: TwoPolys, a: &mut Poly, b: &Poly) -> c_int {
    // SAFETY: two polynomials; the token as for `in_place`.
    unsafe { f(a, b) }
}

/// Done (0) or not offered (-1, fallback).
fn done(r: i32) -> Got<()> {
    offered((r == 0).then_some(()))
}

/// |a| < q: the NTT, inverse NTT and caddq inputs of `api.h`.
const ABS_Q: Bounds = Bounds::centered(Q - 1);
/// |a| < MLD_NTT_BOUND = 9 * (5q + 3) / 4: the pointwise products' inputs.
const NTT_BOUND: Bounds = Bounds::centered(94_279_697);
/// [0, q): decompose and use_hint.
const CANONICAL: Bounds = Bounds::new(0, Q - 1);
/// chknorm's input: [-6283009, 6283009).
const CHKNORM_IN: Bounds = Bounds::new(-6_283_009, 6_283_008);

/// Whether every coefficient of `polys` lies in `b` (the kernel's contract).
fn within(polys: &[Poly], b: Bounds) -> Got<()> {
    offered(polys.iter().all(|p| b.holds(&p.coeffs)).then_some(()))
}

/// ntt, invntt_tomont and caddq: `op` on a copy of `a`, within |a| < q.
fn unary(mut a: Poly, op: impl FnOnce(&mut Poly) -> Got<()>) -> Got<Poly> {
    within(&[a], ABS_Q)?;
    op(&mut a)?;
    Ok(a)
}

/// NTT, out in canonical (bit-reversed) order through mldsa-native's own permutation where
/// its backend keeps another.
pub(super) fn ntt(k: NativeKernels, a: Poly) -> Got<Poly> {
    unary(a, |a| {
        done(in_place(k, mldsadiff_nat_shim_ntt, a))?;
        in_place(k, mldsadiff_nat_shim_permute_bitrev_to_custom, a);
        Ok(())
    })
}

pub(super) fn invntt_tomont(k: NativeKernels, a: Poly) -> Got<Poly> {
    unary(a, |a| {
        in_place(k, mldsadiff_nat_shim_permute_bitrev_to_custom, a);
        done(in_place(k, mldsadiff_nat_shim_intt, a))
    })
}

pub(super) fn caddq(k: NativeKernels, a: Poly) -> Got<Poly> {
    unary(a, |a| done(in_place(k, mldsadiff_nat_shim_caddq, a)))
}

pub(super) fn pointwise(k: NativeKernels, a: &Poly, b: &Poly) -> Got<Poly> {
    within(&[*a, *b], NTT_BOUND)?;
    let mut a = *a;
    done(two(k, mldsadiff_nat_shim_pointwise, &mut a, b))?;
    Ok(a)
}

/// Its contract takes u in [0, q): u mod q is congruent, and outputs compare mod q.
pub(super) fn pointwise_acc(_: NativeKernels, u: &[Poly], v: &[Poly]) -> Got<Poly> {
    within(v, NTT_BOUND)?;
    let u: Vec<Poly> = u
        .iter()
        .map(|x| Poly::from_coeffs(x.coeffs.map(canonical)))
        .collect();
    let f = match u.len() {
        4 => mldsadiff_nat_shim_acc_l4,
        5 => mldsadiff_nat_shim_acc_l5,
        7 => mldsadiff_nat_shim_acc_l7,
        _ => return Err(Miss::NotOffered),
    };
    if v.len() != u.len() {
        return Err(Miss::NotOffered);
    }
    let mut w = Poly::ZERO;
    // SAFETY: u and v are l contiguous polynomials each, the l the kernel reads; the token
    // as for `in_place`.
    done(unsafe { f(&mut w, u.as_ptr(), v.as_ptr()) })?;
    Ok(w)
}

pub(super) fn decompose(_: NativeKernels, g: Gamma2, a: &Poly) -> Got<(Poly, Poly)> {
    within(&[*a], CANONICAL)?;
    let f = if g == Gamma2::QMinus1Over32 {
        mldsadiff_nat_shim_decompose_32
    } else {
        mldsadiff_nat_shim_decompose_88
    };
    let (mut a1, mut a0) = (Poly::ZERO, *a);
    // SAFETY: two distinct polynomials, (a1, a0) := decompose(a0); the token as for
    // `in_place`.
    done(unsafe { f(&mut a1, &mut a0) })?;
    Ok((a1, a0))
}

pub(super) fn use_hint(k: NativeKernels, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly> {
    within(&[*a], CANONICAL)?;
    within(&[*h], contract::HINT_BITS)?;
    let f = if g == Gamma2::QMinus1Over32 {
        mldsadiff_nat_shim_use_hint_32
    } else {
        mldsadiff_nat_shim_use_hint_88
    };
    let mut a = *a;
    done(two(k, f, &mut a, h))?;
    Ok(a)
}

/// chknorm: a within [-6283009, 6283009) and, as `api.h` requires, 0 <= bound <= (q-1)/8.
pub(super) fn chknorm(_: NativeKernels, a: &Poly, bound: i32) -> Got<bool> {
    within(&[*a], CHKNORM_IN)?;
    if !(0..=(Q - 1) / 8).contains(&bound) {
        return Err(Miss::NotOffered);
    }
    // SAFETY: one polynomial; the token as for `in_place`.
    match unsafe { mldsadiff_nat_shim_chknorm(a, bound) } {
        r if r >= 0 => Ok(r != 0),
        _ => Err(Miss::NotOffered),
    }
}

/// rej_uniform (`eta` None) or rej_eta: only whole buffers are sampled (-1 for others).
pub(super) fn rej(_: NativeKernels, eta: Option<Eta>, buf: &[u8]) -> Got<Vec<i32>> {
    let f = match eta {
        Some(Eta::Two) => mldsadiff_nat_shim_rej_eta2,
        Some(Eta::Four) => mldsadiff_nat_shim_rej_eta4,
        None => mldsadiff_nat_shim_rej_uniform,
    };
    let len = u32::try_from(buf.len()).map_err(|_| Miss::NotOffered)?;
    let mut out = [0i32; 256];
    // SAFETY: out holds 256 values (the kernels store whole vectors, never more than 256
    // values); buf is read within its length; the token as for `in_place`.
    let r = unsafe { f(out.as_mut_ptr(), 256, buf.as_ptr(), len) };
    let n = usize::try_from(r).map_err(|_| Miss::NotOffered)?;
    Ok(out[..n.min(256)].to_vec())
}

pub(super) fn unpack_z(_: NativeKernels, g: Gamma1, buf: &[u8]) -> Got<Poly> {
    if buf.len() != g.poly_z_bytes() {
        return Err(Miss::NotOffered);
    }
    let f = if g == Gamma1::Pow19 {
        mldsadiff_nat_shim_z_unpack_19
    } else {
        mldsadiff_nat_shim_z_unpack_17
    };
    let mut a = Poly::ZERO;
    // SAFETY: buf has the length the kernel reads (checked above); the token as for
    // `in_place`.
    done(unsafe { f(&mut a, buf.as_ptr()) })?;
    Ok(a)
}
