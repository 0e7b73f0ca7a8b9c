//! A PQClean variant as an [`Oracle`]. Its differences from the checks' contracts live here
//! and nowhere else: AVX2 keeps NTT-domain values in its own order (permuted to and from the
//! canonical one); `polyeta_unpack` has no range check (only in-range encodings are
//! offered); the AVX2 rejection kernels take whole buffers only (840 bytes for rej_uniform,
//! 136 / 272 for rej_eta); its single Keccak permutation is lane 0 of the 4-way one (AVX2
//! only); the whole scheme is pure ML-DSA only, with its randomness scripted from xi / rnd.

use super::{CImpl, CKernels, Variant};
use crate::model::Provenance;
use crate::oracle::{
    Fault, Got, Key, KeyPair, Miss, Msg, Oracle, Signed, Speed, Verified, accepted, offered,
};
use mldsa::Params;
use mldsa::backend::contract;
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

/// Offered only if `p`'s parameter (gamma2, eta, gamma1) is `x`: each C build has its set's
/// parameters compiled in, so it answers for no other value.
fn same<T: PartialEq>(x: T, of_p: T) -> Got<()> {
    offered((x == of_p).then_some(()))
}

fn scripted<T>(bytes: &[u8], f: impl FnOnce() -> T) -> Got<T> {
    crate::rng::with_script(bytes, f).map_err(|e| Miss::Fault(Fault::Script(format!("{e:?}"))))
}

fn nonce(b: &[u8]) -> u16 {
    u16::from_le_bytes([b[b.len() - 2], b[b.len() - 1]])
}

impl CImpl {
    /// `f` on the kernels of set `p` (`None`: not offered).
    fn c<T>(&self, p: &Params, f: impl FnOnce(&CKernels) -> Option<T>) -> Got<T> {
        offered(f(self.table(p)))
    }
}

impl Oracle for CImpl {
    fn name(&self) -> &'static str {
        self.variant.name()
    }
    fn origin(&self) -> Provenance {
        Provenance::PqClean
    }
    fn speed(&self) -> Speed {
        Speed::native(if self.variant == Variant::Clean {
            400
        } else {
            70
        })
    }
    fn ntt(&self, p: &Params, a: Poly) -> Got<Poly> {
        let a = self.c(p, |t| t.ntt(a))?;
        Ok(self.to_canonical(&a))
    }
    fn invntt_tomont(&self, p: &Params, a: Poly) -> Got<Poly> {
        let a = self.to_own_order(&a);
        self.c(p, |t| t.invntt_tomont(a))
    }
    // Coefficient-wise: no reordering needed.
    fn pointwise_montgomery(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly> {
        self.c(p, |t| {
            t.binary(t.poly_pointwise_montgomery, a, b, contract::POINTWISE)
        })
    }
    fn pointwise_acc_montgomery(&self, p: &Params, u: &[Poly], v: &[Poly]) -> Got<Poly> {
        self.c(p, |t| t.pointwise_acc(u, v))
    }
    fn reduce(&self, p: &Params, a: Poly) -> Got<Poly> {
        self.c(p, |t| t.unary(t.poly_reduce, a, contract::REDUCE))
    }
    fn caddq(&self, p: &Params, a: Poly) -> Got<Poly> {
        self.c(p, |t| t.unary(t.poly_caddq, a, contract::CADDQ))
    }
    fn add(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly> {
        self.c(p, |t| t.binary(t.poly_add, a, b, contract::ADD))
    }
    fn sub(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly> {
        self.c(p, |t| t.binary(t.poly_sub, a, b, contract::SUB))
    }
    fn shiftl(&self, p: &Params, a: Poly) -> Got<Poly> {
        self.c(p, |t| t.unary(t.poly_shiftl, a, contract::SHIFTL))
    }
    fn power2round(&self, p: &Params, a: &Poly) -> Got<(Poly, Poly)> {
        self.c(p, |t| t.split(t.poly_power2round, a, contract::POWER2ROUND))
    }
    fn decompose(&self, p: &Params, g: Gamma2, a: &Poly) -> Got<(Poly, Poly)> {
        same(g, p.gamma2)?;
        self.c(p, |t| t.split(t.poly_decompose, a, contract::decompose(g)))
    }
    fn make_hint(&self, p: &Params, g: Gamma2, a0: &Poly, a1: &Poly) -> Got<(Poly, usize)> {
        same(g, p.gamma2)?;
        let (h, n) = self.c(p, |t| t.make_hint(a0, a1))?;
        Ok((h, n as usize))
    }
    fn use_hint(&self, p: &Params, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly> {
        same(g, p.gamma2)?;
        self.c(p, |t| {
            t.binary(t.poly_use_hint, a, h, contract::use_hint(g))
        })
    }
    fn chknorm(&self, p: &Params, a: &Poly, bound: i32) -> Got<bool> {
        self.c(p, |t| t.chknorm(a, bound))
    }
    fn rej_uniform(&self, p: &Params, buf: &[u8]) -> Got<Vec<i32>> {
        self.c(p, |t| t.rej_uniform_avx(buf))
    }
    fn rej_eta(&self, p: &Params, e: Eta, buf: &[u8]) -> Got<Vec<i32>> {
        same(e, p.eta)?;
        self.c(p, |t| t.rej_eta_avx(buf))
    }
    fn pack_t1(&self, p: &Params, a: &Poly) -> Got<Vec<u8>> {
        self.c(p, |t| t.pack(t.polyt1_pack, a, 320, contract::PACK_T1))
    }
    fn unpack_t1(&self, p: &Params, buf: &[u8]) -> Got<Poly> {
        self.c(p, |t| t.unpack(t.polyt1_unpack, buf, 320))
    }
    fn pack_t0(&self, p: &Params, a: &Poly) -> Got<Vec<u8>> {
        self.c(p, |t| t.pack(t.polyt0_pack, a, 416, contract::PACK_T0))
    }
    fn unpack_t0(&self, p: &Params, buf: &[u8]) -> Got<Poly> {
        self.c(p, |t| t.unpack(t.polyt0_unpack, buf, 416))
    }
    fn pack_eta(&self, p: &Params, e: Eta, a: &Poly) -> Got<Vec<u8>> {
        same(e, p.eta)?;
        self.c(p, |t| {
            let len = t.params.eta.poly_eta_bytes();
            t.pack(t.polyeta_pack, a, len, contract::pack_eta(e))
        })
    }
    // polyeta_unpack does no range check: only in-range encodings are comparable.
    fn unpack_eta(&self, p: &Params, e: Eta, buf: &[u8]) -> Got<(Poly, bool)> {
        same(e, p.eta)?;
        let a = self.c(p, |t| {
            t.unpack(t.polyeta_unpack, buf, t.params.eta.poly_eta_bytes())
        })?;
        if !a.coeffs.iter().all(|x| x.abs() <= e.value()) {
            return Err(Miss::NotOffered);
        }
        Ok((a, true))
    }
    fn pack_z(&self, p: &Params, g: Gamma1, a: &Poly) -> Got<Vec<u8>> {
        same(g, p.gamma1)?;
        self.c(p, |t| {
            let len = t.params.gamma1.poly_z_bytes();
            t.pack(t.polyz_pack, a, len, contract::pack_z(g))
        })
    }
    fn unpack_z(&self, p: &Params, g: Gamma1, buf: &[u8]) -> Got<Poly> {
        same(g, p.gamma1)?;
        self.c(p, |t| {
            t.unpack(t.polyz_unpack, buf, t.params.gamma1.poly_z_bytes())
        })
    }
    fn pack_w1(&self, p: &Params, g: Gamma2, a: &Poly) -> Got<Vec<u8>> {
        same(g, p.gamma2)?;
        self.c(p, |t| {
            let len = t.params.gamma2.poly_w1_bytes();
            t.pack(t.polyw1_pack, a, len, contract::pack_w1(g))
        })
    }
    fn pack_hint(&self, p: &Params, h: &[Poly]) -> Got<Vec<u8>> {
        self.c(p, |t| t.pack_hint(h))
    }
    fn unpack_hint(&self, p: &Params, buf: &[u8]) -> Got<Option<Vec<Poly>>> {
        let (ok, h) = self.c(p, |t| t.unpack_hint(buf))?;
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
        self.c(p, |t| t.keccak_x4(&mut s).then_some(s))
    }
    fn keccak_f1600_x4x2(&self, p: &Params, [s0, s1]: [[u64; 100]; 2]) -> Got<[[u64; 100]; 2]> {
        Ok([self.keccak_f1600_x4(p, s0)?, self.keccak_f1600_x4(p, s1)?])
    }
    fn poly_uniform(&self, p: &Params, seed: &[u8; 34]) -> Got<Poly> {
        self.c(p, |t| {
            t.sample(t.poly_uniform, &seed[..32], 32, nonce(seed))
        })
    }
    fn poly_uniform_eta(&self, p: &Params, e: Eta, seed: &[u8; 66]) -> Got<Poly> {
        same(e, p.eta)?;
        self.c(p, |t| {
            t.sample(t.poly_uniform_eta, &seed[..64], 64, nonce(seed))
        })
    }
    fn poly_uniform_gamma1(&self, p: &Params, g: Gamma1, seed: &[u8; 66]) -> Got<Poly> {
        same(g, p.gamma1)?;
        self.c(p, |t| {
            t.sample(t.poly_uniform_gamma1, &seed[..64], 64, nonce(seed))
        })
    }
    // polyvecl_uniform_gamma1 takes kappa / l: offered for kappa a multiple of l (as Sign's
    // kappa always is).
    fn expand_mask(&self, p: &Params, rhopp: &[u8; 64], kappa: u16) -> Got<Vec<Poly>> {
        let kappa = usize::from(kappa);
        if kappa % p.l != 0 {
            return Err(Miss::NotOffered);
        }
        let nonce = u16::try_from(kappa / p.l).expect("kappa / l < 2^16");
        self.c(p, |t| t.mask_expand(rhopp, nonce))
    }
    fn sample_in_ball(&self, p: &Params, ctilde: &[u8]) -> Got<Poly> {
        self.c(p, |t| t.challenge(ctilde))
    }
    fn expand_a(&self, p: &Params, rho: &[u8; 32]) -> Got<Vec<Poly>> {
        let m = self.c(p, |t| t.matrix_expand(rho))?;
        Ok(m.iter().map(|a| self.to_canonical(a)).collect())
    }
    // crypto_sign_keypair draws xi through getrandom: scripted to be `xi`.
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        let t = self.table(p);
        Ok(Ok(scripted(xi, || t.keypair())?))
    }
    // Pure ML-DSA only; rnd scripted. A secret key of another length is not offered (the C
    // code reads a fixed size).
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let sk = key.sk;
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
        self.c(p, |t| t.verify(pk, msg, ctx, sig)).map(accepted)
    }
}
