//! Every step that handles a secret, run on its own over a painted stack (`stack_probe`)
//! on every backend this machine has and every parameter set, leaves none of its secrets
//! behind: where `secret_residue.rs` looks after KeyGen and Sign as a whole (when later work
//! may have overwritten what an earlier step left), this looks right after each step
//! returns, so each wipe in `mldsa/src` is the only thing between its secret and the search.
//!
//! The steps: SHAKE256 over a secret (the one-way sponge and permutation), ExpandS,
//! ExpandMask, the mask stream the signer draws from, RejBoundedPoly and one ExpandMask
//! polynomial alone, SampleInBall, KeyGen_internal, the secret-key decoding, Sign_internal
//! from mu (every attempt), Sign_internal with all 1000 attempts rejected (what the last
//! one left recomputed by `sign_attempt`), and the typed API's Sign with the key dropped. What
//! is looked for, in the words the step overwrote (`residue`): the step's secret inputs and
//! outputs as byte strings (any 8-byte window: seeds, keys, the squeezed streams), its
//! polynomials (runs of 8 or 16 coefficients), and every lane of every Keccak state its
//! sponges pass through (after each round: what a permutation's spilled lanes or a SIMD
//! permutation's scratch copy would hold) with the values inside each round (column
//! parities, theta's D, the lanes after theta and after rho and pi: what a permutation
//! spills mid-round, `residue::round`). The secrets are derived here with the `sha3`
//! crate and a plain Keccak (checked against it), and checked against the library's outputs.
//!
//! `scripts/wipe-deletions.sh` deletes each wipe in `mldsa/src` in turn and shows this test
//! (with `secret_residue.rs`) fails for each (README "Secrets and stack" lists them).
//!
//! In the release profile only, the build users ship (`test = false` in mldsa/Cargo.toml, so
//! `cargo test` leaves it out; `cargo test --release -p mldsa --test secret_wipes` runs it, as
//! `.ci/run` does on x86_64 and the pre-merge jobs on x86_64 and arm64): the test profile (opt-level 3 with debug
//! assertions and overflow checks) compiles other frames, which keep a lane of a squeezed
//! block and, on AVX2, lanes of the 4-way permutation's states after a step returns (README
//! "Secrets and stack").

mod residue;
mod sign_attempt;
mod stack_probe;

use mldsa::backend::{AnyBackend, Backend};
use mldsa::keccak::{Shake256, ShakeX4, ShakeX8};
use mldsa::params::{ALL_PARAMS, ML_DSA_44, Params};
use mldsa::poly::Poly;
use mldsa::{BackendKind, raw, sample, with_backend};
use rand::{RngCore, SeedableRng};
use residue::{Secrets, keccak_trace, mask_poly, nonce_seed, ntt, rej_bounded, report, search};

const SHAKE256_RATE: usize = 136;

/// A value the probed closure can borrow without owning: nothing it captures is freed in
/// the probe (a `free` after the step would overwrite what the step left), and no capture
/// copies a secret onto the painted stack.
fn leak<T>(x: T) -> &'static T {
    Box::leak(Box::new(x))
}

/// Runs `f` on `kind` (inside the backend's `run`, as the library's own entry points do)
/// over a painted stack; the step's name, the region and which words it wrote.
fn probe_on<R: Send + 'static>(
    kind: BackendKind,
    f: impl FnOnce(AnyBackend) -> R + Send + 'static,
) -> stack_probe::Probe<R> {
    stack_probe::probe(move || f(AnyBackend::new(kind).expect("an available backend")))
}

/// Searches what `pr` left for `secrets`; a line for `failures` if anything is found.
fn check<R>(failures: &mut Vec<String>, what: String, pr: &stack_probe::Probe<R>, s: &Secrets) {
    assert!(pr.deep_enough, "{what}: the painted region is too shallow");
    assert!(
        pr.written.iter().any(|&w| w),
        "{what}: the step wrote nothing on the stack"
    );
    let found = search(&pr.region, Some(&pr.written), s);
    if !found.is_empty() {
        failures.push(report(&what, &found));
    }
}

/// Bytes from a seed: distinct per (tag, t).
fn bytes(tag: u8, t: u8, n: usize) -> Vec<u8> {
    residue::shake256(&[b"secret_wipes", &[tag, t]], n)
}

/// The sponges on `inputs` (SHAKE256, `blocks` blocks each): their outputs as byte strings
/// (named `stream`) and every lane they pass through (named "Keccak states").
fn sponges(s: &mut Secrets, stream: &'static str, inputs: &[Vec<u8>], blocks: usize) {
    let mut outs = Vec::new();
    let mut lanes = Vec::new();
    for i in inputs {
        let (out, l) = keccak_trace(SHAKE256_RATE, i, blocks);
        outs.push(out);
        lanes.extend(l);
    }
    s.bytes(stream, 8, outs);
    let states: &'static str = Box::leak(format!("{stream}' Keccak states").into_boxed_str());
    s.words(states, lanes);
}

/// The t0 polynomials of an expanded secret key (skDecode, FIPS 204 Alg. 25).
fn t0_of(p: &Params, sk: &[u8]) -> Vec<[i32; 256]> {
    let at = 128 + (p.k + p.l) * p.eta.poly_eta_bytes();
    sk[at..]
        .chunks_exact(416)
        .map(|enc| {
            core::array::from_fn(|i| {
                let mut v = 0u32;
                for b in 0..13 {
                    let bit = 13 * i + b;
                    v |= u32::from((enc[bit / 8] >> (bit % 8)) & 1) << b;
                }
                (1 << 12) - v as i32
            })
        })
        .collect()
}

/// SHAKE256 over a secret longer than a block (the one-way sponge, its lane-wise
/// absorbing and the one-way permutation).
fn shake_step(kind: BackendKind, t: u8, failures: &mut Vec<String>) {
    let input = bytes(1, t, 200);
    let inp = leak(input.clone());
    let pr = probe_on(kind, move |any| {
        let mut out = vec![0u8; 64];
        with_backend!(any, |b| b.run(|| Shake256::digest(b, &[inp], &mut out)));
        out
    });
    let mut s = Secrets::default();
    sponges(&mut s, "SHAKE256 output", std::slice::from_ref(&input), 1);
    assert_eq!(
        pr.result[..],
        s.bytes[0].2[0][..64],
        "SHAKE256 as sha3 computes it"
    );
    s.bytes("the secret input", 8, vec![input]);
    check(failures, format!("{kind} SHAKE256 over a secret"), &pr, &s);
}

/// ExpandS (FIPS 204 Alg. 33).
fn expand_s_step(kind: BackendKind, p: Params, t: u8, failures: &mut Vec<String>) {
    let rhoprime: Box<[u8; 64]> = Box::new(bytes(2, t, 64).try_into().unwrap());
    let rp = leak(*rhoprime);
    let pr = probe_on(kind, move |any| {
        let (mut s1, mut s2) = (vec![Poly::ZERO; p.l], vec![Poly::ZERO; p.k]);
        with_backend!(any, |b| b
            .run(|| sample::expand_s(b, &p, rp, &mut s1, &mut s2)));
        (s1, s2)
    });
    let seeds: Vec<Vec<u8>> = (0..(p.k + p.l) as u16)
        .map(|n| nonce_seed(&rhoprime[..], n))
        .collect();
    let s_polys: Vec<[i32; 256]> = seeds.iter().map(|x| rej_bounded(p.eta, x)).collect();
    let (s1, s2) = &pr.result;
    for (got, want) in s1.iter().chain(s2).zip(&s_polys) {
        assert_eq!(&got.coeffs, want, "s as FIPS 204 Alg. 33 derives it");
    }
    let mut s = Secrets::default();
    s.bytes("rho'", 8, vec![rhoprime.to_vec()]);
    sponges(&mut s, "ExpandS streams", &seeds, 10);
    s.polys("s1/s2", 16, s_polys);
    check(failures, format!("{kind} {} ExpandS", p.name), &pr, &s);
}

/// ExpandMask (FIPS 204 Alg. 34), and the signer's mask stream across refills.
fn expand_mask_steps(kind: BackendKind, p: Params, t: u8, failures: &mut Vec<String>) {
    let rhopp: Box<[u8; 64]> = Box::new(bytes(3, t, 64).try_into().unwrap());
    let r = leak(*rhopp);
    let pr = probe_on(kind, move |any| {
        let mut y = vec![Poly::ZERO; p.l];
        with_backend!(any, |b| b.run(|| sample::expand_mask(b, &p, r, 0, &mut y)));
        y
    });
    // Sixteen nonces: a short group's padded lanes and the stream's squeezed-ahead part.
    let seeds: Vec<Vec<u8>> = (0..3 * p.l as u16 + 8)
        .map(|n| nonce_seed(&rhopp[..], n))
        .collect();
    let y: Vec<[i32; 256]> = seeds.iter().map(|x| mask_poly(&p, x)).collect();
    for (got, want) in pr.result.iter().zip(&y) {
        assert_eq!(&got.coeffs, want, "y as FIPS 204 Alg. 34 derives it");
    }
    let mut s = Secrets::default();
    s.bytes("rho''", 8, vec![rhopp.to_vec()]);
    sponges(&mut s, "ExpandMask streams", &seeds, 5);
    s.polys("y", 8, y.clone());
    check(failures, format!("{kind} {} ExpandMask", p.name), &pr, &s);

    // The stream: 3 l polynomials, so that it refills at least twice, then dropped.
    let r = leak(*rhopp);
    let pr = probe_on(kind, move |any| {
        let mut y = vec![Poly::ZERO; 3 * p.l];
        with_backend!(any, |b| b.run(|| {
            let mut m = sample::MaskStream::new(b, &p, r, 0);
            y.iter_mut().for_each(|yi| m.next_into(yi));
        }));
        y
    });
    for (got, want) in pr.result.iter().zip(&y) {
        assert_eq!(
            &got.coeffs, want,
            "the stream's y as FIPS 204 Alg. 34 derives it"
        );
    }
    check(failures, format!("{kind} {} MaskStream", p.name), &pr, &s);
}

/// RejBoundedPoly and one ExpandMask polynomial, each on its own (one seed, one sponge),
/// and the wide sponges' absorbing alone (four or eight seeds, dropped unsqueezed: absorbing
/// is the step whose buffers hold the seeds themselves).
fn one_poly_steps(kind: BackendKind, p: Params, t: u8, failures: &mut Vec<String>) {
    let seed: Box<[u8; 66]> = Box::new(nonce_seed(&bytes(4, t, 64), 3).try_into().unwrap());
    let sd = leak(*seed);
    let (a, y) = (rej_bounded(p.eta, &seed[..]), mask_poly(&p, &seed[..]));
    let mut s = Secrets::default();
    s.bytes("the seed", 8, vec![seed[..64].to_vec()]);
    sponges(&mut s, "the seed's stream", &[seed.to_vec()], 10);
    s.polys("the polynomial", 8, vec![a, y]);

    let pr = probe_on(kind, move |any| {
        let mut a = Box::new(Poly::ZERO);
        with_backend!(any, |b| b
            .run(|| sample::poly_uniform_eta(b, p.eta, sd, &mut a)));
        a
    });
    assert_eq!(pr.result.coeffs, a, "RejBoundedPoly as Alg. 31 derives it");
    check(
        failures,
        format!("{kind} {} RejBoundedPoly", p.name),
        &pr,
        &s,
    );

    let pr = probe_on(kind, move |any| {
        let mut y = Box::new(Poly::ZERO);
        with_backend!(any, |b| b
            .run(|| sample::poly_uniform_gamma1(b, p.gamma1, sd, &mut y)));
        y
    });
    assert_eq!(
        pr.result.coeffs, y,
        "the mask polynomial as Alg. 34 derives it"
    );
    check(
        failures,
        format!("{kind} {} a mask polynomial", p.name),
        &pr,
        &s,
    );

    // Eight seeds rho' || nonce (the last lanes' input is what absorbing leaves last).
    let seeds: Vec<Vec<u8>> = (0..8).map(|n| nonce_seed(&seed[..64], n)).collect();
    let sds: &'static [Vec<u8>] = leak(seeds.clone());
    for wide in [4, 8] {
        let pr = probe_on(kind, move |any| {
            let ins: Vec<&[u8]> = sds[..wide].iter().map(|x| &x[..]).collect();
            with_backend!(any, |b| b.run(|| match wide {
                4 => ShakeX4::<_, SHAKE256_RATE>::new(b).absorb_once(&ins),
                _ => ShakeX8::<_, SHAKE256_RATE>::new(b).absorb_once(&ins),
            }));
            ins
        });
        let mut w = Secrets::default();
        w.bytes("the seeds", 8, vec![seed[..64].to_vec()]);
        sponges(&mut w, "the seeds' streams", &seeds[..wide], 1);
        check(failures, format!("{kind} {wide}-way absorbing"), &pr, &w);
    }
}

/// SampleInBall (FIPS 204 Alg. 29) of a c~ that is secret (a rejected attempt's).
fn sample_in_ball_step(kind: BackendKind, p: Params, t: u8, failures: &mut Vec<String>) {
    let ctilde = bytes(5, t, p.ctilde_bytes());
    let ct = leak(ctilde.clone());
    let pr = probe_on(kind, move |any| {
        let mut c = Box::new(Poly::ZERO);
        with_backend!(any, |b| b
            .run(|| sample::sample_in_ball_into(b, ct, p.tau, &mut c)));
        c
    });
    assert_eq!(pr.result.coeffs.iter().filter(|&&x| x != 0).count(), p.tau);
    let mut s = Secrets::default();
    s.bytes("c~", 8, vec![ctilde.clone()]);
    sponges(&mut s, "SampleInBall's stream", &[ctilde], 2);
    // The sign bits (the stream's first 8 bytes) and what is left of them after tau shifts
    // where that is long enough not to match by chance (ML-DSA-44: 25 bits).
    let signs = u64::from_le_bytes(s.bytes[1].2[0][..8].try_into().unwrap());
    let left = signs >> p.tau;
    s.words(
        "the sign bits",
        [signs, left].into_iter().filter(|w| w >> 20 != 0).collect(),
    );
    check(failures, format!("{kind} {} SampleInBall", p.name), &pr, &s);
}

/// KeyGen_internal, the secret-key decoding and Sign_internal from mu.
fn keygen_decode_sign_steps(kind: BackendKind, p: Params, t: u8, failures: &mut Vec<String>) {
    let xi: Box<[u8; 32]> = Box::new(bytes(6, t, 32).try_into().unwrap());
    let x = leak(*xi);
    let pr = probe_on(kind, move |_| {
        let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
        raw::keygen_internal(kind, &p, x, &mut pk, &mut sk).expect("keygen");
        (pk, sk)
    });
    let (pk, sk) = pr.result.clone();
    let kl = [p.k as u8, p.l as u8];
    let xi_in = [&xi[..], &kl[..]].concat();
    let seeds = residue::shake256(&[&xi_in], 128);
    let (rhoprime, key) = (&seeds[32..96], &seeds[96..]);
    assert_eq!(&sk[32..64], key, "K as FIPS 204 Alg. 6 derives it");
    let s_seeds: Vec<Vec<u8>> = (0..(p.k + p.l) as u16)
        .map(|n| nonce_seed(rhoprime, n))
        .collect();
    let s_polys: Vec<[i32; 256]> = s_seeds.iter().map(|x| rej_bounded(p.eta, x)).collect();
    let s_hat: Vec<[i32; 256]> = s_polys.iter().map(|x| ntt(kind, x)).collect();
    let t0 = t0_of(&p, &sk);
    let t0_hat: Vec<[i32; 256]> = t0.iter().map(|x| ntt(kind, x)).collect();
    let s_enc = sk[128..128 + (p.k + p.l) * p.eta.poly_eta_bytes()].to_vec();
    let t0_enc = sk[128 + s_enc.len()..].to_vec();
    let mut s = Secrets::default();
    s.bytes("xi", 8, vec![xi.to_vec()]);
    s.bytes("rho' and K", 8, vec![seeds[32..].to_vec()]);
    // Every state but its last lanes 0-3: rho, public.
    let (_, mut lanes) = keccak_trace(SHAKE256_RATE, &xi_in, 1);
    let rho: Vec<u64> = (seeds[..32].chunks_exact(8))
        .map(|w| u64::from_le_bytes(w.try_into().unwrap()))
        .collect();
    lanes.retain(|w| !rho.contains(w));
    s.words("H(xi, k, l)'s Keccak states", lanes);
    sponges(&mut s, "ExpandS streams", &s_seeds, 10);
    // t0's encoding by 8-byte windows: its packing's last step goes through a 16-byte copy
    // holding the last 13 bytes (s1's and s2's hold 3 or 4: no window that short is safe
    // from matching by chance).
    let encodings = (vec![s_enc], vec![t0_enc]);
    s.bytes("the s1/s2 encoding", 16, encodings.0.clone());
    s.bytes("the t0 encoding", 8, encodings.1.clone());
    s.polys("s1/s2", 16, s_polys);
    s.polys("NTT(s1/s2)", 8, s_hat);
    s.polys("t0", 8, t0);
    check(failures, format!("{kind} {} KeyGen", p.name), &pr, &s);

    // The secret-key decoding on its own (the typed API's import path decodes with the
    // portable backend on every machine).
    if kind == BackendKind::Portable {
        let sk2 = leak(sk.clone());
        let pr = probe_on(kind, move |_| raw::check_secret_key(&p, sk2));
        pr.result.as_ref().expect("a well-formed key");
        let mut d = Secrets::default();
        d.bytes("K", 8, vec![key.to_vec()]);
        d.bytes("the s1/s2 encoding", 16, encodings.0.clone());
        d.bytes("the t0 encoding", 8, encodings.1.clone());
        d.polys
            .extend(s.polys.iter().filter(|x| x.0 != "NTT(s1/s2)").cloned());
        check(failures, format!("{} secret-key decoding", p.name), &pr, &d);
    }

    // Sign_internal from mu: every attempt's y and NTT(y) too.
    let mu: Box<[u8; 64]> = Box::new(bytes(7, t, 64).try_into().unwrap());
    let rnd: Box<[u8; 32]> = Box::new(bytes(8, t, 32).try_into().unwrap());
    let (sk2, m, r) = (leak(sk.clone()), leak(*mu), leak(*rnd));
    let pr = probe_on(kind, move |_| {
        let mut sig = vec![0u8; p.sig_bytes()];
        raw::sign_mu(kind, &p, sk2, m, r, &mut sig).expect("sign");
        sig
    });
    raw::verify_mu(kind, &p, &pk, &mu, &pr.result).expect("the signature verifies");
    // The model of an attempt that exhausted_sign_step relies on, checked against this
    // signature.
    sign_attempt::Signer::new(kind, p, &sk, &mu, &rnd).accepted(&pr.result);
    let rhopp_in = [key, &rnd[..], &mu[..]].concat();
    let (rhopp, lanes) = keccak_trace(SHAKE256_RATE, &rhopp_in, 1);
    let rhopp = &rhopp[..64];
    // Sixteen attempts' worth of nonces: more than a signature plausibly takes.
    let m_seeds: Vec<Vec<u8>> = (0..16 * p.l as u16).map(|n| nonce_seed(rhopp, n)).collect();
    let y: Vec<[i32; 256]> = m_seeds.iter().map(|x| mask_poly(&p, x)).collect();
    let y_hat: Vec<[i32; 256]> = y.iter().map(|x| ntt(kind, x)).collect();
    let mut g = Secrets::default();
    g.bytes(
        "K, rnd and rho''",
        8,
        vec![key.to_vec(), rnd.to_vec(), rhopp.to_vec()],
    );
    sponges(&mut g, "ExpandMask streams", &m_seeds, 5);
    g.words("H(K, rnd, mu)'s Keccak states", lanes);
    g.bytes("the s1/s2 encoding", 16, encodings.0);
    g.bytes("the t0 encoding", 8, encodings.1);
    g.polys = s.polys.clone();
    g.polys("NTT(t0)", 8, t0_hat);
    g.polys("y", 8, y);
    g.polys("NTT(y)", 8, y_hat);
    check(failures, format!("{kind} {} Sign", p.name), &pr, &g);
}

/// Sign_internal with every attempt rejected (`Error::SigningAttemptsExhausted`): the one
/// way out of the signer that no signature follows, where the last attempt's NTT(c) and
/// scratch polynomial (a row of w, c s2 or c t0) are secrets no signature makes public. The
/// key: ML-DSA-44's, its t0 replaced by coefficients at the extremes of t0's encoding (2^12
/// or -(2^12 - 1): FIPS 204 signs with any t0 skEncode can hold, and the signer's range
/// check covers s1 and s2 only), so that c t0 exceeds gamma2 or makes more than omega hints
/// on most attempts, and every one of 1000 for about 9 messages in 10 (`PICK` picks t0 and
/// mu: one whose last attempt is rejected before the hints, since a hint polynomial of 0s
/// and 1s is no searchable secret).
/// What the last attempt left is recomputed by `sign_attempt` (checked against real
/// signatures in keygen_decode_sign_steps).
fn exhausted_sign_step(kind: BackendKind, failures: &mut Vec<String>) {
    const PICK: u8 = 1;
    let p = ML_DSA_44;
    let xi: [u8; 32] = bytes(11, 0, 32).try_into().unwrap();
    let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
    raw::keygen_internal(kind, &p, &xi, &mut pk, &mut sk).expect("keygen");
    let t0_at = 128 + (p.k + p.l) * p.eta.poly_eta_bytes();
    let signs = bytes(12, PICK, p.k * 256 / 8);
    for (i, enc) in sk[t0_at..].chunks_exact_mut(416).enumerate() {
        // 13-bit fields 2^12 - t0: 0 (t0 = 2^12) or 2^13 - 1 (t0 = -(2^12 - 1)).
        for c in 0..256 {
            let j = i * 256 + c;
            let ones = (signs[j / 8] >> (j % 8)) & 1 == 1;
            for b in 0..13 {
                let bit = 13 * c + b;
                enc[bit / 8] = (enc[bit / 8] & !(1 << (bit % 8))) | (u8::from(ones) << (bit % 8));
            }
        }
    }
    assert!(
        t0_of(&p, &sk)
            .iter()
            .flatten()
            .all(|&x| x == 4096 || x == -4095)
    );
    let mu: [u8; 64] = bytes(13, PICK, 64).try_into().unwrap();
    let rnd: [u8; 32] = bytes(14, 0, 32).try_into().unwrap();
    let (sk2, m, r) = (leak(sk.clone()), leak(mu), leak(rnd));
    let pr = probe_on(kind, move |_| {
        let mut sig = vec![0u8; p.sig_bytes()];
        raw::sign_mu(kind, &p, sk2, m, r, &mut sig)
    });
    assert_eq!(
        pr.result,
        Err(mldsa::Error::SigningAttemptsExhausted),
        "{kind}: the crafted key's signing exhausts its attempts"
    );
    let model = sign_attempt::Signer::new(kind, p, &sk, &mu, &rnd);
    let last = mldsa::MAX_SIGNING_ATTEMPTS - 1;
    for n in 0..last {
        assert!(
            model.attempt(n).rejected.is_some(),
            "the model rejects attempt {n}"
        );
    }
    let a = model.attempt(last);
    assert!(
        matches!(
            a.rejected,
            Some(
                sign_attempt::Rejected::Z
                    | sign_attempt::Rejected::R0(_)
                    | sign_attempt::Rejected::Ct0(_)
            )
        ),
        "the last attempt is rejected before the hints (PICK), not {:?}",
        a.rejected
    );
    let s_enc = sk[128..t0_at].to_vec();
    let mut s = Secrets::default();
    s.bytes("K", 8, vec![sk[32..64].to_vec()]);
    s.bytes("the last attempt's c~", 8, vec![a.ctilde.clone()]);
    s.bytes("the s1/s2 encoding", 16, vec![s_enc]);
    // Not the crafted t0 (its encoding is runs of 0 and 1 bits, matched everywhere): the
    // key's other secrets, as the Sign step looks for them.
    s.polys("the last attempt's NTT(c)", 8, vec![a.chat]);
    s.polys("the last attempt's w, c s2 or c t0", 8, vec![a.scratch]);
    s.polys("the last attempt's y and z", 8, [a.y, a.z].concat());
    check(
        failures,
        format!("{kind} ML-DSA-44 Sign, every attempt rejected"),
        &pr,
        &s,
    );
}

/// The typed API's signing key: it signs (hedged: rnd from the RNG) over the painted
/// stack and is dropped there, in place; then the stack and the key's own memory are
/// searched. (The key is made outside the probe: returning it moves it, and a move may leave
/// a copy in the frame it left, as of any Rust value: README "Secrets and stack".)
#[allow(unsafe_code)]
fn api_step<P: mldsa::ParameterSet>(t: u8, failures: &mut Vec<String>) {
    let p = P::PARAMS;
    let rng = rand_chacha::ChaCha20Rng::seed_from_u64(u64::from(t) + 100);
    let mut copy = rng.clone();
    let (mut rnd, mut rnd2) = ([0u8; 32], [0u8; 32]);
    copy.fill_bytes(&mut rnd);
    copy.fill_bytes(&mut rnd2);
    // On the heap (its buffered output holds rnd), and never freed in the probe.
    let rng = Box::leak(Box::new(rng));
    let xi: [u8; 32] = bytes(10, t, 32).try_into().unwrap();
    let key = mldsa::SigningKey::<P>::from_seed(&xi);
    let sk = key.to_expanded_bytes().as_ref().to_vec();
    let key = Box::leak(Box::new(std::mem::ManuallyDrop::new(key)));
    let at = (&raw const **key) as usize;
    let pr = stack_probe::probe(move || {
        let sig = key.sign(b"message", b"", rng).expect("sign");
        std::hint::black_box(&sig);
        let sig = (key.sign_prehash(mldsa::PreHash::Sha2_256, b"message", b"", rng)).expect("sign");
        std::hint::black_box(&sig);
        // SAFETY: the key is dropped once, here, and never used again (its memory stays
        // allocated: the box is leaked).
        unsafe { std::mem::ManuallyDrop::drop(key) };
    });
    // SAFETY: the leaked box's memory, still allocated; every byte of a `SigningKey` is
    // initialised (byte arrays and an `Option` of one, whose tag is a byte: no padding), and
    // dropping it only wrote zeroes.
    let memory = unsafe {
        std::slice::from_raw_parts(
            std::ptr::with_exposed_provenance::<u8>(at),
            size_of::<mldsa::SigningKey<P>>(),
        )
    };
    let mut s = Secrets::default();
    s.bytes(
        "xi, the rnds and K",
        8,
        vec![
            xi.to_vec(),
            rnd.to_vec(),
            rnd2.to_vec(),
            sk[32..64].to_vec(),
        ],
    );
    let t0_at = 128 + (p.k + p.l) * p.eta.poly_eta_bytes();
    s.bytes("the s1/s2 encoding", 16, vec![sk[128..t0_at].to_vec()]);
    // Not the crafted t0 (its encoding is runs of 0 and 1 bits, matched everywhere): the
    // key's other secrets, as the Sign step looks for them.
    check(failures, format!("API {} sign and drop", p.name), &pr, &s);
    let found = search(memory, None, &s);
    if !found.is_empty() {
        failures.push(report(
            &format!("API {}: the dropped key's memory", p.name),
            &found,
        ));
    }
}

#[test]
fn every_step_that_handles_a_secret_leaves_none_behind() {
    let mut failures = Vec::new();
    for kind in BackendKind::available() {
        for t in 0..2 {
            shake_step(kind, t, &mut failures);
        }
        for p in ALL_PARAMS {
            for t in 0..2 {
                expand_s_step(kind, p, t, &mut failures);
                expand_mask_steps(kind, p, t, &mut failures);
                one_poly_steps(kind, p, t, &mut failures);
                sample_in_ball_step(kind, p, t, &mut failures);
                keygen_decode_sign_steps(kind, p, t, &mut failures);
            }
        }
        exhausted_sign_step(kind, &mut failures);
    }
    for t in 0..2 {
        api_step::<mldsa::MlDsa44>(t, &mut failures);
        api_step::<mldsa::MlDsa65>(t, &mut failures);
        api_step::<mldsa::MlDsa87>(t, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "secrets left on the stack by a step (copies found):\n{}",
        failures.join("\n")
    );
}

/// The search finds what a step leaves: a function that copies a secret seed, a Keccak
/// lane and a run of a polynomial into its frame and returns without wiping them.
#[test]
fn the_search_finds_what_a_step_leaves() {
    let seed = bytes(9, 0, 64);
    let (out, lanes) = keccak_trace(SHAKE256_RATE, &seed, 1);
    let poly: [i32; 256] = core::array::from_fn(|i| (i as i32 * 7919) % 8_380_417);
    let (sd, lane, pl) = (leak(seed.clone()), lanes[300], leak(poly));
    let pr = stack_probe::probe(move || leave_behind(sd, lane, pl));
    let mut s = Secrets::default();
    s.bytes("seed", 8, vec![seed]);
    s.bytes("stream", 8, vec![out]);
    s.words("lane", vec![lane]);
    s.polys("poly", 8, vec![poly]);
    let found = search(&pr.region, Some(&pr.written), &s);
    for name in ["seed", "lane", "poly"] {
        assert!(found.contains_key(name), "{name} missed: {found:?}");
    }
    assert!(!found.contains_key("stream"), "{found:?}");
}

#[inline(never)]
fn leave_behind(seed: &[u8], lane: u64, poly: &[i32; 256]) {
    let mut a = [0u8; 8];
    a.copy_from_slice(&seed[20..28]);
    let l = [lane];
    let c: [i32; 8] = poly[16..24].try_into().unwrap();
    std::hint::black_box(&a);
    std::hint::black_box(&l);
    std::hint::black_box(&c);
}
