//! The implementations compared, behind one trait: each backend of `mldsa` and each PQClean
//! C variant. An oracle returns `None` for a check (or an input shape) it does not
//! implement; every output it does return is in the canonical form of [`Output`].

use crate::check::{Case, Check};
use crate::pqclean::{AVX2_REJ_UNIFORM_BUFLEN, CKernels, Variant};
use mldsa::backend::{AnyBackend, Backend, BackendKind};
use mldsa::params::{K_MAX, L_MAX, N, Q};
use mldsa::poly::Poly;
use mldsa::{Params, raw, with_backend};
use serde::{Deserialize, Serialize};

/// One implementation's answer. NTT-domain polynomials are in the canonical (FIPS 204
/// bit-reversed) order whatever the implementation's internal order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Output {
    /// Output polynomials.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polys: Vec<Vec<i32>>,
    /// Output bytes (packed data, keys, signatures).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hexvec")]
    pub bytes: Vec<u8>,
    /// A count or boolean (as 0/1).
    #[serde(default)]
    pub scalar: i64,
    /// Accept/reject or error verdicts of decoders, verifiers and signers.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub verdict: String,
}

mod hexvec {
    use serde::{Deserialize, Deserializer, Serializer};
    pub(super) fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(b))
    }
    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        hex::decode(String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

fn polys(ps: &[Poly]) -> Vec<Vec<i32>> {
    ps.iter().map(|p| p.coeffs.to_vec()).collect()
}

fn to_poly(v: &[i32]) -> Poly {
    let mut p = Poly::ZERO;
    p.coeffs.copy_from_slice(&v[..N]);
    p
}

/// An implementation under comparison.
pub trait Oracle: Send + Sync {
    /// Its name in tables and reports ("portable", "avx2", "c-clean", ...).
    fn name(&self) -> &'static str;
    /// Whether it is PQClean C code (for the known differences of `SignMalformedKey`).
    fn is_c(&self) -> bool;
    /// Runs `check` on `case`; `None` if not implemented here.
    fn run(&self, check: Check, case: &Case) -> Option<Output>;
}

/// A backend of the `mldsa` crate.
#[derive(Debug, Clone, Copy)]
pub struct RustOracle {
    backend: AnyBackend,
}

impl RustOracle {
    /// The oracle for `kind`; an error if the CPU or build lacks it.
    pub fn new(kind: BackendKind) -> Result<Self, mldsa::Error> {
        Ok(RustOracle {
            backend: AnyBackend::new(kind)?,
        })
    }
}

fn verdict<E: core::fmt::Display>(r: &Result<(), E>) -> String {
    match r {
        Ok(()) => "accept".into(),
        Err(e) => format!("reject ({e})"),
    }
}

/// Runs a kernel check on a Rust backend.
pub fn run_rust<B: Backend>(b: B, check: Check, case: &Case) -> Option<Output> {
    use Check::*;
    let mut out = Output::default();
    let p = check.params();
    let poly = |i: usize| to_poly(&case.polys[i]);
    match check {
        Ntt | InvnttTomont | Reduce | Caddq | Shiftl => {
            let mut a = poly(0);
            // NTT-domain values travel in canonical order; the backend may keep its own.
            match check {
                Ntt => {
                    b.ntt(&mut a);
                    b.ntt_order_to_canonical(&mut a);
                }
                InvnttTomont => {
                    b.ntt_order_from_canonical(&mut a);
                    b.invntt_tomont(&mut a);
                }
                Reduce => b.reduce(&mut a),
                Caddq => b.caddq(&mut a),
                _ => b.shiftl(&mut a),
            }
            out.polys = polys(&[a]);
        }
        Pointwise => {
            let mut c = Poly::ZERO;
            b.pointwise_montgomery(&mut c, &poly(0), &poly(1));
            out.polys = polys(&[c]);
        }
        PointwiseAcc(p) => {
            let v: Vec<Poly> = (0..2 * p.l).map(poly).collect();
            let mut c = Poly::ZERO;
            b.pointwise_acc_montgomery(&mut c, &v[..p.l], &v[p.l..]);
            out.polys = polys(&[c]);
        }
        Add | Sub => {
            let mut a = poly(0);
            if check == Add {
                b.add(&mut a, &poly(1))
            } else {
                b.sub(&mut a, &poly(1))
            }
            out.polys = polys(&[a]);
        }
        Power2Round | Decompose(_) => {
            let (mut x, mut y) = (Poly::ZERO, Poly::ZERO);
            match check {
                Decompose(g) => b.decompose(g, &mut x, &mut y, &poly(0)),
                _ => b.power2round(&mut x, &mut y, &poly(0)),
            }
            out.polys = polys(&[x, y]);
        }
        MakeHint(g) => {
            let mut h = Poly::ZERO;
            out.scalar = b.make_hint(g, &mut h, &poly(0), &poly(1)) as i64;
            out.polys = polys(&[h]);
        }
        UseHint(g) => {
            let mut r = Poly::ZERO;
            b.use_hint(g, &mut r, &poly(0), &poly(1));
            out.polys = polys(&[r]);
        }
        Chknorm => out.scalar = i64::from(b.chknorm(&poly(0), case.scalar as i32)),
        RejUniform | RejEta(_) => {
            let mut v = [0i32; N];
            let n = match check {
                RejEta(e) => b.rej_eta(e, &mut v, &case.bytes),
                _ => b.rej_uniform(&mut v, &case.bytes),
            };
            out.polys = vec![v[..n].to_vec()];
            out.scalar = n as i64;
        }
        PolyUniform => {
            let mut a = Poly::ZERO;
            mldsa::sample::poly_uniform(b, case.bytes.as_slice().try_into().ok()?, &mut a);
            out.polys = polys(&[a]);
        }
        PolyUniformEta(e) => {
            let mut a = Poly::ZERO;
            mldsa::sample::poly_uniform_eta(b, e, case.bytes.as_slice().try_into().ok()?, &mut a);
            out.polys = polys(&[a]);
        }
        PolyUniformGamma1(g) => {
            let mut a = Poly::ZERO;
            mldsa::sample::poly_uniform_gamma1(
                b,
                g,
                case.bytes.as_slice().try_into().ok()?,
                &mut a,
            );
            out.polys = polys(&[a]);
        }
        Challenge(p) => out.polys = polys(&[mldsa::sample::sample_in_ball(b, &case.bytes, p.tau)]),
        ExpandA(p) => {
            let mut mat = [[Poly::ZERO; L_MAX]; K_MAX];
            mldsa::sample::expand_a(b, &p, case.bytes.as_slice().try_into().ok()?, &mut mat);
            mat.iter_mut()
                .flat_map(|row| row.iter_mut())
                .for_each(|a| b.ntt_order_to_canonical(a));
            out.polys = (0..p.k).flat_map(|r| polys(&mat[r][..p.l])).collect();
        }
        PackT1 | PackT0 | PackEta(_) | PackZ(_) | PackW1(_) => {
            let a = poly(0);
            let len = match check {
                PackT1 => 320,
                PackT0 => 416,
                PackEta(e) => e.poly_eta_bytes(),
                PackZ(g) => g.poly_z_bytes(),
                PackW1(g) => g.poly_w1_bytes(),
                _ => unreachable!(),
            };
            out.bytes = vec![0u8; len];
            match check {
                PackT1 => b.pack_t1(&mut out.bytes, &a),
                PackT0 => b.pack_t0(&mut out.bytes, &a),
                PackEta(e) => b.pack_eta(e, &mut out.bytes, &a),
                PackZ(g) => b.pack_z(g, &mut out.bytes, &a),
                PackW1(g) => b.pack_w1(g, &mut out.bytes, &a),
                _ => unreachable!(),
            }
        }
        UnpackT1 | UnpackT0 | UnpackZ(_) => {
            let mut a = Poly::ZERO;
            match check {
                UnpackT1 => b.unpack_t1(&mut a, &case.bytes),
                UnpackT0 => b.unpack_t0(&mut a, &case.bytes),
                UnpackZ(g) => b.unpack_z(g, &mut a, &case.bytes),
                _ => unreachable!(),
            }
            out.polys = polys(&[a]);
        }
        UnpackEta(e) => {
            let mut a = Poly::ZERO;
            let ok = b.unpack_eta(e, &mut a, &case.bytes);
            out.polys = polys(&[a]);
            out.verdict = if ok {
                "in range".into()
            } else {
                "out of range".into()
            };
        }
        PackHint(p) => {
            let h: Vec<Poly> = (0..p.k).map(poly).collect();
            out.bytes = vec![0u8; p.omega + p.k];
            b.pack_hint(&mut out.bytes, &h, p.omega);
        }
        UnpackHint(p) => {
            let mut h = vec![Poly::ZERO; p.k];
            let r = b.unpack_hint(&mut h, &case.bytes, p.omega);
            out.verdict = if r.is_ok() {
                "accept".into()
            } else {
                "reject".into()
            };
            if r.is_ok() {
                out.polys = polys(&h);
            }
        }
        Keccak => {
            let mut s = lanes::<25>(&case.bytes);
            b.keccak_f1600(&mut s);
            out.bytes = s.iter().flat_map(|w| w.to_le_bytes()).collect();
        }
        KeccakX4 => {
            let mut s = lanes::<100>(&case.bytes);
            b.keccak_f1600_x4(&mut s);
            out.bytes = s.iter().flat_map(|w| w.to_le_bytes()).collect();
        }
        KeccakX4x2 => {
            let mut s0 = lanes::<100>(&case.bytes[..800]);
            let mut s1 = lanes::<100>(&case.bytes[800..]);
            b.keccak_f1600_x4x2(&mut s0, &mut s1);
            out.bytes = s0.iter().chain(&s1).flat_map(|w| w.to_le_bytes()).collect();
        }
        Keygen(_) | Sign(_) | Verify(_) | SignMalformedKey(_) => {
            return run_rust_e2e(B::KIND, check, &p, case);
        }
    }
    Some(out)
}

fn lanes<const M: usize>(bytes: &[u8]) -> [u64; M] {
    core::array::from_fn(|i| {
        u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
    })
}

fn run_rust_e2e(kind: BackendKind, check: Check, p: &Params, case: &Case) -> Option<Output> {
    let mut out = Output::default();
    match check {
        Check::Keygen(_) => {
            let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
            raw::keygen_internal(
                kind,
                p,
                case.bytes.as_slice().try_into().ok()?,
                &mut pk,
                &mut sk,
            )
            .ok()?;
            out.bytes = [pk, sk].concat();
        }
        Check::Sign(_) | Check::SignMalformedKey(_) => {
            let rnd: [u8; 32] = case.rnd.as_slice().try_into().ok()?;
            let mut sig = vec![0u8; p.sig_bytes()];
            let r = raw::pure_prefix(&case.ctx).and_then(|pre| {
                raw::sign_internal(
                    kind,
                    p,
                    &case.sk,
                    &[&pre, &case.ctx, &case.msg],
                    &rnd,
                    &mut sig,
                )
            });
            match r {
                Ok(()) => {
                    out.bytes = sig;
                    out.verdict = "signed".into();
                }
                Err(e) => out.verdict = format!("error: {e}"),
            }
        }
        Check::Verify(_) => {
            let r = raw::pure_prefix(&case.ctx).and_then(|pre| {
                raw::verify_internal(kind, p, &case.pk, &[&pre, &case.ctx, &case.msg], &case.sig)
            });
            // Only accept/reject is compared; the typed reason is kept for the report.
            out.scalar = i64::from(r.is_ok());
            out.verdict = verdict(&r);
        }
        _ => return None,
    }
    Some(out)
}

impl Oracle for RustOracle {
    fn name(&self) -> &'static str {
        self.backend.kind().name()
    }
    fn is_c(&self) -> bool {
        false
    }
    fn run(&self, check: Check, case: &Case) -> Option<Output> {
        with_backend!(self.backend, |b| run_rust(b, check, case))
    }
}

/// A PQClean C variant.
#[derive(Debug)]
pub struct COracle {
    variant: Variant,
    /// For AVX2: `own[i] = canonical[perm[i]]` in its NTT domain.
    perm: Option<Vec<usize>>,
}

impl COracle {
    /// The oracle for `variant`, if it is built and runs on this CPU.
    pub fn new(variant: Variant) -> Option<Self> {
        let t = variant.for_params(&mldsa::ML_DSA_65)?;
        let perm = t.is_avx2().then(|| {
            let mut idx = Poly::ZERO;
            idx.coeffs
                .iter_mut()
                .enumerate()
                .for_each(|(i, c)| *c = i as i32);
            t.nttunpack(&mut idx);
            idx.coeffs.iter().map(|&c| c as usize).collect()
        });
        Some(COracle { variant, perm })
    }

    fn to_canonical(&self, a: &Poly) -> Poly {
        match &self.perm {
            None => *a,
            Some(perm) => {
                let mut c = Poly::ZERO;
                perm.iter()
                    .enumerate()
                    .for_each(|(i, &src)| c.coeffs[src] = a.coeffs[i]);
                c
            }
        }
    }

    fn to_own_order(&self, a: &Poly) -> Poly {
        match &self.perm {
            None => *a,
            Some(perm) => {
                let mut c = Poly::ZERO;
                perm.iter()
                    .enumerate()
                    .for_each(|(i, &src)| c.coeffs[i] = a.coeffs[src]);
                c
            }
        }
    }

    fn table(&self, p: &Params) -> &'static CKernels {
        self.variant
            .for_params(p)
            .expect("checked when the oracle was made")
    }
}

impl Oracle for COracle {
    fn name(&self) -> &'static str {
        self.variant.name()
    }
    fn is_c(&self) -> bool {
        true
    }
    fn run(&self, check: Check, case: &Case) -> Option<Output> {
        use Check::*;
        let p = check.params();
        let t = self.table(&p);
        let poly = |i: usize| to_poly(&case.polys[i]);
        let mut out = Output::default();
        let nonce = |b: &[u8]| u16::from_le_bytes([b[b.len() - 2], b[b.len() - 1]]);
        match check {
            Ntt => {
                let mut a = poly(0);
                t.ntt(&mut a);
                out.polys = polys(&[self.to_canonical(&a)]);
            }
            InvnttTomont => {
                let mut a = self.to_own_order(&poly(0));
                t.invntt_tomont(&mut a);
                out.polys = polys(&[a]);
            }
            Reduce | Caddq | Shiftl => {
                let mut a = poly(0);
                match check {
                    Reduce => t.reduce(&mut a),
                    Caddq => t.caddq(&mut a),
                    _ => t.shiftl(&mut a),
                }
                out.polys = polys(&[a]);
            }
            // Coefficient-wise: no reordering needed.
            Pointwise => out.polys = polys(&[t.pointwise(&poly(0), &poly(1))]),
            PointwiseAcc(p) => {
                let v: Vec<Poly> = (0..2 * p.l).map(poly).collect();
                out.polys = polys(&[t.pointwise_acc(&v[..p.l], &v[p.l..])]);
            }
            Add => out.polys = polys(&[t.add(&poly(0), &poly(1))]),
            Sub => out.polys = polys(&[t.sub(&poly(0), &poly(1))]),
            Power2Round => {
                let (x, y) = t.power2round(&poly(0));
                out.polys = polys(&[x, y]);
            }
            Decompose(_) => {
                let (x, y) = t.decompose(&poly(0));
                out.polys = polys(&[x, y]);
            }
            MakeHint(_) => {
                let (h, n) = t.make_hint(&poly(0), &poly(1));
                out.polys = polys(&[h]);
                out.scalar = i64::from(n);
            }
            UseHint(_) => out.polys = polys(&[t.use_hint(&poly(0), &poly(1))]),
            Chknorm => out.scalar = i64::from(t.chknorm(&poly(0), case.scalar as i32)),
            RejUniform => {
                if case.bytes.len() != AVX2_REJ_UNIFORM_BUFLEN {
                    return None;
                }
                let v = t.rej_uniform_avx(&case.bytes)?;
                out.scalar = v.len() as i64;
                out.polys = vec![v];
            }
            RejEta(_) => {
                if !t.is_avx2() || case.bytes.len() != t.avx2_rej_eta_buflen() {
                    return None;
                }
                let v = t.rej_eta_avx(&case.bytes)?;
                out.scalar = v.len() as i64;
                out.polys = vec![v];
            }
            PolyUniform => out.polys = polys(&[t.uniform(&case.bytes[..32], nonce(&case.bytes))]),
            PolyUniformEta(_) => {
                out.polys = polys(&[t.uniform_eta(&case.bytes[..64], nonce(&case.bytes))])
            }
            PolyUniformGamma1(_) => {
                out.polys = polys(&[t.uniform_gamma1(&case.bytes[..64], nonce(&case.bytes))])
            }
            Challenge(_) => out.polys = polys(&[t.challenge(&case.bytes)]),
            ExpandA(_) => {
                let m: Vec<Poly> = t
                    .matrix_expand(&case.bytes)
                    .iter()
                    .map(|a| self.to_canonical(a))
                    .collect();
                out.polys = polys(&m);
            }
            PackT1 => out.bytes = t.pack_t1(&poly(0)),
            PackT0 => out.bytes = t.pack_t0(&poly(0)),
            PackEta(_) => out.bytes = t.pack_eta(&poly(0)),
            PackZ(_) => out.bytes = t.pack_z(&poly(0)),
            PackW1(_) => out.bytes = t.pack_w1(&poly(0)),
            UnpackT1 => out.polys = polys(&[t.unpack_t1(&case.bytes)]),
            UnpackT0 => out.polys = polys(&[t.unpack_t0(&case.bytes)]),
            UnpackZ(_) => out.polys = polys(&[t.unpack_z(&case.bytes)]),
            // C's polyeta_unpack does no range check: only in-range encodings are comparable.
            UnpackEta(e) => {
                let a = t.unpack_eta(&case.bytes);
                let ok = a.coeffs.iter().all(|c| c.abs() <= e.value());
                if !ok {
                    return None;
                }
                out.polys = polys(&[a]);
                out.verdict = "in range".into();
            }
            PackHint(p) => {
                let h: Vec<Poly> = (0..p.k).map(poly).collect();
                out.bytes = t.pack_hint(&h);
            }
            UnpackHint(_) => {
                let (ok, h) = t.unpack_hint(&case.bytes);
                out.verdict = if ok { "accept".into() } else { "reject".into() };
                if ok {
                    out.polys = polys(&h);
                }
            }
            Keccak => {
                // The single permutation in lane 0 of the 4-way one (other lanes zero).
                let one = lanes::<25>(&case.bytes);
                let mut s = [0u64; 100];
                one.iter().enumerate().for_each(|(i, &w)| s[4 * i] = w);
                if !t.keccak_x4(&mut s) {
                    return None;
                }
                out.bytes = (0..25).flat_map(|i| s[4 * i].to_le_bytes()).collect();
            }
            KeccakX4 => {
                let mut s = lanes::<100>(&case.bytes);
                if !t.keccak_x4(&mut s) {
                    return None;
                }
                out.bytes = s.iter().flat_map(|w| w.to_le_bytes()).collect();
            }
            KeccakX4x2 => {
                let mut s0 = lanes::<100>(&case.bytes[..800]);
                let mut s1 = lanes::<100>(&case.bytes[800..]);
                if !t.keccak_x4(&mut s0) || !t.keccak_x4(&mut s1) {
                    return None;
                }
                out.bytes = s0.iter().chain(&s1).flat_map(|w| w.to_le_bytes()).collect();
            }
            Keygen(_) => {
                let (pk, sk) = crate::rng::with_script(&case.bytes, || t.keypair()).ok()?;
                out.bytes = [pk, sk].concat();
            }
            Sign(_) | SignMalformedKey(_) => {
                let sig =
                    crate::rng::with_script(&case.rnd, || t.sign(&case.sk, &case.msg, &case.ctx))
                        .ok()?;
                match sig {
                    Some(s) => {
                        out.bytes = s;
                        out.verdict = "signed".into();
                    }
                    None => out.verdict = "error: C signing failed".into(),
                }
            }
            Verify(_) => {
                let ok = t.verify(&case.pk, &case.msg, &case.ctx, &case.sig);
                out.scalar = i64::from(ok);
                out.verdict = if ok { "accept".into() } else { "reject".into() };
            }
        }
        Some(out)
    }
}

/// Every implementation available here: the Rust backends first (portable is the
/// reference), then the C variants.
pub fn available() -> Vec<Box<dyn Oracle>> {
    let mut v: Vec<Box<dyn Oracle>> = Vec::new();
    for kind in BackendKind::available() {
        v.push(Box::new(
            RustOracle::new(kind).expect("listed as available"),
        ));
    }
    for variant in Variant::ALL {
        if let Some(o) = COracle::new(variant) {
            v.push(Box::new(o));
        }
    }
    v
}

/// Canonical representative in [0, q).
pub fn canonical(x: i32) -> i32 {
    x.rem_euclid(Q)
}
