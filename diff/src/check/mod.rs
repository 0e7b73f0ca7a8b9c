//! Every check the harness runs, one [`Def`] each in the table of its family:
//! [`arith`], [`samplers`], [`packing`], [`keccak`], [`e2e`]. The [`REGISTRY`] lists them in
//! run order; everything else (names, contracts, generation, the one run written against
//! [`crate::oracle::Oracle`], the fields it reads, the planted bug, the listing) is read from
//! the `Def`.
//!
//! Kernel inputs are drawn from the kernel's written contract in
//! [`mldsa::backend::contract`] — the same constants the library's debug assertions check —
//! with the contract's edge values over-represented.
//!
//! Adding a check: write its `Def` in its family's module and name it in [`REGISTRY`].

pub mod api;
pub mod arith;
pub mod crafted;
pub mod def;
pub mod e2e;
pub mod e2e_extra;
pub mod inputs;
pub mod keccak;
pub mod packing;
pub mod rare;
pub mod samplers;
pub mod verify_variants;

pub use def::{Check, Def, Family, Over, Variant};
pub use inputs::EDGE_PATTERNS;

use crate::model::Case;
use crate::source::{Drawn, RngSource, Source};
use mldsa::backend::contract::first_violation;
use mldsa::params::Params;

/// Every check, in run order, one row each; a row of several definitions (with the same
/// [`Over`]) interleaves their variants: decompose, make_hint and use_hint for one gamma2,
/// then for the next.
pub static REGISTRY: &[&[&Def]] = &[
    &[&arith::NTT],
    &[&arith::INVNTT_TOMONT],
    &[&arith::POINTWISE],
    &[&arith::POINTWISE_ACC],
    &[&arith::REDUCE],
    &[&arith::CADDQ],
    &[&arith::ADD],
    &[&arith::SUB],
    &[&arith::SHIFTL],
    &[&arith::POWER2ROUND],
    &[&arith::DECOMPOSE, &arith::MAKE_HINT, &arith::USE_HINT],
    &[&arith::CHKNORM],
    &[&samplers::REJ_UNIFORM],
    &[&samplers::REJ_ETA],
    &[&samplers::POLY_UNIFORM],
    &[&samplers::POLY_UNIFORM_ETA],
    &[&samplers::POLY_UNIFORM_GAMMA1],
    &[&samplers::CHALLENGE],
    &[&samplers::EXPAND_A],
    &[&samplers::EXPAND_MASK],
    &[&packing::PACK_T1],
    &[&packing::UNPACK_T1],
    &[&packing::PACK_T0],
    &[&packing::UNPACK_T0],
    &[&packing::PACK_ETA, &packing::UNPACK_ETA],
    &[&packing::PACK_Z, &packing::UNPACK_Z],
    &[&packing::PACK_W1],
    &[&packing::PACK_HINT],
    &[&packing::UNPACK_HINT],
    &[&keccak::KECCAK],
    &[&keccak::KECCAK_X4],
    &[&keccak::KECCAK_X4X2],
    &[
        &e2e::KEYGEN,
        &e2e::SIGN,
        &e2e::VERIFY,
        &e2e::SIGN_MALFORMED_SK,
        &e2e_extra::SIGN_VARIANTS,
        &e2e_extra::VERIFY_HOSTILE,
        &verify_variants::VERIFY_VARIANTS,
        &crafted::VERIFY_CRAFTED,
        &rare::SIGN_RARE,
        &api::API_VERIFY,
        &api::API_SIGN,
    ],
];

impl Check {
    /// Every check, in run order (kernels first).
    pub fn all() -> Vec<Check> {
        let mut v = Vec::new();
        for &defs in REGISTRY {
            for variant in defs[0].over.variants() {
                for &def in defs {
                    debug_assert_eq!(def.over, defs[0].over, "interleaved defs share variants");
                    v.push(Check { def, variant });
                }
            }
        }
        v
    }

    pub fn from_name(name: &str) -> Option<Check> {
        Check::all().into_iter().find(|c| c.name() == name)
    }
}

/// The `index` that makes [`generate`] draw everything, including the choice of edge case,
/// from its source.
pub const FUZZ: usize = usize::MAX;

/// Builds input number `index` of `check`: the first [`Check::edge_cases`] are fixed edge
/// cases, the rest come from `src`. Fuzz inputs pass [`FUZZ`]: then the first choice drawn
/// from `src` selects an edge case or a random one, so a fuzzer (and a seed corpus) reaches
/// both.
pub fn generate(check: Check, index: usize, src: &mut impl Source) -> Drawn<Case> {
    let index = if index == FUZZ {
        src.int_in(0, check.edge_cases() as i64)? as usize
    } else {
        index
    };
    let edge = index < check.edge_cases();
    (check.def.generate)(check, index, edge, src)
}

/// The seeded cases of `check`, in order: case i is `generate(check, i, ..)` on the stream of
/// (`seed`, check name).
pub fn cases(check: Check, seed: u64) -> impl Iterator<Item = Case> {
    let mut src = RngSource::for_check(seed, &check.name());
    (0..).map(move |i| generate(check, i, &mut src).expect("an RNG source never runs out"))
}

/// Whether `case` is an input `check` can run: the shape its runs expect and, for kernels,
/// polynomial inputs within the contract's input bounds (what a report loaded from a file
/// must satisfy before any implementation, C included, sees it).
pub fn validate(check: Check, case: &Case) -> Result<(), String> {
    let name = check.name();
    validate_fields(check, case)?;
    let n = check.poly_inputs();
    if n > 0 {
        if case.polys.len() != n {
            return Err(format!(
                "{name} takes {n} polynomials, the input has {}",
                case.polys.len()
            ));
        }
        for ((i, p), b) in case.polys.iter().enumerate().zip(check.input_bounds()) {
            if p.len() != mldsa::params::N {
                return Err(format!(
                    "{name}: polynomial {i} has {} coefficients, not 256",
                    p.len()
                ));
            }
            if let Some((j, v)) = first_violation(b, p) {
                return Err(format!(
                    "{name}: polynomial {i} coefficient {j} = {v} is outside the contract's [{}, {}]",
                    b.lo, b.hi
                ));
            }
        }
    }
    let portable = crate::impls::ours::Ours::new(mldsa::backend::Portable);
    if check.run(&portable, case).is_none() {
        return Err(format!(
            "the input does not have the shape of a {name} input (see `mldsa-diff list`)"
        ));
    }
    Ok(())
}

/// The fields of a [`Case`] `check` reads (its [`def::Takes`]): every other one must be
/// empty; and what its input must satisfy beyond them.
fn validate_fields(check: Check, case: &Case) -> Result<(), String> {
    let name = check.name();
    let takes = check.def.takes;
    if let Some((_, f, _)) = def::Slot::ALL
        .iter()
        .find(|(slot, _, set)| set(case) && !takes.slots.contains(slot))
    {
        return Err(format!(
            "{name} does not take the field {f:?}, the input has it"
        ));
    }
    (takes.valid)(check, case).map_err(|e| format!("{name}: {e}"))
}

/// Parses a comma-separated list of parameter sets (`44,65`, `ML-DSA-87`) for `--params`.
pub fn parse_params(list: &str) -> Result<Vec<Params>, String> {
    list.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            mldsa::params::params_by_name(s.trim())
                .ok_or_else(|| format!("unknown parameter set {s:?} (use 44, 65, 87)"))
        })
        .collect()
}
