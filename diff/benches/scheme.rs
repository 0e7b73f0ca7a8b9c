//! keygen / sign / verify for ML-DSA-44/65/87: every mldsa backend on this machine, and
//! PQClean's C code (clean, plus AVX2 or aarch64 where present), libcrux's AVX2 path and
//! mldsa-native's native build in the same run, on the same inputs. Signing uses the same rnd on both sides (the C code's rnd is scripted), so
//! both run the same number of rejection-loop iterations.
//!
//! Summarise with `scripts/bench-table.py` (median times and ratios).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mldsa::{BackendKind, ML_DSA_44, ML_DSA_65, ML_DSA_87, raw};
use mldsa_diff::impls::pqclean::Variant;
use mldsa_diff::rng::with_script;
use std::hint::black_box;
use std::time::Duration;

mod common;
use common::{CTX, Fixture, MSG};

fn bench(c: &mut Criterion) {
    assert!(
        mldsa_diff::rng::scripting_active(),
        "{}",
        mldsa_diff::rng::require_scripting().unwrap_err()
    );
    for p in [ML_DSA_44, ML_DSA_65, ML_DSA_87] {
        let f = Fixture::new(&p);
        let (xi, rnd, m_prime) = (f.xi, f.rnd, f.m_prime());
        let (pk, sk, sig) = (&f.pk[..], &f.sk[..], &f.sig[..]);

        for (op, n) in [("keygen", 0u8), ("sign", 1), ("verify", 2)] {
            let mut g = c.benchmark_group(format!("{op}/{}", p.name));
            g.warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(2))
                .sample_size(50);
            for kind in BackendKind::available() {
                let (mut pk2, mut sk2, mut sig2) = (
                    vec![0u8; p.pk_bytes()],
                    vec![0u8; p.sk_bytes()],
                    vec![0u8; p.sig_bytes()],
                );
                g.bench_function(BenchmarkId::new(format!("mldsa-{kind}"), ""), |b| match n {
                    0 => b.iter(|| {
                        raw::keygen_internal(kind, &p, black_box(&xi), &mut pk2, &mut sk2).unwrap()
                    }),
                    1 => b.iter(|| {
                        raw::sign_internal(kind, &p, black_box(sk), &m_prime, &rnd, &mut sig2)
                            .unwrap()
                    }),
                    _ => b.iter(|| {
                        raw::verify_internal(kind, &p, black_box(pk), &m_prime, sig).unwrap()
                    }),
                });
            }
            for v in Variant::ALL {
                let Some(t) = v.for_params(&p) else { continue };
                g.bench_function(
                    BenchmarkId::new(format!("pqclean-{}", &v.name()[2..]), ""),
                    |b| match n {
                        0 => b.iter(|| with_script(black_box(&xi), || t.keypair()).unwrap()),
                        1 => b.iter(|| {
                            with_script(&rnd, || t.sign(black_box(sk), MSG, CTX))
                                .unwrap()
                                .unwrap()
                        }),
                        _ => b.iter(|| {
                            assert_eq!(t.verify(black_box(pk), MSG, CTX, sig), Some(true))
                        }),
                    },
                );
            }
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                libcrux::bench(&mut g, &p, n, &xi, &rnd, sig);
            }
            native(&mut g, &p, n, &xi, &rnd, sig);
            g.finish();
        }
    }
}

/// mldsa-native's native build (AVX2 on x86_64, its aarch64 backend) through its oracle
/// wrapper, where this CPU runs it: the same inputs, its signature checked against ours
/// before timing. The wrapper's copies of keys and signatures into `Vec`s are timed with
/// it (a few hundred nanoseconds beside tens of microseconds).
fn native(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    p: &mldsa::Params,
    n: u8,
    xi: &[u8; 32],
    rnd: &[u8; 32],
    sig: &[u8],
) {
    use mldsa_diff::impls::mldsa_native;
    use mldsa_diff::oracle::{Key, Msg};
    let Some(o) = common::native_oracle() else {
        return;
    };
    const OK: &str = "mldsa-native answers";
    let (pk, sk) = o.keygen(p, xi).expect(OK).expect(OK);
    let m = Msg::Pure { msg: MSG, ctx: CTX };
    let key = Key::expanded(&sk);
    let s = o.sign(p, key, m, rnd).expect(OK).expect(OK);
    assert_eq!(s, sig, "mldsa-native and mldsa disagree");
    g.bench_function(
        BenchmarkId::new(mldsa_native::NATIVE_NAME, ""),
        |b| match n {
            0 => b.iter(|| o.keygen(p, black_box(xi))),
            1 => b.iter(|| o.sign(p, black_box(key), m, rnd)),
            _ => b.iter(|| o.verify(p, black_box(&pk), m, sig)),
        },
    );
}

/// libcrux-ml-dsa's AVX2 path on the same inputs (same xi, same rnd; its signature must equal
/// ours, which is checked before timing).
#[cfg(target_arch = "x86_64")]
mod libcrux {
    use super::{CTX, MSG};
    use criterion::{BenchmarkGroup, BenchmarkId, measurement::WallTime};
    use std::hint::black_box;

    macro_rules! set {
        ($g:expr, $n:expr, $xi:expr, $rnd:expr, $sig:expr, $m:ident) => {{
            use libcrux_ml_dsa::$m::avx2 as imp;
            let kp = imp::generate_key_pair(*$xi);
            let s = imp::sign(&kp.signing_key, MSG, CTX, *$rnd).expect("libcrux signs");
            assert_eq!(s.as_ref(), $sig, "libcrux and mldsa disagree");
            $g.bench_function(BenchmarkId::new("libcrux-avx2", ""), |b| match $n {
                0 => b.iter(|| imp::generate_key_pair(black_box(*$xi))),
                1 => b.iter(|| imp::sign(black_box(&kp.signing_key), MSG, CTX, *$rnd).unwrap()),
                _ => b.iter(|| imp::verify(black_box(&kp.verification_key), MSG, CTX, &s).unwrap()),
            });
        }};
    }

    pub(super) fn bench(
        g: &mut BenchmarkGroup<'_, WallTime>,
        p: &mldsa::Params,
        n: u8,
        xi: &[u8; 32],
        rnd: &[u8; 32],
        sig: &[u8],
    ) {
        match p.name {
            "ML-DSA-44" => set!(g, n, xi, rnd, sig, ml_dsa_44),
            "ML-DSA-65" => set!(g, n, xi, rnd, sig, ml_dsa_65),
            _ => set!(g, n, xi, rnd, sig, ml_dsa_87),
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
