//! The constant-time test's harness. Run it under valgrind memcheck with
//! `scripts/ct-valgrind.sh`, which builds it (release, feature `ct-valgrind`) and fails on any
//! report.
//!
//! For each parameter set and each backend this machine has (`MLDSA_BACKEND` picks one), it
//! marks the secret inputs undefined through valgrind's client requests — xi for keygen; K,
//! s1, s2, t0 and rnd for signing (rho and tr are public) — runs KeyGen_internal, the typed
//! import of the expanded key (skDecode and its consistency check) and Sign_internal, then
//! marks the outputs (pk, signature) public and verifies the signature.
//! The library declassifies, at each place FIPS 204 lets information go, exactly that
//! information (`mldsa::ct`); any other branch or memory index that depends on a secret makes
//! valgrind report, and the run fail.
//!
//! `--branchy` shows that the test can fail: it signs on a backend defined here, the portable
//! kernels with a `decompose` that branches on a coefficient (FIPS 204 Alg. 36 as written),
//! on which valgrind must report.
//!
//! Usage: ct_valgrind [--branchy] [--keys N] [--sigs N]

use mldsa::backend::{Backend, BackendKind};
use mldsa::ct::valgrind;
use mldsa::params::{ALL_PARAMS, Gamma2, N, ParameterSet, Params, Q};
use mldsa::poly::Poly;
use mldsa::raw;
use mldsa::{MlDsa44, MlDsa65, MlDsa87, SigningKey};
use std::process::ExitCode;

/// The portable backend with a deliberately branchy `decompose`: the test must catch it.
#[derive(Clone, Copy, Debug)]
struct Branchy;

impl Backend for Branchy {
    const KIND: BackendKind = BackendKind::Portable;
    // Every other kernel is the trait's default: the portable one.
    fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        for i in 0..N {
            (a1.coeffs[i], a0.coeffs[i]) = branchy_decompose(g, a.coeffs[i]);
        }
    }
}

/// Decompose (FIPS 204 Alg. 36) as written, with its branch on r - r0 = q - 1: right, and
/// not constant time. (`black_box` keeps the compiler from turning the branch into a
/// conditional move, as a slow path would.)
#[inline(never)]
fn branchy_decompose(g: Gamma2, r: i32) -> (i32, i32) {
    let m = 2 * g.value();
    let mut r0 = r % m;
    if r0 > g.value() {
        r0 -= m;
    }
    if r - r0 == Q - 1 {
        std::hint::black_box((0, r0 - 1))
    } else {
        ((r - r0) / m, r0)
    }
}

/// Which backend runs: one of this crate's, or the branchy one.
#[derive(Clone, Copy)]
enum Run {
    Kind(BackendKind),
    Branchy,
}

impl Run {
    fn name(self) -> &'static str {
        match self {
            Run::Kind(k) => k.name(),
            Run::Branchy => "branchy (portable with a branching decompose)",
        }
    }
    fn keygen(self, p: &Params, xi: &[u8; 32], pk: &mut [u8], sk: &mut [u8]) {
        match self {
            Run::Kind(k) => raw::keygen_internal(k, p, xi, pk, sk),
            Run::Branchy => raw::keygen_internal_with(Branchy, p, xi, pk, sk),
        }
        .expect("keygen");
    }
    fn sign(self, p: &Params, sk: &[u8], m: &[&[u8]], rnd: &[u8; 32], sig: &mut [u8]) {
        match self {
            Run::Kind(k) => raw::sign_internal(k, p, sk, m, rnd, sig),
            Run::Branchy => raw::sign_internal_with(Branchy, p, sk, m, rnd, sig),
        }
        .expect("sign");
    }
}

/// Valgrind errors reported since the last call.
fn new_errors(seen: &mut usize) -> usize {
    let now = valgrind::error_count();
    let new = now - *seen;
    *seen = now;
    new
}

/// Test inputs: distinct, deterministic bytes.
fn bytes<const L: usize>(tag: u8, i: usize) -> [u8; L] {
    core::array::from_fn(|j| (j as u8).wrapping_mul(31) ^ tag ^ (i as u8).wrapping_mul(101))
}

/// Imports an expanded secret key through the typed API (skDecode and the consistency check
/// against the recomputed public key).
fn import(p: &Params, sk: &[u8]) {
    fn typed<P: ParameterSet>(sk: &[u8]) {
        SigningKey::<P>::from_expanded_bytes(sk).expect("a consistent key");
    }
    match p.name {
        "ML-DSA-44" => typed::<MlDsa44>(sk),
        "ML-DSA-65" => typed::<MlDsa65>(sk),
        "ML-DSA-87" => typed::<MlDsa87>(sk),
        other => unreachable!("parameter set {other}"),
    }
}

/// Prints the step's valgrind errors, if any; returns their number.
fn step(seen: &mut usize, what: std::fmt::Arguments) -> usize {
    let e = new_errors(seen);
    if e > 0 {
        println!("  {what}: {e} valgrind errors");
    }
    e
}

/// Keygen and signing on `run` for one parameter set; the number of valgrind errors.
fn one_set(run: Run, p: &Params, keys: usize, sigs: usize, seen: &mut usize) -> usize {
    let mut errors = 0;
    let (mut pk, mut sk, mut sig) = (
        vec![0u8; p.pk_bytes()],
        vec![0u8; p.sk_bytes()],
        vec![0u8; p.sig_bytes()],
    );
    let prefix = raw::pure_prefix(b"ct").expect("short context");
    for key in 0..keys {
        // KeyGen_internal: xi is the secret.
        let mut xi = bytes::<32>(0x11, key);
        valgrind::mark_secret(&mut xi);
        run.keygen(p, &xi, &mut pk, &mut sk);
        valgrind::mark_public(&mut pk[..]);
        errors += step(seen, format_args!("{} key {key}: keygen", p.name));

        // skEncode (FIPS 204 Alg. 24): rho (32) | K (32) | tr (64) | s1 | s2 | t0.
        valgrind::mark_public(&mut sk[..32]);
        valgrind::mark_secret(&mut sk[32..64]);
        valgrind::mark_public(&mut sk[64..128]);
        valgrind::mark_secret(&mut sk[128..]);
        import(p, &sk);
        errors += step(seen, format_args!("{} key {key}: import", p.name));
        for s in 0..sigs {
            // Sign_internal: K, s1, s2, t0 and rnd are the secrets; the message is public.
            let mut rnd = bytes::<32>(0x22, key * sigs + s);
            valgrind::mark_secret(&mut rnd);
            let msg = bytes::<40>(0x33, s);
            run.sign(p, &sk, &[&prefix, &msg], &rnd, &mut sig);
            valgrind::mark_public(&mut sig[..]);
            errors += step(
                seen,
                format_args!("{} key {key} signature {s}: sign", p.name),
            );
            // The signature must be right (on public values only: both are declassified).
            raw::verify_internal(BackendKind::Portable, p, &pk, &[&prefix, &msg], &sig)
                .expect("the signature verifies");
        }
    }
    errors
}

const USAGE: &str = "usage: ct_valgrind [--branchy] [--keys N] [--sigs N]
Run under valgrind (scripts/ct-valgrind.sh). Keygen and signing with every secret input
marked undefined, for each parameter set and each backend (MLDSA_BACKEND picks one);
--keys N keys per set (default 4), --sigs N signatures per key (default 8); --branchy signs
on a deliberately branchy decompose instead, which valgrind must report.";

fn usage(msg: &str) -> ExitCode {
    eprintln!("ct_valgrind: {msg}\n{USAGE}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let (mut branchy, mut keys, mut sigs) = (false, 4, 8);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut count = |what: &str| match args.next().map(|v| v.parse::<usize>()) {
            Some(Ok(n)) if n > 0 => Ok(n),
            _ => Err(format!("{what} needs a positive count")),
        };
        let parsed = match a.as_str() {
            "--branchy" => {
                branchy = true;
                Ok(())
            }
            "--keys" => count("--keys").map(|n| keys = n),
            "--sigs" => count("--sigs").map(|n| sigs = n),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => Err(format!("unknown argument {other}")),
        };
        if let Err(e) = parsed {
            return usage(&e);
        }
    }
    if !valgrind::running() {
        eprintln!(
            "ct_valgrind: not running under valgrind, so nothing would be checked; run \
             scripts/ct-valgrind.sh (or valgrind --error-exitcode=1 <this binary>)"
        );
        return ExitCode::from(2);
    }
    let runs: Vec<Run> = if branchy {
        vec![Run::Branchy]
    } else {
        match BackendKind::from_env() {
            Ok(Some(k)) => vec![Run::Kind(k)],
            Ok(None) => BackendKind::available().map(Run::Kind).collect(),
            Err(e) => return usage(&format!("MLDSA_BACKEND: {e}")),
        }
    };
    let mut seen = valgrind::error_count();
    let mut errors = 0;
    for run in runs {
        println!("backend {}", run.name());
        // Which 4-way Keccak the Neon backend takes here (the SHA3 instructions or plain
        // Neon): under valgrind, which hides SHA3, scripts/ct-valgrind.sh requires plain.
        #[cfg(target_arch = "aarch64")]
        if matches!(run, Run::Kind(BackendKind::Neon)) {
            let sha3 = std::arch::is_aarch64_feature_detected!("sha3");
            println!("  neon keccak: {}", if sha3 { "sha3" } else { "plain" });
        }
        for p in &ALL_PARAMS {
            let e = one_set(run, p, keys, sigs, &mut seen);
            println!(
                "  {}: {keys} keys, {} signatures: {e} valgrind errors",
                p.name,
                keys * sigs
            );
            errors += e;
        }
    }
    println!("ct_valgrind: {errors} valgrind errors");
    if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
