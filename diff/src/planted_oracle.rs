//! A planted fault in one oracle's wrapper, to show that a wrong answer from any
//! implementation is caught and that the report names exactly that implementation: with
//! `MLDSA_DIFF_PLANTED_ORACLE=<name>`, [`crate::oracle::available`] wraps that oracle so
//! that every answer it gives is off by one bit (the last output byte, else the first
//! coefficient, else the scalar). Used by `tests/planted_oracle.rs` for every oracle, and by
//! hand: `MLDSA_DIFF_PLANTED_ORACLE=fips204 mldsa-diff check --only sign_44`.

use crate::check::Check;
use crate::model::{Case, Output};
use crate::oracle::{Oracle, Provenance};

/// The environment variable naming the oracle to plant the fault in.
pub const ENV: &str = "MLDSA_DIFF_PLANTED_ORACLE";

/// The oracle named by [`ENV`], if set; an error if it names no implementation of this
/// machine (a typo must not silently plant nothing).
pub fn requested(available: &[&str]) -> Result<Option<String>, String> {
    match std::env::var(ENV) {
        Err(_) => Ok(None),
        Ok(name) if available.contains(&name.as_str()) && name != "portable" => Ok(Some(name)),
        Ok(name) => Err(format!(
            "{ENV}={name:?}: not an implementation on this machine other than the reference \
             (available: {})",
            available.join(", ")
        )),
    }
}

/// `inner`, with every answer off by one bit.
pub struct Planted(pub Box<dyn Oracle>);

impl std::fmt::Debug for Planted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Planted({})", self.0.name())
    }
}

impl Oracle for Planted {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn origin(&self) -> Provenance {
        self.0.origin()
    }
    fn run(&self, check: Check, case: &Case) -> Option<Output> {
        let mut out = self.0.run(check, case)?;
        if let Some(b) = out.bytes.last_mut() {
            *b ^= 1;
        } else if let Some(c) = out.polys.iter_mut().flatten().next() {
            *c ^= 1;
        } else {
            out.scalar ^= 1;
        }
        Some(out)
    }
}
