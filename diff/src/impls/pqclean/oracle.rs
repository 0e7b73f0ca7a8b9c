//! A PQClean variant as an [`Oracle`]. Its differences from the checks' contracts live here
//! and nowhere else: AVX2 keeps NTT-domain values in its own order (permuted to and from the
//! canonical one); `polyeta_unpack` has no range check (only in-range encodings are
//! offered); the AVX2 rejection kernels take whole buffers only (840 bytes for rej_uniform,
//! 136 / 272 for rej_eta); its single Keccak permutation is lane 0 of the 4-way one (AVX2
//! only); the whole scheme is pure ML-DSA only, with its randomness scripted from xi / rnd.

use super::{CImpl, Variant};
use crate::model::Provenance;
use crate::oracle::{Fault, Got, KeyPair, Miss, Msg, Oracle, Signed, Verified, offered};
use mldsa::Params;
use mldsa::params::{Eta, Gamma1, Gamma2};
use mldsa::poly::Poly;

/// Every variant's name, whether or not this machine has it.
pub fn names() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

/// Every PQClean variant this build and CPU run.
pub fn oracles() -> Vec<Box<dyn Oracle>> {
    Variant::ALL
        .into_iter()
        .filter_map(CImpl::new)
        .map(|c| Box::new(c) as Box<dyn Oracle>)
        .collect()
}

/// The table of set `p`, if `p`'s parameter (gamma2, eta, gamma1) is `x`: each C build has
/// its set's parameters compiled in, so it answers for no other value.
fn same<T: PartialEq>(x: T, of_p: T) -> Got<()> {
    if x == of_p {
        Ok(())
    } else {
        Err(Miss::NotOffered)
    }
}

fn scripted<T>(bytes: &[u8], f: impl FnOnce() -> T) -> Got<T> {
    crate::rng::with_script(bytes, f).map_err(|e| Miss::Fault(Fault::Script(format!("{e:?}"))))
}

fn nonce(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[b.len() - 2], b[b.len() - 1]])
}

impl CImpl {
    fn in_place(
        &self,
        mut a: Poly,
        f: impl FnOnce(&super::CKernels, &mut Poly) -> Option<()>,
        p: &Params,
    ) -> Got<Poly> {
        offered(f(self.table(p), &mut a))?;
        Ok(a)
    }
}

impl Oracle for CImpl {
    fn name(&self) -> &'static str {
        self.variant().name()
    }
    fn origin(&self) -> Provenance {
        Provenance::PqClean
    }
    fn ntt(&self, p: &Params, a: Poly) -> Got<Poly> {
        let a = self.in_place(a, |t, a| t.ntt(a), p)?;
        Ok(self.to_canonical(&a))
    }
    fn invntt_tomont(&self, p: &Params, a: Poly) -> Got<Poly> {
        self.in_place(self.to_own_order(&a), |t, a| t.invntt_tomont(a), p)
    }
    // Coefficient-wise: no reordering needed.
    fn pointwise_montgomery(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly> {
        offered(self.table(p).pointwise(a, b))
    }
    fn pointwise_acc_montgomery(&self, p: &Params, u: &[Poly], v: &[Poly]) -> Got<Poly> {
        offered(self.table(p).pointwise_acc(u, v))
    }
    fn reduce(&self, p: &Params, a: Poly) -> Got<Poly> {
        self.in_place(a, |t, a| t.reduce(a), p)
    }
    fn caddq(&self, p: &Params, a: Poly) -> Got<Poly> {
        self.in_place(a, |t, a| t.caddq(a), p)
    }
    fn add(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly> {
        offered(self.table(p).add(a, b))
    }
    fn sub(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly> {
        offered(self.table(p).sub(a, b))
    }
    fn shiftl(&self, p: &Params, a: Poly) -> Got<Poly> {
        self.in_place(a, |t, a| t.shiftl(a), p)
    }
    fn power2round(&self, p: &Params, a: &Poly) -> Got<(Poly, Poly)> {
        offered(self.table(p).power2round(a))
    }
    fn decompose(&self, p: &Params, g: Gamma2, a: &Poly) -> Got<(Poly, Poly)> {
        same(g, p.gamma2)?;
        offered(self.table(p).decompose(a))
    }
    fn make_hint(&self, p: &Params, g: Gamma2, a0: &Poly, a1: &Poly) -> Got<(Poly, usize)> {
        same(g, p.gamma2)?;
        let (h, n) = offered(self.table(p).make_hint(a0, a1))?;
        Ok((h, n as usize))
    }
    fn use_hint(&self, p: &Params, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly> {
        same(g, p.gamma2)?;
        offered(self.table(p).use_hint(a, h))
    }
    fn chknorm(&self, p: &Params, a: &Poly, bound: i32) -> Got<bool> {
        offered(self.table(p).chknorm(a, bound))
    }
    fn rej_uniform(&self, p: &Params, buf: &[u8]) -> Got<Vec<i32>> {
        offered(self.table(p).rej_uniform_avx(buf))
    }
    fn rej_eta(&self, p: &Params, e: Eta, buf: &[u8]) -> Got<Vec<i32>> {
        same(e, p.eta)?;
        let t = self.table(p);
        if !t.is_avx2() || buf.len() != t.avx2_rej_eta_buflen() {
            return Err(Miss::NotOffered);
        }
        offered(t.rej_eta_avx(buf))
    }
    fn pack_t1(&self, p: &Params, a: &Poly) -> Got<Vec<u8>> {
        offered(self.table(p).pack_t1(a))
    }
    fn unpack_t1(&self, p: &Params, buf: &[u8]) -> Got<Poly> {
        offered(self.table(p).unpack_t1(buf))
    }
    fn pack_t0(&self, p: &Params, a: &Poly) -> Got<Vec<u8>> {
        offered(self.table(p).pack_t0(a))
    }
    fn unpack_t0(&self, p: &Params, buf: &[u8]) -> Got<Poly> {
        offered(self.table(p).unpack_t0(buf))
    }
    fn pack_eta(&self, p: &Params, e: Eta, a: &Poly) -> Got<Vec<u8>> {
        same(e, p.eta)?;
        offered(self.table(p).pack_eta(a))
    }
    // polyeta_unpack does no range check: only in-range encodings are comparable.
    fn unpack_eta(&self, p: &Params, e: Eta, buf: &[u8]) -> Got<(Poly, bool)> {
        same(e, p.eta)?;
        let a = offered(self.table(p).unpack_eta(buf))?;
        if !a.coeffs.iter().all(|x| x.abs() <= e.value()) {
            return Err(Miss::NotOffered);
        }
        Ok((a, true))
    }
    fn pack_z(&self, p: &Params, g: Gamma1, a: &Poly) -> Got<Vec<u8>> {
        same(g, p.gamma1)?;
        offered(self.table(p).pack_z(a))
    }
    fn unpack_z(&self, p: &Params, g: Gamma1, buf: &[u8]) -> Got<Poly> {
        same(g, p.gamma1)?;
        offered(self.table(p).unpack_z(buf))
    }
    fn pack_w1(&self, p: &Params, g: Gamma2, a: &Poly) -> Got<Vec<u8>> {
        same(g, p.gamma2)?;
        offered(self.table(p).pack_w1(a))
    }
    fn pack_hint(&self, p: &Params, h: &[Poly]) -> Got<Vec<u8>> {
        offered(self.table(p).pack_hint(h))
    }
    fn unpack_hint(&self, p: &Params, buf: &[u8]) -> Got<Option<Vec<Poly>>> {
        let (ok, h) = offered(self.table(p).unpack_hint(buf))?;
        Ok(ok.then_some(h))
    }
    // The single permutation in lane 0 of the 4-way one (other lanes zero).
    fn keccak_f1600(&self, p: &Params, one: [u64; 25]) -> Got<[u64; 25]> {
        let mut s = [0u64; 100];
        one.iter().enumerate().for_each(|(i, &w)| s[4 * i] = w);
        let s = self.keccak_f1600_x4(p, s)?;
        Ok(core::array::from_fn(|i| s[4 * i]))
    }
    fn keccak_f1600_x4(&self, p: &Params, mut s: [u64; 100]) -> Got<[u64; 100]> {
        offered(self.table(p).keccak_x4(&mut s).then_some(s))
    }
    fn keccak_f1600_x4x2(&self, p: &Params, [s0, s1]: [[u64; 100]; 2]) -> Got<[[u64; 100]; 2]> {
        Ok([self.keccak_f1600_x4(p, s0)?, self.keccak_f1600_x4(p, s1)?])
    }
    fn poly_uniform(&self, p: &Params, seed: &[u8; 34]) -> Got<Poly> {
        offered(self.table(p).uniform(&seed[..32], nonce(seed)))
    }
    fn poly_uniform_eta(&self, p: &Params, e: Eta, seed: &[u8; 66]) -> Got<Poly> {
        same(e, p.eta)?;
        offered(self.table(p).uniform_eta(&seed[..64], nonce(seed)))
    }
    fn poly_uniform_gamma1(&self, p: &Params, g: Gamma1, seed: &[u8; 66]) -> Got<Poly> {
        same(g, p.gamma1)?;
        offered(self.table(p).uniform_gamma1(&seed[..64], nonce(seed)))
    }
    fn sample_in_ball(&self, p: &Params, ctilde: &[u8]) -> Got<Poly> {
        offered(self.table(p).challenge(ctilde))
    }
    fn expand_a(&self, p: &Params, rho: &[u8; 32]) -> Got<Vec<Poly>> {
        let m = offered(self.table(p).matrix_expand(rho))?;
        Ok(m.iter().map(|a| self.to_canonical(a)).collect())
    }
    // crypto_sign_keypair draws xi through getrandom: scripted to be `xi`.
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        let t = self.table(p);
        Ok(Ok(scripted(xi, || t.keypair())?))
    }
    // Pure ML-DSA only; rnd scripted. A secret key of another length is not offered (the C
    // code reads a fixed size).
    fn sign(&self, p: &Params, sk: &[u8], m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let Msg::Pure { msg, ctx } = m else {
            return Err(Miss::NotOffered);
        };
        if sk.len() != p.sk_bytes() {
            return Err(Miss::NotOffered);
        }
        let t = self.table(p);
        let mut sig = None;
        match crate::rng::with_script(rnd, || sig = t.sign(sk, msg, ctx)) {
            // Refused, having drawn rnd or before it (a context over 255 bytes).
            Ok(()) | Err(crate::rng::ScriptError::Unused { .. }) if sig.is_none() => {
                Ok(Err("C signing failed".into()))
            }
            Ok(()) => Ok(sig.ok_or_else(|| "C signing failed".into())),
            Err(e) => Err(Miss::Fault(Fault::Script(format!("{e:?}")))),
        }
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        let Msg::Pure { msg, ctx } = m else {
            return Err(Miss::NotOffered);
        };
        let ok = offered(self.table(p).verify(pk, msg, ctx, sig))?;
        Ok(if ok { Ok(()) } else { Err(None) })
    }
}
