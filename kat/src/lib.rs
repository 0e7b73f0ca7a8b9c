//! Known-answer tests for `mldsa`: the NIST-style 100-count KAT (regenerated with the NIST
//! PQC AES-256-CTR DRBG and compared against published SHA-256 digests), every NIST ACVP
//! ML-DSA vector (keyGen, sigGen, sigGen tr1, sigVer) and every C2SP Wycheproof ML-DSA vector
//! (sign with seed, sign with expanded key, verify).
//!
//! Vectors are read from the directory in `MLDSA_VECTORS`, default `../shared/vectors`
//! beside the project root; `scripts/fetch-vectors.sh` downloads them elsewhere.

pub mod acvp;
pub mod drbg;
pub mod nist;
pub mod wycheproof;

use std::path::PathBuf;

/// The vectors directory: `$MLDSA_VECTORS`, or `<project root>/../shared/vectors`.
pub fn vectors_dir() -> PathBuf {
    match std::env::var_os("MLDSA_VECTORS") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/vectors"),
    }
}

/// The vectors directory, or an error message that says how to get it.
pub fn require_vectors_dir() -> Result<PathBuf, String> {
    let dir = vectors_dir();
    if dir.join("acvp").is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "ML-DSA test vectors not found at {} (looked for its acvp/ directory).\n\
             Set MLDSA_VECTORS to a directory holding them, or download them with\n\
             \x20   scripts/fetch-vectors.sh <dir>\n\
             (it fetches the NIST ACVP-Server v1.1.0.43 and Wycheproof files and checks their\n\
             pinned SHA-256).",
            dir.display()
        ))
    }
}

/// Outcome of one vector file on one backend.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    /// Cases that gave the expected answer.
    pub passed: usize,
    /// Descriptions of the cases that did not.
    pub failures: Vec<String>,
}

impl Tally {
    /// Records one case.
    pub fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if ok {
            self.passed += 1;
        } else {
            self.failures.push(what());
        }
    }
    /// Cases run.
    pub fn total(&self) -> usize {
        self.passed + self.failures.len()
    }
}

/// The backends the known-answer tests run on: every one this machine has. Fails if
/// `MLDSA_REQUIRE_BACKENDS` (comma separated) names a Rust backend that is not available,
/// so a broken CPU detection cannot pass on the portable backend alone (names of C variants
/// in the list are for `mldsa-diff`, and ignored here).
pub fn backends_under_test() -> Result<Vec<mldsa::BackendKind>, String> {
    let available: Vec<mldsa::BackendKind> = mldsa::BackendKind::available().collect();
    if let Ok(list) = std::env::var("MLDSA_REQUIRE_BACKENDS") {
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if let Ok(kind) = mldsa::BackendKind::parse(name)
                && !available.contains(&kind)
            {
                return Err(format!(
                    "MLDSA_REQUIRE_BACKENDS names {name}, which this machine lacks (available: {available:?})"
                ));
            }
        }
    }
    Ok(available)
}
