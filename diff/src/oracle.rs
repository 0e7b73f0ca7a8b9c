//! The implementations compared, behind one trait: each backend of `mldsa` and each PQClean
//! C variant. An oracle returns `None` for a check (or an input shape) it does not
//! implement; every output it does return is in the canonical form of [`Output`].

use crate::check::Check;
use crate::kernels::Kernels;
use crate::model::{Case, Output};
use crate::pqclean::{CImpl, Variant};
use mldsa::backend::{AnyBackend, BackendKind};
use mldsa::with_backend;

/// Where an implementation comes from: the judge holds only this crate's backends to the
/// kernel contracts, and the known differences name whole origins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Provenance {
    /// A backend of the `mldsa` crate.
    Ours,
    /// PQClean's C code, through `pqcrypto-mldsa`.
    PqClean,
    /// mldsa-native's C code (portable or native), built from the `mldsa-native-rs` crate's
    /// bundled source.
    MldsaNative,
    /// Another Rust implementation (libcrux, RustCrypto `ml-dsa`, `fips204`).
    RustPeer,
}

impl Provenance {
    /// How `list` and reports name it.
    pub fn describe(self) -> &'static str {
        match self {
            Provenance::Ours => "this crate",
            Provenance::PqClean => "PQClean C",
            Provenance::MldsaNative => "mldsa-native C",
            Provenance::RustPeer => "Rust peer",
        }
    }
}

/// An implementation under comparison.
pub trait Oracle: Send + Sync {
    /// Its name in tables and reports ("portable", "avx2", "c-clean", ...).
    fn name(&self) -> &'static str;
    /// Where it comes from.
    fn origin(&self) -> Provenance;
    /// Runs `check` on `case`; `None` if not implemented here.
    fn run(&self, check: Check, case: &Case) -> Option<Output>;
}

/// The name of the Neon backend forced onto its plain Keccak path (see [`NeonPlainOracle`]).
pub const NEON_PLAIN: &str = "neon-plain";

/// Every implementation name the harness knows, whether or not this machine has it.
pub fn all_names() -> Vec<&'static str> {
    BackendKind::ALL
        .iter()
        .map(|k| k.name())
        .chain([NEON_PLAIN])
        .chain(Variant::ALL.iter().map(|v| v.name()))
        .chain(crate::mldsa_native::NAMES)
        .chain(crate::peers::RUST_PEER_NAMES)
        .collect()
}

/// Runs `check` on the kernels of one Rust backend.
pub fn run_rust(b: &dyn Kernels, check: Check, case: &Case) -> Option<Output> {
    (check.def.rust)(b, check, case)
}

/// A backend of the `mldsa` crate.
#[derive(Debug, Clone, Copy)]
pub struct RustOracle {
    backend: AnyBackend,
}

impl RustOracle {
    /// The oracle for `kind`; an error if the CPU or build lacks it.
    pub fn new(kind: BackendKind) -> Result<Self, mldsa::Error> {
        Ok(RustOracle {
            backend: AnyBackend::new(kind)?,
        })
    }
}

impl Oracle for RustOracle {
    fn name(&self) -> &'static str {
        self.backend.kind().name()
    }
    fn origin(&self) -> Provenance {
        Provenance::Ours
    }
    fn run(&self, check: Check, case: &Case) -> Option<Output> {
        with_backend!(self.backend, |b| run_rust(&b, check, case))
    }
}

/// The Neon backend with the plain Neon Keccak path, on CPUs where `neon` itself takes the
/// SHA3-instruction path: both Keccak paths are then compared on every kernel and sampler
/// check. End-to-end checks select the backend by kind, which cannot force the plain path,
/// so this oracle does not answer them (a run on a CPU without SHA3 covers that path end to
/// end: there `neon` is the plain path).
#[cfg(target_arch = "aarch64")]
#[derive(Debug, Clone, Copy)]
pub struct NeonPlainOracle(mldsa::backend::NeonPlain);

#[cfg(target_arch = "aarch64")]
impl NeonPlainOracle {
    /// The oracle, if this CPU has Neon and the SHA3 instructions.
    pub fn new() -> Option<Self> {
        let neon = mldsa::backend::Neon::detect()?;
        neon.sha3()?;
        Some(NeonPlainOracle(neon.plain()))
    }
}

#[cfg(target_arch = "aarch64")]
impl Oracle for NeonPlainOracle {
    fn name(&self) -> &'static str {
        NEON_PLAIN
    }
    fn origin(&self) -> Provenance {
        Provenance::Ours
    }
    fn run(&self, check: Check, case: &Case) -> Option<Output> {
        if check.is_end_to_end() {
            return None;
        }
        run_rust(&self.0, check, case)
    }
}

/// A PQClean C variant.
#[derive(Debug)]
pub struct COracle {
    imp: CImpl,
}

impl COracle {
    /// The oracle for `variant`, if it is built and runs on this CPU.
    pub fn new(variant: Variant) -> Option<Self> {
        Some(COracle {
            imp: CImpl::new(variant)?,
        })
    }
}

impl Oracle for COracle {
    fn name(&self) -> &'static str {
        self.imp.variant().name()
    }
    fn origin(&self) -> Provenance {
        Provenance::PqClean
    }
    fn run(&self, check: Check, case: &Case) -> Option<Output> {
        (check.def.c?)(&self.imp, check, case)
    }
}

/// [`available`], shared (what [`crate::runner::run`] takes: each implementation runs on a
/// worker thread of its own).
pub fn available_shared() -> Vec<std::sync::Arc<dyn Oracle>> {
    available().into_iter().map(std::sync::Arc::from).collect()
}

/// Every implementation available here: the Rust backends first (portable is the
/// reference), then PQClean's C variants, mldsa-native's builds and the Rust peers; with
/// [`crate::planted_oracle::ENV`] set, one of them carries a planted fault. Panics if that
/// variable names no implementation here (see [`available_checked`]).
pub fn available() -> Vec<Box<dyn Oracle>> {
    available_checked().unwrap_or_else(|e| panic!("{e}"))
}

/// [`available`], or the error of a [`crate::planted_oracle::ENV`] naming no implementation.
pub fn available_checked() -> Result<Vec<Box<dyn Oracle>>, String> {
    let mut v: Vec<Box<dyn Oracle>> = Vec::new();
    for kind in BackendKind::available() {
        v.push(Box::new(
            RustOracle::new(kind).expect("listed as available"),
        ));
    }
    #[cfg(target_arch = "aarch64")]
    if let Some(o) = NeonPlainOracle::new() {
        v.push(Box::new(o));
    }
    for variant in Variant::ALL {
        if let Some(o) = COracle::new(variant) {
            v.push(Box::new(o));
        }
    }
    for o in crate::mldsa_native::oracles() {
        v.push(Box::new(o));
    }
    for peer in crate::peers::rust_peers() {
        v.push(Box::new(crate::peers::PeerOracle::new(peer)));
    }
    let names: Vec<&str> = v.iter().map(|o| o.name()).collect();
    let Some(planted) = crate::planted_oracle::requested(&names)? else {
        return Ok(v);
    };
    Ok(v.into_iter()
        .map(|o| -> Box<dyn Oracle> {
            if o.name() == planted {
                Box::new(crate::planted_oracle::Planted(o))
            } else {
                o
            }
        })
        .collect())
}
