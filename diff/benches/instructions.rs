//! Instruction counts (callgrind, through gungraun) of keygen / sign / verify for
//! ML-DSA-44/65/87: the portable backend, the best backend on this machine, and PQClean's C
//! code (clean, and its AVX2 or aarch64 build where present) side by side, on the same
//! inputs (the C code's randomness scripted to the same xi and rnd). Counts, unlike times,
//! are stable on a shared runner: `scripts/bench-compare.sh` runs this on a pull request's
//! base and head and tables the ratios. Needs valgrind and `gungraun-runner` of the same
//! version as the `gungraun` dev-dependency.

use gungraun::{library_benchmark, library_benchmark_group, main};
use mldsa::{BackendKind, Params, raw};
use mldsa_diff::impls::pqclean::Variant;
use mldsa_diff::rng::with_script;
use std::hint::black_box;

const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, 59 bytes long.";
const CTX: &[u8] = b"bench";
const XI: [u8; 32] = [0x11; 32];
const RND: [u8; 32] = [0x22; 32];

/// Who runs: this crate's backend `kind`, or PQClean's variant (`best`: its AVX2 or aarch64
/// build when this machine has one, else clean).
#[derive(Clone, Copy)]
enum Who {
    Ours(BackendKind),
    PqClean { best: bool },
}

fn params(set: u16) -> Params {
    match set {
        44 => mldsa::ML_DSA_44,
        65 => mldsa::ML_DSA_65,
        _ => mldsa::ML_DSA_87,
    }
}

fn best_c() -> Variant {
    *Variant::ALL
        .iter()
        .rev()
        .find(|v| v.tables().is_some())
        .unwrap_or(&Variant::ALL[0])
}

/// The inputs, made before measuring: (params, pk, sk, signature, who).
struct Inputs(Params, Vec<u8>, Vec<u8>, Vec<u8>, Who);

fn inputs(set: u16, who: &str) -> Inputs {
    assert!(
        mldsa_diff::rng::scripting_active(),
        "{}",
        mldsa_diff::rng::require_scripting().unwrap_err()
    );
    let p = params(set);
    let (pk, sk) = mldsa_diff::check::e2e::keygen(&p, &XI);
    let pre = raw::pure_prefix(CTX).unwrap();
    let mut sig = vec![0u8; p.sig_bytes()];
    raw::sign_internal(
        BackendKind::Portable,
        &p,
        &sk,
        &[&pre, CTX, MSG],
        &RND,
        &mut sig,
    )
    .unwrap();
    let who = match who {
        "portable" => Who::Ours(BackendKind::Portable),
        "best" => Who::Ours(BackendKind::best()),
        "c-clean" => Who::PqClean { best: false },
        _ => Who::PqClean { best: true },
    };
    Inputs(p, pk, sk, sig, who)
}

fn c_table(p: &Params, best: bool) -> &'static mldsa_diff::impls::pqclean::CKernels {
    let v = if best { best_c() } else { Variant::ALL[0] };
    v.for_params(p).expect("PQClean has every parameter set")
}

#[library_benchmark]
#[benches::each(
    setup = inputs,
    args = [
        (44, "portable"), (44, "best"), (44, "c-clean"), (44, "c-best"),
        (65, "portable"), (65, "best"), (65, "c-clean"), (65, "c-best"),
        (87, "portable"), (87, "best"), (87, "c-clean"), (87, "c-best"),
    ]
)]
fn keygen(Inputs(p, .., who): Inputs) {
    match who {
        Who::Ours(kind) => {
            let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
            raw::keygen_internal(kind, &p, black_box(&XI), &mut pk, &mut sk).unwrap();
            black_box((pk, sk));
        }
        Who::PqClean { best } => {
            let t = c_table(&p, best);
            black_box(with_script(black_box(&XI), || t.keypair()).unwrap());
        }
    }
}

#[library_benchmark]
#[benches::each(
    setup = inputs,
    args = [
        (44, "portable"), (44, "best"), (44, "c-clean"), (44, "c-best"),
        (65, "portable"), (65, "best"), (65, "c-clean"), (65, "c-best"),
        (87, "portable"), (87, "best"), (87, "c-clean"), (87, "c-best"),
    ]
)]
fn sign(Inputs(p, _, sk, want, who): Inputs) {
    match who {
        Who::Ours(kind) => {
            let pre = raw::pure_prefix(CTX).unwrap();
            let mut sig = vec![0u8; p.sig_bytes()];
            raw::sign_internal(kind, &p, black_box(&sk), &[&pre, CTX, MSG], &RND, &mut sig)
                .unwrap();
            assert_eq!(sig, want);
        }
        Who::PqClean { best } => {
            let t = c_table(&p, best);
            let sig = with_script(&RND, || t.sign(black_box(&sk), MSG, CTX))
                .unwrap()
                .unwrap();
            assert_eq!(sig, want);
        }
    }
}

#[library_benchmark]
#[benches::each(
    setup = inputs,
    args = [
        (44, "portable"), (44, "best"), (44, "c-clean"), (44, "c-best"),
        (65, "portable"), (65, "best"), (65, "c-clean"), (65, "c-best"),
        (87, "portable"), (87, "best"), (87, "c-clean"), (87, "c-best"),
    ]
)]
fn verify(Inputs(p, pk, _, sig, who): Inputs) {
    match who {
        Who::Ours(kind) => {
            let pre = raw::pure_prefix(CTX).unwrap();
            raw::verify_internal(kind, &p, black_box(&pk), &[&pre, CTX, MSG], &sig).unwrap();
        }
        Who::PqClean { best } => {
            let t = c_table(&p, best);
            assert_eq!(t.verify(black_box(&pk), MSG, CTX, &sig), Some(true));
        }
    }
}

library_benchmark_group!(name = scheme; benchmarks = keygen, sign, verify);

main!(library_benchmark_groups = scheme);
