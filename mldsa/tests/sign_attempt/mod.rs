//! One attempt of ML-DSA.Sign_internal (FIPS 204 Alg. 7, lines 11-28) recomputed outside
//! the signer, with the backend's own kernels, so that `secret_wipes.rs` knows what an
//! attempt that was never output left in the signer's buffers: NTT(c) and the scratch
//! polynomial of the last rejected attempt when every attempt is rejected. The model is
//! checked against the signer where it can be: the attempt it finds accepted must give the
//! signature's c~ and z ([`accepted`]).
#![allow(dead_code)]

use mldsa::backend::{AnyBackend, Backend};
use mldsa::params::Params;
use mldsa::poly::Poly;
use mldsa::sample::{self, Matrix};
use mldsa::{BackendKind, with_backend};

/// Why an attempt was rejected (Alg. 7 lines 23 and 28), and in which row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rejected {
    /// ||z|| >= gamma1 - beta.
    Z,
    /// ||r0|| >= gamma2 - beta in row i.
    R0(usize),
    /// ||c t0|| >= gamma2 in row i.
    Ct0(usize),
    /// More than omega hints.
    Hints,
}

/// What an attempt computed, as the signer (mldsa/src/scheme.rs, `sign_mu`) holds it.
pub(crate) struct Attempt {
    /// c~ = H(mu || w1Encode(w1)).
    pub(crate) ctilde: Vec<u8>,
    /// NTT(c), in the backend's NTT order.
    pub(crate) chat: [i32; 256],
    /// y, and z = y + c s1 (the rows computed before a rejection).
    pub(crate) y: Vec<[i32; 256]>,
    pub(crate) z: Vec<[i32; 256]>,
    /// The signer's scratch polynomial when the attempt ended: w's last row, then c s2 or
    /// c t0 of the row last computed, then the last row's hint.
    pub(crate) scratch: [i32; 256],
    /// None: accepted.
    pub(crate) rejected: Option<Rejected>,
}

/// The decoded key and the matrix an attempt needs (skDecode, ExpandA, rho'').
pub(crate) struct Signer {
    kind: BackendKind,
    p: Params,
    mat: Box<Matrix>,
    s1hat: Vec<Poly>,
    s2hat: Vec<Poly>,
    t0hat: Vec<Poly>,
    rhopp: [u8; 64],
    mu: [u8; 64],
}

impl Signer {
    /// The signer of `sk` on `kind`, for (mu, rnd).
    pub(crate) fn new(
        kind: BackendKind,
        p: Params,
        sk: &[u8],
        mu: &[u8; 64],
        rnd: &[u8; 32],
    ) -> Self {
        let any = AnyBackend::new(kind).expect("an available backend");
        let eb = p.eta.poly_eta_bytes();
        let (s1_at, t0_at) = (128, 128 + (p.k + p.l) * eb);
        let rho: [u8; 32] = sk[..32].try_into().unwrap();
        let rhopp: [u8; 64] = super::residue::shake256(&[&sk[32..64], rnd, mu], 64)
            .try_into()
            .unwrap();
        let mut mat: Box<Matrix> = Box::new([[Poly::ZERO; 7]; 8]);
        let mut s = vec![Poly::ZERO; p.k + p.l];
        let mut t0hat = vec![Poly::ZERO; p.k];
        with_backend!(any, |b| {
            sample::expand_a(b, &p, &rho, &mut mat);
            for (i, x) in s.iter_mut().enumerate() {
                let at = s1_at + i * eb;
                assert!(b.unpack_eta(p.eta, x, &sk[at..at + eb]), "s in range");
                b.ntt(x);
            }
            for (i, x) in t0hat.iter_mut().enumerate() {
                b.unpack_t0(x, &sk[t0_at + i * 416..t0_at + (i + 1) * 416]);
                b.ntt(x);
            }
        });
        let s2hat = s.split_off(p.l);
        Signer {
            kind,
            p,
            mat,
            s1hat: s,
            s2hat,
            t0hat,
            rhopp,
            mu: *mu,
        }
    }

    /// Attempt number `n` (0-based: its y is ExpandMask(rho'', n l)).
    pub(crate) fn attempt(&self, n: u16) -> Attempt {
        let any = AnyBackend::new(self.kind).expect("an available backend");
        with_backend!(any, |b| self.attempt_on(b, n))
    }

    fn attempt_on<B: Backend>(&self, b: B, n: u16) -> Attempt {
        let (p, k, l) = (&self.p, self.p.k, self.p.l);
        let g2 = p.gamma2;
        let mut y = vec![Poly::ZERO; l];
        sample::expand_mask(b, p, &self.rhopp, n * l as u16, &mut y);
        let mut yhat = y.clone();
        yhat.iter_mut().for_each(|x| b.ntt(x));
        let (mut w1, mut w0) = (vec![Poly::ZERO; k], vec![Poly::ZERO; k]);
        let w1b = g2.poly_w1_bytes();
        let mut w1_packed = vec![0u8; k * w1b];
        let mut tmp = Poly::ZERO;
        for r in 0..k {
            b.pointwise_acc_montgomery(&mut tmp, &self.mat[r][..l], &yhat);
            b.reduce(&mut tmp);
            b.invntt_tomont(&mut tmp);
            b.caddq(&mut tmp);
            b.decompose(g2, &mut w1[r], &mut w0[r], &tmp);
            b.pack_w1(g2, &mut w1_packed[r * w1b..(r + 1) * w1b], &w1[r]);
        }
        let ctilde = super::residue::shake256(&[&self.mu, &w1_packed], p.ctilde_bytes());
        let mut chat = sample::sample_in_ball(b, &ctilde, p.tau);
        b.ntt(&mut chat);
        let mut out = Attempt {
            ctilde,
            chat: chat.coeffs,
            y: y.iter().map(|x| x.coeffs).collect(),
            z: Vec::new(),
            scratch: [0; 256],
            rejected: None,
        };
        out.rejected = 'checks: {
            for i in 0..l {
                let mut z = Poly::ZERO;
                b.pointwise_montgomery(&mut z, &chat, &self.s1hat[i]);
                b.invntt_tomont(&mut z);
                b.add(&mut z, &y[i]);
                b.reduce(&mut z);
                out.z.push(z.coeffs);
                if b.chknorm(&z, p.gamma1.value() - p.beta) {
                    break 'checks Some(Rejected::Z);
                }
            }
            for i in 0..k {
                b.pointwise_montgomery(&mut tmp, &chat, &self.s2hat[i]);
                b.invntt_tomont(&mut tmp);
                b.sub(&mut w0[i], &tmp);
                b.reduce(&mut w0[i]);
                if b.chknorm(&w0[i], g2.value() - p.beta) {
                    break 'checks Some(Rejected::R0(i));
                }
            }
            let mut ones = 0;
            for i in 0..k {
                b.pointwise_montgomery(&mut tmp, &chat, &self.t0hat[i]);
                b.invntt_tomont(&mut tmp);
                b.reduce(&mut tmp);
                if b.chknorm(&tmp, g2.value()) {
                    break 'checks Some(Rejected::Ct0(i));
                }
                b.add(&mut w0[i], &tmp);
                ones += b.make_hint(g2, &mut tmp, &w0[i], &w1[i]);
            }
            (ones > p.omega).then_some(Rejected::Hints)
        };
        out.scratch = tmp.coeffs;
        out
    }

    /// The first attempt the model accepts, checked against `sig` (the signer's signature
    /// for the same key, mu and rnd): its c~ and its z as sigEncode packs it.
    pub(crate) fn accepted(&self, sig: &[u8]) -> (u16, Attempt) {
        let p = &self.p;
        let any = AnyBackend::new(self.kind).expect("an available backend");
        for n in 0..mldsa::MAX_SIGNING_ATTEMPTS {
            let a = self.attempt(n);
            if a.rejected.is_some() {
                continue;
            }
            let cb = p.ctilde_bytes();
            assert_eq!(a.ctilde, sig[..cb], "the model's c~ is the signature's");
            let zb = p.gamma1.poly_z_bytes();
            for (i, z) in a.z.iter().enumerate() {
                let mut enc = vec![0u8; zb];
                with_backend!(any, |b| b.pack_z(
                    p.gamma1,
                    &mut enc,
                    &Poly::from_coeffs(*z)
                ));
                assert_eq!(
                    enc,
                    sig[cb + i * zb..cb + (i + 1) * zb],
                    "the model's z is the signature's"
                );
            }
            return (n, a);
        }
        panic!("the model rejects every attempt the signer accepted one of");
    }
}
