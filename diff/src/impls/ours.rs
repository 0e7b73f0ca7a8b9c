//! This crate's backends as an [`Oracle`]: one adapter over any [`Backend`] (the portable
//! specification, AVX2, Neon, the test-only wrong ones), which owns the guard bytes around
//! every output buffer it hands a kernel and converts the backend's NTT order to the
//! canonical one. End-to-end operations run the whole scheme through `mldsa::raw` on the
//! backend's kind.

use super::guard::{Element, Guarded, checked};
use crate::model::Provenance;
use crate::oracle::{Got, Key, KeyPair, Msg, Oracle, Signed, Speed, Verified, offered};
use mldsa::backend::{AnyBackend, Backend, BackendKind};
use mldsa::params::{Eta, Gamma1, Gamma2, K_MAX, L_MAX, N};
use mldsa::poly::Poly;
use mldsa::{Error, Params, raw};

/// A backend of the `mldsa` crate.
#[derive(Clone, Copy, Debug)]
pub struct Ours<B> {
    b: B,
    name: &'static str,
    end_to_end: bool,
}

impl<B: Backend> Ours<B> {
    /// The oracle for backend `b`, named after its kind.
    pub fn new(b: B) -> Self {
        Ours::named(b, B::KIND.name())
    }

    /// The oracle for `b` under another name (a test-only backend beside the real one).
    pub fn named(b: B, name: &'static str) -> Self {
        Ours {
            b,
            name,
            end_to_end: true,
        }
    }

    /// Kernels only: an end-to-end operation selects the backend by kind, which cannot
    /// reach `b` when `b` is a variant of a kind (Neon forced onto its plain Keccak path).
    pub fn kernels_only(b: B, name: &'static str) -> Self {
        Ours {
            end_to_end: false,
            ..Ours::named(b, name)
        }
    }

    fn whole_scheme(&self) -> Got<BackendKind> {
        offered(self.end_to_end.then_some(B::KIND))
    }

    /// `op` on a guarded copy of `a`.
    fn in_place<T: Element>(
        &self,
        kernel: &'static str,
        a: T,
        op: impl FnOnce(B, &mut T),
    ) -> Got<T> {
        let mut g = Guarded::new(&[a]);
        op(self.b, &mut g.out()[0]);
        checked(kernel, &[g.violation()], g.values()[0])
    }

    /// `op` into two guarded zero polynomials.
    fn two_polys(
        &self,
        kernel: &'static str,
        op: impl FnOnce(B, &mut Poly, &mut Poly),
    ) -> Got<(Poly, Poly)> {
        let (mut x, mut y) = (Guarded::new(&[Poly::ZERO]), Guarded::new(&[Poly::ZERO]));
        op(self.b, &mut x.out()[0], &mut y.out()[0]);
        let v = [x.violation(), y.violation()];
        checked(kernel, &v, (x.values()[0], y.values()[0]))
    }

    /// `op` into a guarded zero polynomial.
    fn out_poly(&self, kernel: &'static str, op: impl FnOnce(B, &mut Poly)) -> Got<Poly> {
        self.in_place(kernel, Poly::ZERO, op)
    }

    /// `op` into a guarded buffer of `len` bytes.
    fn out_bytes(
        &self,
        kernel: &'static str,
        len: usize,
        op: impl FnOnce(B, &mut [u8]),
    ) -> Got<Vec<u8>> {
        let mut out = Guarded::new(&vec![0u8; len]);
        op(self.b, out.out());
        checked(kernel, &[out.violation()], out.values().to_vec())
    }

    /// `op` into a guarded buffer of N values; the first `n` it returns (a count above N
    /// panics here, which the runner reports as that implementation's fault).
    fn out_values(
        &self,
        kernel: &'static str,
        op: impl FnOnce(B, &mut [i32]) -> usize,
    ) -> Got<Vec<i32>> {
        let mut v = Guarded::new(&[0i32; N]);
        let n = op(self.b, v.out());
        checked(kernel, &[v.violation()], v.values()[..n].to_vec())
    }

    /// A signature made by `sign` into a guarded buffer.
    fn signature(p: &Params, sign: impl FnOnce(&mut [u8]) -> Result<(), Error>) -> Got<Signed> {
        let mut sig = Guarded::new(&vec![0u8; p.sig_bytes()]);
        let r = sign(sig.out());
        checked(
            "sign_internal",
            &[sig.violation()],
            r.map(|()| sig.values().to_vec()).map_err(|e| e.to_string()),
        )
    }
}

impl<B: Backend> Oracle for Ours<B> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn origin(&self) -> Provenance {
        Provenance::Ours
    }
    fn speed(&self) -> Speed {
        Speed::native(if B::KIND == mldsa::BackendKind::Portable {
            250
        } else {
            70
        })
    }
    fn ntt(&self, _: &Params, a: Poly) -> Got<Poly> {
        self.in_place("ntt", a, |b, a| {
            b.ntt(a);
            b.ntt_order_to_canonical(a);
        })
    }
    fn invntt_tomont(&self, _: &Params, a: Poly) -> Got<Poly> {
        self.in_place("invntt_tomont", a, |b, a| {
            b.ntt_order_from_canonical(a);
            b.invntt_tomont(a);
        })
    }
    fn pointwise_montgomery(&self, _: &Params, a: &Poly, x: &Poly) -> Got<Poly> {
        self.out_poly("pointwise_montgomery", |b, c| {
            b.pointwise_montgomery(c, a, x)
        })
    }
    fn pointwise_acc_montgomery(&self, _: &Params, u: &[Poly], v: &[Poly]) -> Got<Poly> {
        self.out_poly("pointwise_acc_montgomery", |b, c| {
            b.pointwise_acc_montgomery(c, u, v)
        })
    }
    fn reduce(&self, _: &Params, a: Poly) -> Got<Poly> {
        self.in_place("reduce", a, |b, a| b.reduce(a))
    }
    fn caddq(&self, _: &Params, a: Poly) -> Got<Poly> {
        self.in_place("caddq", a, |b, a| b.caddq(a))
    }
    fn add(&self, _: &Params, a: &Poly, x: &Poly) -> Got<Poly> {
        self.in_place("add", *a, |b, a| b.add(a, x))
    }
    fn sub(&self, _: &Params, a: &Poly, x: &Poly) -> Got<Poly> {
        self.in_place("sub", *a, |b, a| b.sub(a, x))
    }
    fn shiftl(&self, _: &Params, a: Poly) -> Got<Poly> {
        self.in_place("shiftl", a, |b, a| b.shiftl(a))
    }
    fn power2round(&self, _: &Params, a: &Poly) -> Got<(Poly, Poly)> {
        self.two_polys("power2round", |b, x, y| b.power2round(x, y, a))
    }
    fn decompose(&self, _: &Params, g: Gamma2, a: &Poly) -> Got<(Poly, Poly)> {
        self.two_polys("decompose", |b, x, y| b.decompose(g, x, y, a))
    }
    fn make_hint(&self, _: &Params, g: Gamma2, a0: &Poly, a1: &Poly) -> Got<(Poly, usize)> {
        let mut n = 0;
        let h = self.out_poly("make_hint", |b, h| n = b.make_hint(g, h, a0, a1))?;
        Ok((h, n))
    }
    fn use_hint(&self, _: &Params, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly> {
        self.out_poly("use_hint", |b, r| b.use_hint(g, r, a, h))
    }
    fn chknorm(&self, _: &Params, a: &Poly, bound: i32) -> Got<bool> {
        Ok(self.b.chknorm(a, bound))
    }
    fn rej_uniform(&self, _: &Params, buf: &[u8]) -> Got<Vec<i32>> {
        self.out_values("rej_uniform", |b, out| b.rej_uniform(out, buf))
    }
    fn rej_eta(&self, _: &Params, e: Eta, buf: &[u8]) -> Got<Vec<i32>> {
        self.out_values("rej_eta", |b, out| b.rej_eta(e, out, buf))
    }
    fn pack_t1(&self, _: &Params, a: &Poly) -> Got<Vec<u8>> {
        let len = mldsa::params::POLY_T1_BYTES;
        self.out_bytes("pack_t1", len, |b, out| b.pack_t1(out, a))
    }
    fn unpack_t1(&self, _: &Params, buf: &[u8]) -> Got<Poly> {
        self.out_poly("unpack_t1", |b, a| b.unpack_t1(a, buf))
    }
    fn pack_t0(&self, _: &Params, a: &Poly) -> Got<Vec<u8>> {
        let len = mldsa::params::POLY_T0_BYTES;
        self.out_bytes("pack_t0", len, |b, out| b.pack_t0(out, a))
    }
    fn unpack_t0(&self, _: &Params, buf: &[u8]) -> Got<Poly> {
        self.out_poly("unpack_t0", |b, a| b.unpack_t0(a, buf))
    }
    fn pack_eta(&self, _: &Params, e: Eta, a: &Poly) -> Got<Vec<u8>> {
        let len = e.poly_eta_bytes();
        self.out_bytes("pack_eta", len, |b, out| b.pack_eta(e, out, a))
    }
    fn unpack_eta(&self, _: &Params, e: Eta, buf: &[u8]) -> Got<(Poly, bool)> {
        let mut ok = false;
        let a = self.out_poly("unpack_eta", |b, a| ok = b.unpack_eta(e, a, buf))?;
        Ok((a, ok))
    }
    fn pack_z(&self, _: &Params, g: Gamma1, a: &Poly) -> Got<Vec<u8>> {
        let len = g.poly_z_bytes();
        self.out_bytes("pack_z", len, |b, out| b.pack_z(g, out, a))
    }
    fn unpack_z(&self, _: &Params, g: Gamma1, buf: &[u8]) -> Got<Poly> {
        self.out_poly("unpack_z", |b, a| b.unpack_z(g, a, buf))
    }
    fn pack_w1(&self, _: &Params, g: Gamma2, a: &Poly) -> Got<Vec<u8>> {
        let len = g.poly_w1_bytes();
        self.out_bytes("pack_w1", len, |b, out| b.pack_w1(g, out, a))
    }
    fn pack_hint(&self, p: &Params, h: &[Poly]) -> Got<Vec<u8>> {
        let len = p.omega + p.k;
        self.out_bytes("pack_hint", len, |b, out| b.pack_hint(out, h, p.omega))
    }
    fn unpack_hint(&self, p: &Params, buf: &[u8]) -> Got<Option<Vec<Poly>>> {
        let mut h = Guarded::new(&vec![Poly::ZERO; p.k]);
        let ok = self.b.unpack_hint(h.out(), buf, p.omega).is_ok();
        checked(
            "unpack_hint",
            &[h.violation()],
            ok.then(|| h.values().to_vec()),
        )
    }
    // Each Keccak kernel runs both its entry points, for secret and for public states
    // (`Backend::keccak_f1600_public`, ...: the same permutation, one wiping its stack), and
    // answers only if they agree.
    fn keccak_f1600(&self, _: &Params, s: [u64; 25]) -> Got<[u64; 25]> {
        let secret = self.in_place("keccak_f1600", s, |b, s| b.keccak_f1600(s))?;
        let public = self.in_place("keccak_f1600", s, |b, s| b.keccak_f1600_public(s))?;
        agree("keccak_f1600", secret, public)
    }
    fn keccak_f1600_x4(&self, _: &Params, s: [u64; 100]) -> Got<[u64; 100]> {
        let secret = self.in_place("keccak_f1600_x4", s, |b, s| b.keccak_f1600_x4(s))?;
        let public = self.in_place("keccak_f1600_x4", s, |b, s| b.keccak_f1600_x4_public(s))?;
        agree("keccak_f1600_x4", secret, public)
    }
    fn keccak_f1600_x4x2(&self, _: &Params, s: [[u64; 100]; 2]) -> Got<[[u64; 100]; 2]> {
        let run = |op: fn(B, &mut [u64; 100], &mut [u64; 100])| {
            let (mut s0, mut s1) = (Guarded::new(&[s[0]]), Guarded::new(&[s[1]]));
            op(self.b, &mut s0.out()[0], &mut s1.out()[0]);
            let v = [s0.violation(), s1.violation()];
            checked("keccak_f1600_x4x2", &v, [s0.values()[0], s1.values()[0]])
        };
        let secret = run(|b, s0, s1| b.keccak_f1600_x4x2(s0, s1))?;
        let public = run(|b, s0, s1| b.keccak_f1600_x4x2_public(s0, s1))?;
        agree("keccak_f1600_x4x2", secret, public)
    }
    fn poly_uniform(&self, _: &Params, seed: &[u8; 34]) -> Got<Poly> {
        self.out_poly("poly_uniform", |b, a| {
            mldsa::sample::poly_uniform(b, seed, a)
        })
    }
    fn poly_uniform_eta(&self, _: &Params, e: Eta, seed: &[u8; 66]) -> Got<Poly> {
        self.out_poly("poly_uniform_eta", |b, a| {
            mldsa::sample::poly_uniform_eta(b, e, seed, a)
        })
    }
    fn poly_uniform_gamma1(&self, _: &Params, g: Gamma1, seed: &[u8; 66]) -> Got<Poly> {
        self.out_poly("poly_uniform_gamma1", |b, a| {
            mldsa::sample::poly_uniform_gamma1(b, g, seed, a)
        })
    }
    fn expand_mask(&self, p: &Params, rhopp: &[u8; 64], kappa: u16) -> Got<Vec<Poly>> {
        let y = self.in_place("expand_mask", [Poly::ZERO; L_MAX], |b, y| {
            mldsa::sample::expand_mask(b, p, rhopp, kappa, &mut y[..p.l])
        })?;
        Ok(y[..p.l].to_vec())
    }
    fn sample_in_ball(&self, p: &Params, ctilde: &[u8]) -> Got<Poly> {
        Ok(mldsa::sample::sample_in_ball(self.b, ctilde, p.tau))
    }
    fn expand_a(&self, p: &Params, rho: &[u8; 32]) -> Got<Vec<Poly>> {
        let m = self.in_place("expand_a", [[Poly::ZERO; L_MAX]; K_MAX], |b, m| {
            mldsa::sample::expand_a(b, p, rho, m)
        })?;
        Ok(m[..p.k]
            .iter()
            .flat_map(|row| row[..p.l].iter())
            .map(|a| {
                let mut a = *a;
                self.b.ntt_order_to_canonical(&mut a);
                a
            })
            .collect())
    }
    // KeyGen_internal fails only where the backend's kind is not available here, which no
    // registered backend is: answered as that error, never skipped.
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        let kind = self.whole_scheme()?;
        let (mut pk, mut sk) = (
            Guarded::new(&vec![0u8; p.pk_bytes()]),
            Guarded::new(&vec![0u8; p.sk_bytes()]),
        );
        let r = raw::keygen_internal(kind, p, xi, pk.out(), sk.out());
        let v = [pk.violation(), sk.violation()];
        checked(
            "keygen_internal",
            &v,
            r.map(|()| (pk.values().to_vec(), sk.values().to_vec()))
                .map_err(|e| e.to_string()),
        )
    }
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let sk = key.sk;
        let kind = self.whole_scheme()?;
        Self::signature(p, |sig| {
            m_prime(
                m,
                sig,
                |sig, mu| raw::sign_mu(kind, p, sk, mu, rnd, sig),
                |sig, parts| raw::sign_internal(kind, p, sk, parts, rnd, sig),
            )
        })
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        let kind = self.whole_scheme()?;
        let r = m_prime(
            m,
            (),
            |(), mu| raw::verify_mu(kind, p, pk, mu, sig),
            |(), parts| raw::verify_internal(kind, p, pk, parts, sig),
        );
        Ok(r.map_err(|e| Some(e.to_string())))
    }
}

/// `internal` of M' in parts: FIPS 204 Alg. 2 (pure), Alg. 4 (HashML-DSA, its digest
/// computed or given) or M' as given; `external` of mu (external mu has no M'). `cx` is
/// what both may need mutably (the signature buffer).
/// `secret` if the two entry points of `kernel` agree, else a fault naming it.
fn agree<T: PartialEq>(kernel: &str, secret: T, public: T) -> Got<T> {
    if secret == public {
        Ok(secret)
    } else {
        Err(crate::oracle::Miss::Fault(
            crate::model::Fault::EntryPoints {
                kernel: kernel.to_string(),
            },
        ))
    }
}

fn m_prime<C>(
    m: Msg<'_>,
    cx: C,
    external: impl FnOnce(C, &[u8; 64]) -> Result<(), Error>,
    internal: impl FnOnce(C, &[&[u8]]) -> Result<(), Error>,
) -> Result<(), Error> {
    let hashed;
    let (ph, digest, ctx) = match m {
        Msg::Pure { msg, ctx } => return internal(cx, &[&raw::pure_prefix(ctx)?, ctx, msg]),
        Msg::Internal(m_prime) => return internal(cx, &[m_prime]),
        Msg::Mu(mu) => return external(cx, mu),
        Msg::PreHash { ph, msg, ctx } => {
            hashed = crate::oracle::digest(ph, msg);
            (ph, &hashed[..], ctx)
        }
        Msg::PreHashed { ph, digest, ctx } => (ph, digest, ctx),
    };
    raw::check_digest(ph, digest)?;
    let (pre, oid) = raw::prehash_prefix(ctx, ph)?;
    internal(cx, &[&pre, ctx, &oid, digest])
}

/// Every backend's name, whether or not this machine has it.
pub fn names() -> Vec<&'static str> {
    BackendKind::ALL.iter().map(|k| k.name()).collect()
}

/// Every backend this build and CPU have (portable first: the reference).
pub fn oracles() -> Vec<Box<dyn Oracle>> {
    BackendKind::available()
        .map(|k| oracle(k).expect("listed as available"))
        .collect()
}

/// The oracle for backend `kind`; an error if the CPU or build lacks it.
pub fn oracle(kind: BackendKind) -> Result<Box<dyn Oracle>, Error> {
    let any = AnyBackend::new(kind)?;
    Ok(mldsa::with_backend!(any, |b| Box::new(Ours::new(b)) as Box<dyn Oracle>))
}
