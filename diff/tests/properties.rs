//! Algebraic laws of the kernels and the scheme, checked with proptest on every Rust backend
//! available here: NTT round trip, Decompose/Power2Round reconstruction, the hint law of
//! FIPS 204 (UseHint recovers the high bits MakeHint protects), pack/unpack round trips,
//! and sign-then-verify.

use mldsa::backend::{AnyBackend, Backend, BackendKind};
use mldsa::params::{Eta, Gamma1, Gamma2, N, Q};
use mldsa::poly::Poly;
use mldsa::with_backend;
use proptest::prelude::*;
// Links the workspace's getrandom provider (proptest uses getrandom 0.3).
use mldsa_diff as _;

fn backends() -> Vec<AnyBackend> {
    BackendKind::available()
        .map(|k| AnyBackend::new(k).unwrap())
        .collect()
}

fn poly_in(lo: i32, hi: i32) -> impl Strategy<Value = Poly> {
    proptest::collection::vec(lo..=hi, N).prop_map(|v| Poly::from_coeffs(v.try_into().unwrap()))
}

const MONT: i64 = (1i64 << 32) % Q as i64;

fn gamma2() -> impl Strategy<Value = Gamma2> {
    prop_oneof![Just(Gamma2::QMinus1Over88), Just(Gamma2::QMinus1Over32)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn ntt_then_inverse_is_identity_times_2_32(a in poly_in(-(Q - 1), Q - 1)) {
        for any in backends() {
            with_backend!(any, |b| {
                let mut x = a;
                b.ntt(&mut x);
                b.reduce(&mut x);
                b.invntt_tomont(&mut x);
                for i in 0..N {
                    let want = (i64::from(a.coeffs[i]) * MONT).rem_euclid(Q as i64);
                    prop_assert_eq!(i64::from(x.coeffs[i]).rem_euclid(Q as i64), want);
                }
            });
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn ntt_turns_negacyclic_product_into_pointwise(a in poly_in(-9, 9), c in poly_in(-1, 1)) {
        // Schoolbook a * c mod (X^256 + 1) against NTT^-1(NTT(a) o NTT(c)).
        let mut want = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let t = i64::from(a.coeffs[i]) * i64::from(c.coeffs[j]);
                if i + j < N { want[i + j] += t } else { want[i + j - N] -= t }
            }
        }
        for any in backends() {
            with_backend!(any, |b| {
                let (mut x, mut y, mut z) = (a, c, Poly::ZERO);
                b.ntt(&mut x);
                b.ntt(&mut y);
                b.pointwise_montgomery(&mut z, &x, &y);
                b.invntt_tomont(&mut z);
                for i in 0..N {
                    prop_assert_eq!(i64::from(z.coeffs[i]).rem_euclid(Q as i64), want[i].rem_euclid(Q as i64));
                }
            });
        }
    }

    #[test]
    fn decompose_and_power2round_reconstruct(a in poly_in(0, Q - 1), g in gamma2()) {
        for any in backends() {
            with_backend!(any, |b| {
                let (mut a1, mut a0) = (Poly::ZERO, Poly::ZERO);
                b.decompose(g, &mut a1, &mut a0, &a);
                let (mut t1, mut t0) = (Poly::ZERO, Poly::ZERO);
                b.power2round(&mut t1, &mut t0, &a);
                for i in 0..N {
                    let r = i64::from(a1.coeffs[i]) * 2 * i64::from(g.value()) + i64::from(a0.coeffs[i]);
                    prop_assert_eq!(r.rem_euclid(Q as i64), i64::from(a.coeffs[i]));
                    prop_assert_eq!(t1.coeffs[i] * (1 << 13) + t0.coeffs[i], a.coeffs[i]);
                }
            });
        }
    }

    #[test]
    fn use_hint_recovers_what_make_hint_protects(v in poly_in(0, Q - 1), t in poly_in(-(95_232 - 1), 95_232 - 1), g in gamma2()) {
        // Signing's situation: v = w - c s2 with |LowBits(v)| < gamma2 - beta, and
        // r = v + c t0 with |c t0| < gamma2. Then UseHint(MakeHint(..), r) = HighBits(v).
        let beta = 196;
        for any in backends() {
            with_backend!(any, |b| {
                let (mut v1, mut v0) = (Poly::ZERO, Poly::ZERO);
                b.decompose(g, &mut v1, &mut v0, &v);
                let mut a0 = Poly::ZERO;
                let mut r = Poly::ZERO;
                for i in 0..N {
                    let small = v0.coeffs[i].abs() < g.value() - beta;
                    // Keep the law's premise: skip coefficients whose low bits are too large.
                    let tt = if small { t.coeffs[i] % g.value() } else { 0 };
                    a0.coeffs[i] = v0.coeffs[i] + tt;
                    r.coeffs[i] = (v.coeffs[i] + tt).rem_euclid(Q);
                }
                let mut h = Poly::ZERO;
                b.make_hint(g, &mut h, &a0, &v1);
                let mut got = Poly::ZERO;
                b.use_hint(g, &mut got, &r, &h);
                for i in 0..N {
                    if v0.coeffs[i].abs() < g.value() - beta {
                        prop_assert_eq!(got.coeffs[i], v1.coeffs[i], "coefficient {}", i);
                    }
                }
            });
        }
    }

    #[test]
    fn pack_unpack_round_trips(t1 in poly_in(0, 1023), t0 in poly_in(-4095, 4096),
                               e2 in poly_in(-2, 2), e4 in poly_in(-4, 4),
                               z17 in poly_in(-(1 << 17) + 1, 1 << 17), z19 in poly_in(-(1 << 19) + 1, 1 << 19)) {
        for any in backends() {
            with_backend!(any, |b| {
                let mut buf = vec![0u8; 640];
                let mut back = Poly::ZERO;
                b.pack_t1(&mut buf[..320], &t1);
                b.unpack_t1(&mut back, &buf[..320]);
                prop_assert_eq!(back, t1);
                b.pack_t0(&mut buf[..416], &t0);
                b.unpack_t0(&mut back, &buf[..416]);
                prop_assert_eq!(back, t0);
                for (e, s) in [(Eta::Two, e2), (Eta::Four, e4)] {
                    let n = e.poly_eta_bytes();
                    b.pack_eta(e, &mut buf[..n], &s);
                    prop_assert!(b.unpack_eta(e, &mut back, &buf[..n]));
                    prop_assert_eq!(back, s);
                }
                for (g, z) in [(Gamma1::Pow17, z17), (Gamma1::Pow19, z19)] {
                    let n = g.poly_z_bytes();
                    b.pack_z(g, &mut buf[..n], &z);
                    b.unpack_z(g, &mut back, &buf[..n]);
                    prop_assert_eq!(back, z);
                }
            });
        }
    }

    #[test]
    fn hint_pack_unpack_round_trips(positions in proptest::collection::btree_set((0usize..8, 0usize..N), 0..=75)) {
        for p in mldsa::params::ALL_PARAMS {
            let mut h = vec![Poly::ZERO; p.k];
            for &(i, j) in positions.iter().filter(|(i, _)| *i < p.k).take(p.omega) {
                h[i].coeffs[j] = 1;
            }
            for any in backends() {
                with_backend!(any, |b| {
                    let mut buf = vec![0u8; p.omega + p.k];
                    b.pack_hint(&mut buf, &h, p.omega);
                    let mut back = vec![Poly::ZERO; p.k];
                    prop_assert!(b.unpack_hint(&mut back, &buf, p.omega).is_ok());
                    prop_assert_eq!(&back, &h);
                });
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn sign_then_verify(xi in any::<[u8; 32]>(), rnd in any::<[u8; 32]>(), msg in proptest::collection::vec(any::<u8>(), 0..300),
                        ctx in proptest::collection::vec(any::<u8>(), 0..=255), flip in any::<(usize, u8)>()) {
        for p in mldsa::params::ALL_PARAMS {
            for kind in BackendKind::available() {
                let (pk, sk) = mldsa_diff::check::e2e::keygen(&p, &xi);
                let pre = mldsa::raw::pure_prefix(&ctx).unwrap();
                let mut sig = vec![0u8; p.sig_bytes()];
                mldsa::raw::sign_internal(kind, &p, &sk, &[&pre, &ctx, &msg], &rnd, &mut sig).unwrap();
                prop_assert_eq!(mldsa::raw::verify_internal(kind, &p, &pk, &[&pre, &ctx, &msg], &sig), Ok(()));
                let mut bad = sig.clone();
                bad[flip.0 % p.ctilde_bytes()] ^= 1 << (flip.1 % 8);
                prop_assert!(mldsa::raw::verify_internal(kind, &p, &pk, &[&pre, &ctx, &msg], &bad).is_err());
            }
        }
    }
}
