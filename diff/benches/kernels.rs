//! Kernel-level benchmarks per backend, with PQClean's C kernels in the same run: NTT,
//! inverse NTT, RejNTTPoly (SHAKE128 + rejection sampling, one polynomial), RejBoundedPoly
//! (SHAKE256 + rejection sampling, eta = 4, one polynomial), the bare rejection kernels
//! (840 bytes for `rej_uniform`, 136 bytes at eta = 2 for `rej_eta`; mldsa only), one-way
//! Keccak-f[1600] (mldsa only: PQClean does not export its permutation) and 4-way
//! Keccak-f[1600]; the coefficient-wise and rounding kernels (reduce, caddq, add,
//! Power2Round, Decompose, MakeHint, UseHint, the norm check; mldsa only).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mldsa::backend::{AnyBackend, Backend, BackendKind, Portable};
use mldsa::poly::Poly;
use mldsa::with_backend;
use mldsa_diff::Oracle;
use mldsa_diff::impls::pqclean::{CImpl, Variant};
use std::hint::black_box;
use std::time::Duration;

fn input() -> Poly {
    let mut p = Poly::ZERO;
    p.coeffs
        .iter_mut()
        .enumerate()
        .for_each(|(i, c)| *c = ((i as i32 * 7919) % 16_000_000) - 8_000_000);
    p
}

fn bench(c: &mut Criterion) {
    let a = input();
    let seed = [7u8; 34];
    let seed66 = [7u8; 66];
    // Inputs inside the packing contracts: t0 in (-2^12, 2^12], z in (-2^19, 2^19].
    let (mut t0, mut z) = (Poly::ZERO, Poly::ZERO);
    for i in 0..256 {
        t0.coeffs[i] = (i as i32 * 37) % 8191 - 4095;
        z.coeffs[i] = (i as i32 * 4099) % 1_048_575 - 524_287;
    }
    let (t0x5, zx5) = ([t0; 5], [z; 5]);
    // Their encodings, for the unpacking kernels.
    let (mut t0_packed, mut z_packed) = ([0u8; 416], [0u8; 640]);
    Portable.pack_t0(&mut t0_packed, &t0);
    Portable.pack_z(mldsa::params::Gamma1::Pow19, &mut z_packed, &z);
    // The rounding kernels' inputs (ML-DSA-65's gamma2): a in [0, q), a0 within 2 gamma2 with
    // a1 in [0, m), and hint bits.
    const G2: mldsa::params::Gamma2 = mldsa::params::Gamma2::QMinus1Over32;
    let (mut canonical, mut low, mut high, mut hint) =
        (Poly::ZERO, Poly::ZERO, Poly::ZERO, Poly::ZERO);
    for i in 0..256 {
        canonical.coeffs[i] = ((i as i64 * 5_237_111) % 8_380_417) as i32;
        low.coeffs[i] = (i as i32 * 1999) % 523_775 - 261_887;
        high.coeffs[i] = (i as i32 * 7) % 16;
        hint.coeffs[i] = ((i as i32 * 13) >> 3) & 1;
    }
    // Pseudo-random bytes for the bare rejection kernels (SHAKE128 output of the seed).
    let mut bytes = [0u8; 840];
    {
        use sha3::digest::{ExtendableOutput, Update, XofReader};
        let mut h = sha3::Shake128::default();
        h.update(&seed);
        h.finalize_xof().read(&mut bytes);
    }
    for name in [
        "ntt",
        "invntt_tomont",
        "poly_uniform",
        "poly_uniform_eta",
        "rej_uniform",
        "rej_eta",
        "pack_t0",
        "pack_z",
        "unpack_t0",
        "unpack_z",
        "keccak_f1600",
        "keccak_f1600_x4",
        "keccak_f1600_x4x2",
        "pointwise_montgomery",
        "pointwise_acc_montgomery",
        "reduce",
        "caddq",
        "add",
        "power2round",
        "decompose",
        "make_hint",
        "use_hint",
        "chknorm",
    ] {
        let mut g = c.benchmark_group(format!("kernel/{name}"));
        g.warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1))
            .sample_size(50);
        for kind in BackendKind::available() {
            let any = AnyBackend::new(kind).unwrap();
            g.bench_function(BenchmarkId::new(format!("mldsa-{kind}"), ""), |bch| {
                with_backend!(any, |b| match name {
                    "ntt" => bch.iter(|| {
                        let mut x = black_box(a);
                        b.ntt(&mut x);
                        x
                    }),
                    "invntt_tomont" => bch.iter(|| {
                        let mut x = black_box(a);
                        b.reduce(&mut x);
                        b.invntt_tomont(&mut x);
                        x
                    }),
                    "poly_uniform" => bch.iter(|| {
                        let mut x = Poly::ZERO;
                        mldsa::sample::poly_uniform(b, black_box(&seed), &mut x);
                        x
                    }),
                    "poly_uniform_eta" => bch.iter(|| {
                        let mut x = Poly::ZERO;
                        mldsa::sample::poly_uniform_eta(
                            b,
                            mldsa::params::Eta::Four,
                            black_box(&seed66),
                            &mut x,
                        );
                        x
                    }),
                    "rej_uniform" => bch.iter(|| {
                        let mut out = [0i32; 256];
                        let n = b.rej_uniform(&mut out, black_box(&bytes[..840]));
                        (n, out)
                    }),
                    "rej_eta" => bch.iter(|| {
                        let mut out = [0i32; 256];
                        let n =
                            b.rej_eta(mldsa::params::Eta::Two, &mut out, black_box(&bytes[..136]));
                        (n, out)
                    }),
                    "pack_t0" => bch.iter(|| {
                        let mut out = [0u8; 416];
                        b.pack_t0(&mut out, black_box(&t0));
                        out
                    }),
                    "pack_z" => bch.iter(|| {
                        let mut out = [0u8; 640];
                        b.pack_z(mldsa::params::Gamma1::Pow19, &mut out, black_box(&z));
                        out
                    }),
                    "unpack_t0" => bch.iter(|| {
                        let mut x = Poly::ZERO;
                        b.unpack_t0(&mut x, black_box(&t0_packed));
                        x
                    }),
                    "unpack_z" => bch.iter(|| {
                        let mut x = Poly::ZERO;
                        b.unpack_z(mldsa::params::Gamma1::Pow19, &mut x, black_box(&z_packed));
                        x
                    }),
                    "keccak_f1600" => bch.iter(|| {
                        let mut s = [1u64; 25];
                        b.keccak_f1600(black_box(&mut s));
                        s
                    }),
                    "pointwise_montgomery" => bch.iter(|| {
                        let mut x = Poly::ZERO;
                        b.pointwise_montgomery(&mut x, black_box(&t0), black_box(&z));
                        x
                    }),
                    "pointwise_acc_montgomery" => bch.iter(|| {
                        // One row of A times a vector, l = 5 (ML-DSA-65).
                        let mut x = Poly::ZERO;
                        b.pointwise_acc_montgomery(&mut x, black_box(&t0x5), black_box(&zx5));
                        x
                    }),
                    "reduce" => bch.iter(|| {
                        let mut x = black_box(a);
                        b.reduce(&mut x);
                        x
                    }),
                    "caddq" => bch.iter(|| {
                        let mut x = black_box(z);
                        b.caddq(&mut x);
                        x
                    }),
                    "add" => bch.iter(|| {
                        let mut x = black_box(z);
                        b.add(&mut x, black_box(&t0));
                        x
                    }),
                    "power2round" => bch.iter(|| {
                        let (mut hi, mut lo) = (Poly::ZERO, Poly::ZERO);
                        b.power2round(&mut hi, &mut lo, black_box(&canonical));
                        (hi, lo)
                    }),
                    "decompose" => bch.iter(|| {
                        let (mut hi, mut lo) = (Poly::ZERO, Poly::ZERO);
                        b.decompose(G2, &mut hi, &mut lo, black_box(&canonical));
                        (hi, lo)
                    }),
                    "make_hint" => bch.iter(|| {
                        let mut h = Poly::ZERO;
                        let n = b.make_hint(G2, &mut h, black_box(&low), black_box(&high));
                        (n, h)
                    }),
                    "use_hint" => bch.iter(|| {
                        let mut x = Poly::ZERO;
                        b.use_hint(G2, &mut x, black_box(&canonical), black_box(&hint));
                        x
                    }),
                    "chknorm" => bch.iter(|| b.chknorm(black_box(&z), black_box(1 << 19))),
                    "keccak_f1600_x4x2" => bch.iter(|| {
                        let (mut s, mut t) = ([1u64; 100], [2u64; 100]);
                        b.keccak_f1600_x4x2(black_box(&mut s), black_box(&mut t));
                        (s, t)
                    }),
                    _ => bch.iter(|| {
                        let mut s = [1u64; 100];
                        b.keccak_f1600_x4(black_box(&mut s));
                        s
                    }),
                })
            });
        }
        let p = &mldsa::ML_DSA_65;
        for v in Variant::ALL {
            let Some(c) = CImpl::new(v) else {
                continue;
            };
            let t = c.table(p);
            if name == "keccak_f1600_x4" && c.keccak_f1600_x4(p, [0; 100]).is_err() {
                continue; // only PQClean's AVX2 code has a 4-way permutation
            }
            if matches!(
                name,
                "keccak_f1600"
                    | "keccak_f1600_x4x2"
                    | "rej_uniform"
                    | "rej_eta"
                    | "pack_t0"
                    | "pack_z"
                    | "unpack_t0"
                    | "unpack_z"
                    | "pointwise_montgomery"
                    | "pointwise_acc_montgomery"
                    | "reduce"
                    | "caddq"
                    | "add"
                    | "power2round"
                    | "decompose"
                    | "make_hint"
                    | "use_hint"
                    | "chknorm"
            ) {
                continue; // not exported by PQClean without an allocation per call
            }
            const OK: &str = "the bench input is within the contract";
            // The NTTs in PQClean's own order, as its signing runs them: the oracle's reordering
            // to canonical order is not timed.
            g.bench_function(
                BenchmarkId::new(format!("pqclean-{}", &v.name()[2..]), ""),
                |bch| match name {
                    "ntt" => bch.iter(|| t.ntt(black_box(a)).expect(OK)),
                    "invntt_tomont" => bch.iter(|| {
                        let x = c.reduce(p, black_box(a)).expect(OK);
                        t.invntt_tomont(x).expect(OK)
                    }),
                    "poly_uniform" => bch.iter(|| c.poly_uniform(p, black_box(&seed))),
                    "poly_uniform_eta" => bch.iter(|| {
                        c.poly_uniform_eta(p, mldsa::params::Eta::Four, black_box(&seed66))
                    }),
                    _ => bch.iter(|| c.keccak_f1600_x4(p, black_box([1u64; 100]))),
                },
            );
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
