//! Every implementation compared, one folder (or file) each, each answering the one interface
//! [`Oracle`] for what it has: this crate's backends ([`ours`], which owns the guard bytes),
//! PQClean's C variants ([`pqclean`]), mldsa-native's two builds ([`mldsa_native`]: the whole
//! scheme, and its native backend's kernels) and the Rust peers ([`libcrux`], [`rustcrypto`],
//! [`fips204`]). [`REGISTRY`] lists them, one line each: adding an implementation is its folder
//! and one line there.

/// `$f::<T>(..)` for `T` the type of `p`'s parameter set (by its k): `MlDsa44`, `MlDsa65` or
/// `MlDsa87`, as the caller's scope names them.
macro_rules! per_set {
    ($p:expr, $($f:ident)::+($($a:expr),*)) => {
        match $p.k {
            4 => $($f)::+::<MlDsa44>($($a),*),
            6 => $($f)::+::<MlDsa65>($($a),*),
            _ => $($f)::+::<MlDsa87>($($a),*),
        }
    };
}

pub mod fips204;
pub mod guard;
pub mod libcrux;
pub mod mldsa_native;
pub mod openssl;
pub mod ours;
pub mod pqclean;
pub mod process;
pub mod rustcrypto;
pub mod typed;

use crate::oracle::{Oracle, Planted};

/// The name of the Neon backend forced onto its plain Keccak path (see [`neon_plain`]).
pub const NEON_PLAIN: &str = "neon-plain";

/// One implementation (or family of builds) of the registry: its names on any machine, and
/// the instances this machine runs.
struct Entry {
    names: fn() -> Vec<&'static str>,
    here: fn() -> Result<Oracles, String>,
}

/// Implementations, in table order.
pub type Oracles = Vec<Box<dyn Oracle>>;

/// Every implementation, in table order (the reference first): one line each.
#[rustfmt::skip]
const REGISTRY: [Entry; 10] = [
    Entry { names: ours::names, here: || Ok(ours::oracles()) },
    Entry { names: || vec![NEON_PLAIN], here: || Ok(neon_plain()) },
    Entry { names: || vec![typed::TYPED], here: || Ok(vec![Box::new(typed::Typed)]) },
    Entry { names: pqclean::names, here: || Ok(pqclean::oracles()) },
    Entry { names: || mldsa_native::NAMES.to_vec(), here: || Ok(mldsa_native::oracles()) },
    Entry { names: || libcrux::NAMES.to_vec(), here: || Ok(libcrux::oracles()) },
    Entry { names: || vec![rustcrypto::NAME], here: || Ok(vec![Box::new(rustcrypto::RustCrypto)]) },
    Entry { names: || vec![fips204::NAME], here: || Ok(vec![Box::new(fips204::Fips204)]) },
    Entry { names: || vec![openssl::NAME], here: || Ok(openssl::oracles()) },
    Entry { names: process::names, here: process::oracles },
];

/// Every implementation name the harness knows, whether or not this machine has it.
pub fn all_names() -> Vec<&'static str> {
    REGISTRY.iter().flat_map(|e| (e.names)()).collect()
}

/// The Neon backend with the plain Neon Keccak path, on CPUs where `neon` itself takes the
/// SHA3-instruction path: both Keccak paths are then compared on every kernel and sampler
/// check. End-to-end operations select the backend by kind, which cannot force the plain
/// path, so it offers kernels only (a run on a CPU without SHA3 covers that path end to end:
/// there `neon` is the plain path).
fn neon_plain() -> Vec<Box<dyn Oracle>> {
    #[cfg(target_arch = "aarch64")]
    if let Some(neon) = mldsa::backend::Neon::detect().filter(|n| n.sha3().is_some()) {
        return vec![Box::new(ours::Ours::kernels_only(neon.plain(), NEON_PLAIN))];
    }
    Vec::new()
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

/// The implementations built into this harness (every registry line but the other
/// processes'), none planted: what `mldsa-diff serve` offers.
pub fn built_in() -> Vec<Box<dyn Oracle>> {
    REGISTRY[..REGISTRY.len() - 1]
        .iter()
        .flat_map(|e| (e.here)().unwrap_or_default())
        .collect()
}

/// [`available`], or the error of a [`PLANTED_ENV`] naming no implementation.
pub fn available_checked() -> Result<Vec<Box<dyn Oracle>>, String> {
    let mut v: Vec<Box<dyn Oracle>> = Vec::new();
    for e in &REGISTRY {
        v.extend((e.here)()?);
    }
    let names: Vec<&str> = v.iter().map(|o| o.name()).collect();
    if let Some(dup) = names
        .iter()
        .enumerate()
        .find(|(i, n)| names[..*i].contains(n))
    {
        return Err(format!(
            "two implementations are named {:?}: an oracle of another process must not take \
             a built-in implementation's name",
            dup.1
        ));
    }
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

/// The environment variable naming the implementation to plant the oracle fault in
/// ([`Planted`]).
pub const PLANTED_ENV: &str = "MLDSA_DIFF_PLANTED_ORACLE";

/// The implementation named by [`PLANTED_ENV`], if set; an error if it names none of this
/// machine's (a typo must not silently plant nothing).
fn planted_requested(available: &[&str]) -> Result<Option<String>, String> {
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
