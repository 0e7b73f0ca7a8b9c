//! The implementations compared, behind one trait: each backend of `mldsa` and each PQClean
//! C variant. An oracle returns `None` for a check (or an input shape) it does not
//! implement; every output it does return is in the canonical form of [`Output`].

use crate::check::Check;
use crate::kernels::Kernels;
use crate::mldsa_native::NativeKernels;
pub use crate::model::Provenance;
use crate::model::{Case, Output};
use crate::peers::Peer;
use crate::pqclean::{CImpl, Variant};
use mldsa::backend::{AnyBackend, BackendKind};
use mldsa::with_backend;

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
/// [`PLANTED_ENV`] set, one of them carries a planted fault. Panics if that
/// variable names no implementation here (see [`available_checked`]).
pub fn available() -> Vec<Box<dyn Oracle>> {
    available_checked().unwrap_or_else(|e| panic!("{e}"))
}

/// [`available`], or the error of a [`PLANTED_ENV`] naming no implementation.
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
    for (peer, kernels) in crate::mldsa_native::peers() {
        v.push(Box::new(PeerOracle {
            peer,
            native: kernels,
        }));
    }
    for peer in crate::peers::rust_peers() {
        v.push(Box::new(PeerOracle::new(peer)));
    }
    let names: Vec<&str> = v.iter().map(|o| o.name()).collect();
    let Some(planted) = planted_requested(&names)? else {
        return Ok(v);
    };
    Ok(v.into_iter()
        .map(|o| -> Box<dyn Oracle> {
            if o.name() == planted {
                Box::new(Planted(o))
            } else {
                o
            }
        })
        .collect())
}

/// A [`Peer`](crate::peers::Peer) as an [`Oracle`]; mldsa-native's native build also answers kernel checks
/// through its backend interface.
pub struct PeerOracle {
    peer: Box<dyn Peer>,
    native: Option<NativeKernels>,
}

impl std::fmt::Debug for PeerOracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeerOracle")
            .field("name", &self.peer.name())
            .field("native_kernels", &self.native.is_some())
            .finish()
    }
}

impl PeerOracle {
    /// The oracle for `peer` (end-to-end checks only).
    pub fn new(peer: Box<dyn Peer>) -> Self {
        PeerOracle { peer, native: None }
    }
}

impl Oracle for PeerOracle {
    fn name(&self) -> &'static str {
        self.peer.name()
    }
    fn origin(&self) -> Provenance {
        self.peer.provenance()
    }
    fn run(&self, check: Check, case: &Case) -> Option<Output> {
        if check.is_end_to_end() {
            (check.def.peer?)(self.peer.as_ref(), check, case)
        } else {
            (check.def.native?)(self.native?, check, case)
        }
    }
}

// A planted fault in one oracle's wrapper, to show that a wrong answer from any implementation
// is caught and that the report names exactly that implementation: with
// `MLDSA_DIFF_PLANTED_ORACLE=<name>`, [`available`] wraps that oracle so that every answer it
// gives is off by one bit (the last output byte, else the first coefficient, else the
// scalar). `tests/planted_oracle.rs` does it for every oracle; by hand:
// `MLDSA_DIFF_PLANTED_ORACLE=fips204 mldsa-diff check --only sign_44`.

/// The environment variable naming the oracle to plant the fault in.
pub const PLANTED_ENV: &str = "MLDSA_DIFF_PLANTED_ORACLE";

/// The oracle named by [`PLANTED_ENV`], if set; an error if it names no implementation of this
/// machine (a typo must not silently plant nothing).
pub fn planted_requested(available: &[&str]) -> Result<Option<String>, String> {
    match std::env::var(PLANTED_ENV) {
        Err(_) => Ok(None),
        Ok(name) if available.contains(&name.as_str()) && name != "portable" => Ok(Some(name)),
        Ok(name) => Err(format!(
            "{PLANTED_ENV}={name:?}: not an implementation on this machine other than the reference \
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
