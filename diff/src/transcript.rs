//! The cross-machine bit-identity digest: a fixed, seeded stream of inputs through every
//! check (every kernel and every end-to-end operation of all three parameter sets) on one
//! Rust backend, hashed with SHA3-256 per check and over all checks.
//!
//! Every backend on every architecture must produce the digest committed in
//! `diff/transcript.expected` (outputs are hashed in the form the checks compare them:
//! NTT-domain values in canonical order, mod-q comparisons as canonical representatives,
//! verify as accept/reject). The inputs are exactly those `mldsa-diff check` draws for the
//! same seed, so a check whose digest moved is reproduced, and compared against every
//! implementation on the machine, by `mldsa-diff check --only <check> --seed <seed>`.
//!
//! The expected digest is written by `mldsa-diff transcript --write diff/transcript.expected` and is correct only in
//! so far as the checks that compare the portable backend with PQClean and the known-answer
//! tests pass: it pins agreement across machines and backends, it does not replace them.

use crate::check::Check;
use crate::check::def::Answer;
use crate::model::{Case, Output, canonical};
use mldsa::BackendKind;
use sha3::{Digest, Sha3_256};

/// The seed of the committed transcript (the same default as `mldsa-diff check`).
pub const DEFAULT_SEED: u64 = 20_260_101;
/// Cases per kernel check.
pub const KERNEL_CASES: usize = 1000;
/// Cases per end-to-end check.
pub const E2E_CASES: usize = 24;
/// The committed expected transcript for [`DEFAULT_SEED`].
pub const EXPECTED: &str = include_str!("../transcript.expected");

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckDigest {
    pub check: String,
    pub cases: usize,
    /// SHA3-256 of the cases and outputs, hex.
    pub digest: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    pub seed: u64,
    /// Per check, in [`Check::all`] order.
    pub checks: Vec<CheckDigest>,
    /// SHA3-256 over every check's name and digest, hex.
    pub total: String,
}

fn put(h: &mut Sha3_256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

fn put_polys(h: &mut Sha3_256, polys: &[Vec<i32>], norm: impl Fn(i32) -> i32) {
    h.update((polys.len() as u64).to_le_bytes());
    for p in polys {
        let bytes: Vec<u8> = p.iter().flat_map(|&x| norm(x).to_le_bytes()).collect();
        put(h, &bytes);
    }
}

/// Every field but `xi`: a signing case's xi is checked to make its `sk` (which is hashed), so
/// the digests committed before cases carried it still hold.
fn hash_case(h: &mut Sha3_256, case: &Case) {
    put_polys(h, &case.polys, |x| x);
    for field in [
        &case.bytes,
        &case.pk,
        &case.sk,
        &case.msg,
        &case.ctx,
        &case.rnd,
        &case.sig,
    ] {
        put(h, field);
    }
    h.update(case.scalar.to_le_bytes());
}

/// Hashes what the checks compare of an output, in a form independent of the backend.
fn hash_output(h: &mut Sha3_256, check: Check, out: &Output) {
    // Answer::VerdictHashingOutput (verify_hostile_{set}) hashes the whole output.
    if check.def.answer == Answer::Verdict {
        h.update(out.scalar.to_le_bytes());
        return;
    }
    let mod_q = check.mod_q();
    put_polys(h, &out.polys, |x| if mod_q { canonical(x) } else { x });
    put(h, &out.bytes);
    h.update(out.scalar.to_le_bytes());
    put(h, out.verdict.to_string().as_bytes());
}

/// Cases of `check` in a transcript.
pub fn cases_for(check: Check) -> usize {
    if check.is_end_to_end() {
        E2E_CASES
    } else {
        KERNEL_CASES
    }
}

pub fn run(seed: u64, backend: BackendKind) -> Result<Transcript, String> {
    let oracle = crate::impls::ours::oracle(backend).map_err(|e| e.to_string())?;
    let mut total = Sha3_256::new();
    let mut checks = Vec::new();
    for check in Check::all() {
        let name = check.name();
        let n = cases_for(check);
        let mut h = Sha3_256::new();
        put(&mut h, name.as_bytes());
        for case in crate::check::cases(check, seed).take(n) {
            let out = check
                .run(oracle.as_ref(), &case)
                .ok_or_else(|| format!("{backend} does not implement {name}"))?;
            hash_case(&mut h, &case);
            hash_output(&mut h, check, &out);
        }
        let digest = hex::encode(h.finalize());
        put(&mut total, name.as_bytes());
        put(&mut total, digest.as_bytes());
        checks.push(CheckDigest {
            check: name,
            cases: n,
            digest,
        });
    }
    Ok(Transcript {
        seed,
        checks,
        total: hex::encode(total.finalize()),
    })
}

impl Transcript {
    /// The text form committed as `diff/transcript.expected`.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "# mldsa-diff transcript: seed {}, {} cases per kernel check, {} per end-to-end check.\n\
             # Regenerate only for a deliberate change of a check's inputs: mldsa-diff transcript --write diff/transcript.expected\n",
            self.seed, KERNEL_CASES, E2E_CASES
        );
        for c in &self.checks {
            s += &format!("{} {} {}\n", c.check, c.cases, c.digest);
        }
        s += &format!("total {}\n", self.total);
        s
    }

    pub fn parse(text: &str) -> Result<Transcript, String> {
        let mut seed = None;
        let mut checks = Vec::new();
        let mut total = None;
        for (no, line) in text.lines().enumerate() {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("# mldsa-diff transcript: seed ") {
                let s = rest.split(',').next().unwrap_or_default();
                seed = Some(
                    s.parse::<u64>()
                        .map_err(|_| format!("line {}: bad seed {s:?}", no + 1))?,
                );
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("line {}: expected `<check> <cases> <digest>`", no + 1);
            match f.as_slice() {
                ["total", d] => total = Some(d.to_string()),
                [name, n, d] if d.len() == 64 => checks.push(CheckDigest {
                    check: name.to_string(),
                    cases: n.parse().map_err(|_| bad())?,
                    digest: d.to_string(),
                }),
                _ => return Err(bad()),
            }
        }
        Ok(Transcript {
            seed: seed.ok_or("no seed line")?,
            checks,
            total: total.ok_or("no total line")?,
        })
    }

    /// The first check whose digest differs from `expected`'s (or that one of them lacks).
    pub fn first_moved<'a>(&'a self, expected: &'a Transcript) -> Option<&'a str> {
        let n = self.checks.len().max(expected.checks.len());
        (0..n).find_map(|i| match (self.checks.get(i), expected.checks.get(i)) {
            (Some(a), Some(b)) if a == b => None,
            (Some(a), _) => Some(a.check.as_str()),
            (None, Some(b)) => Some(b.check.as_str()),
            (None, None) => None,
        })
    }
}
