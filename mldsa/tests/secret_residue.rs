//! After KeyGen and after Sign, on every backend this machine has and every parameter set,
//! the stack the operation used holds none of its secrets (FIPS 204 Section 3.6.3: secret
//! intermediates are destroyed once no longer needed).
//!
//! The operation runs over a painted stack region (`stack_probe`); afterwards the region is
//! searched for the secrets, which this test derives itself from xi (and K, rnd, mu) with
//! the `sha3` crate, as FIPS 204 Alg. 6, 7, 33 and 34 define them:
//! * byte strings (xi, K, rho', rho'', c~, rnd, the encodings of s1, s2 and t0, the
//!   ExpandS and ExpandMask streams s1, s2 and y are read from): any 16-byte window, at
//!   any offset;
//! * polynomials (s1, s2, y, and NTT(s1), NTT(s2), NTT(y) as the backend computes them),
//!   as the library stores them (`i32` in native byte order): any run of 8 consecutive
//!   coefficients of y and NTT(.), of 16 of s1 and s2 (values in [-eta, eta], so a shorter
//!   run could match by chance), at any 4-byte offset.
//!
//! The expected secrets are checked against the key and signature the library produced
//! (s1, s2 and K against the secret key, y against `sample::expand_mask`), so a wrong
//! derivation cannot make the test pass vacuously.

mod residue;
mod stack_probe;

use mldsa::params::{ALL_PARAMS, Params};
use mldsa::poly::Poly;
use mldsa::{BackendKind, raw};
use residue::{Secrets, mask_poly, nonce_seed, ntt, rej_bounded, report, search, shake256};

/// Runs KeyGen and Sign for `p` on `kind` over painted stacks; returns what each left.
fn residue(kind: BackendKind, p: Params, t: u8) -> Vec<String> {
    let mut failures = Vec::new();
    let xi: Vec<u8> = (0..32u8)
        .map(|i| i.wrapping_mul(29).wrapping_add(t))
        .collect();
    // KeyGen.
    let (pk, sk, probe) = {
        let xi = xi.clone();
        let pr = stack_probe::probe(move || {
            let mut pk = vec![0u8; p.pk_bytes()];
            let mut sk = vec![0u8; p.sk_bytes()];
            let xi: &[u8; 32] = xi[..].try_into().unwrap();
            raw::keygen_internal(kind, &p, xi, &mut pk, &mut sk).map(|()| (pk, sk))
        });
        let (pk, sk) = pr.result.expect("keygen");
        (pk, sk, (pr.region, pr.deep_enough))
    };
    assert!(probe.1, "the painted region is deeper than keygen's stack");
    let seeds = shake256(&[&xi, &[p.k as u8, p.l as u8]], 128);
    let (rhoprime, key) = (seeds[32..96].to_vec(), seeds[96..].to_vec());
    assert_eq!(&sk[32..64], &key[..], "K as FIPS 204 Alg. 6 derives it");
    let s: Vec<[i32; 256]> = (0..p.k + p.l)
        .map(|r| rej_bounded(p.eta, &nonce_seed(&rhoprime, r as u16)))
        .collect();
    let eb = 256 * p.eta.bits() / 8;
    let s_enc = sk[128..128 + (p.k + p.l) * eb].to_vec();
    let t0_enc = sk[128 + (p.k + p.l) * eb..].to_vec();
    for (r, poly) in s.iter().enumerate() {
        // The encoding of s1 and s2 (BitPack(s, eta, eta)): checks the derivation.
        let bits = p.eta.bits();
        for (i, &c) in poly.iter().enumerate() {
            let mut v = 0u32;
            for b in 0..bits {
                let bit = (r * 256 + i) * bits + b;
                v |= u32::from((s_enc[bit / 8] >> (bit % 8)) & 1) << b;
            }
            assert_eq!(
                p.eta.value() - v as i32,
                c,
                "s[{r}][{i}] as Alg. 33 derives it"
            );
        }
    }
    let s_hat: Vec<[i32; 256]> = s.iter().map(|x| ntt(kind, x)).collect();
    // The ExpandS streams (H(rho' || nonce)), the first two blocks of each: what rejection
    // sampling reads.
    let s_stream: Vec<u8> = (0..(p.k + p.l) as u16)
        .flat_map(|n| shake256(&[&rhoprime, &n.to_le_bytes()], 2 * 136))
        .collect();
    let mut secrets = Secrets {
        bytes: vec![
            ("xi", 16, vec![xi.clone()]),
            ("ExpandS stream", 16, vec![s_stream]),
            ("K", 16, vec![key.clone()]),
            ("rho'", 16, vec![rhoprime.clone()]),
            ("s1/s2 encoding", 16, vec![s_enc.clone()]),
            ("t0 encoding", 16, vec![t0_enc.clone()]),
        ],
        polys: vec![("s1/s2", 16, s.clone()), ("NTT(s1/s2)", 8, s_hat.clone())],
        words: Vec::new(),
    };
    let found = search(&probe.0, None, &secrets);
    if !found.is_empty() {
        failures.push(report(&format!("{kind} {} keygen", p.name), &found));
    }

    // Sign.
    let rnd: Vec<u8> = (0..32u8).map(|i| i ^ 0x5c ^ t).collect();
    let msg: Vec<u8> = b"the message".to_vec();
    let (sig, region, deep) = {
        let (sk, rnd, msg) = (sk.clone(), rnd.clone(), msg.clone());
        let pr = stack_probe::probe(move || {
            let mut sig = vec![0u8; p.sig_bytes()];
            let rnd: &[u8; 32] = rnd[..].try_into().unwrap();
            raw::sign_internal(kind, &p, &sk, &[&[0, 0], &msg], rnd, &mut sig).map(|()| sig)
        });
        (pr.result.expect("sign"), pr.region, pr.deep_enough)
    };
    assert!(deep, "the painted region is deeper than sign's stack");
    raw::verify_internal(kind, &p, &pk, &[&[0, 0], &msg], &sig).expect("the signature verifies");
    let tr = shake256(&[&pk], 64);
    let mu = shake256(&[&tr, &[0, 0], &msg], 64);
    let rhopp = shake256(&[&key, &rnd, &mu], 64);
    // y for the first nonces (every attempt a signature plausibly takes, and the squeezed
    // ahead part of the mask stream), checked against the library's ExpandMask.
    let y: Vec<[i32; 256]> = (0..16 * p.l as u16)
        .map(|n| mask_poly(&p, &nonce_seed(&rhopp, n)))
        .collect();
    let mut want = [Poly::ZERO; 7];
    mldsa::sample::expand_mask(
        mldsa::backend::Portable,
        &p,
        rhopp[..].try_into().unwrap(),
        0,
        &mut want[..p.l],
    );
    for r in 0..p.l {
        assert_eq!(want[r].coeffs, y[r], "y[{r}] as Alg. 34 derives it");
    }
    let y_hat: Vec<[i32; 256]> = y.iter().map(|x| ntt(kind, x)).collect();
    // The ExpandMask stream itself (H(rho'' || nonce), the encoding of each y): the bytes
    // the unpacking kernel reads.
    let mask_stream: Vec<u8> = (0..16 * p.l as u16)
        .flat_map(|n| shake256(&[&rhopp, &n.to_le_bytes()], p.gamma1.poly_z_bytes()))
        .collect();
    secrets.bytes = vec![
        ("K", 16, vec![key]),
        ("rho''", 16, vec![rhopp]),
        ("ExpandMask stream", 16, vec![mask_stream]),
        ("c~", 16, vec![sig[..p.ctilde_bytes()].to_vec()]),
        ("rnd", 16, vec![rnd]),
        ("s1/s2 encoding", 16, vec![s_enc]),
        ("t0 encoding", 16, vec![t0_enc]),
    ];
    secrets.polys = vec![
        ("s1/s2", 16, s),
        ("NTT(s1/s2)", 8, s_hat),
        ("y", 8, y),
        ("NTT(y)", 8, y_hat),
    ];
    let found = search(&region, None, &secrets);
    if !found.is_empty() {
        failures.push(report(&format!("{kind} {} sign", p.name), &found));
    }

    // A positive control: a function that leaves rho'' and y[0] on the stack is caught.
    let (rhopp, y0) = (secrets.bytes[1].2[0].clone(), secrets.polys[2].2[0]);
    let control = stack_probe::probe(move || leave_behind(&rhopp, &y0));
    let found = search(&control.region, None, &secrets);
    assert!(
        found.get("rho''") >= Some(&1) && found.get("y") >= Some(&1),
        "the search misses secrets left on the stack: {found:?}"
    );
    failures
}

/// Copies `bytes` and `poly` into locals the optimiser must keep, and returns without
/// wiping them.
#[inline(never)]
fn leave_behind(bytes: &[u8], poly: &[i32; 256]) {
    let mut a = [0u8; 64];
    a.copy_from_slice(&bytes[..64]);
    let c = *poly;
    std::hint::black_box(&a);
    std::hint::black_box(&c);
}

#[test]
fn keygen_and_sign_leave_no_secret_on_the_stack() {
    let mut failures = Vec::new();
    for kind in BackendKind::available() {
        for p in ALL_PARAMS {
            for t in 0..2 {
                failures.extend(residue(kind, p, t));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "secrets left on the stack (copies found):\n{}",
        failures.join("\n")
    );
}
