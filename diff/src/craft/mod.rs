//! The crafter: verify cases that reach the paths where verifiers differ. A random edit of
//! a valid signature is rejected at the c~ comparison by every verifier, before the z bound,
//! the hint decoder or UseHint's corner cases decide anything; a crafted case is valid except
//! for exactly one chosen FIPS 204 rule (or valid through a rare path), with c~ computed
//! honestly over what the verifier will reconstruct.
//!
//! [`spec`] is FIPS 204 verification written a second time, independent of the library, with
//! each known verifier deviation as a flag; [`rules`] the cases, as data. [`sign`] is the
//! signing loop written a second time, recording each attempt, and [`rare`] the signing
//! inputs it found that take the loop's rare branches. [`extreme`] makes valid cases whose
//! t1, z and NTT-domain sums sit at the extremes of the arithmetic.

pub mod extreme;
pub mod rare;
pub mod rules;
pub mod sign;
pub mod spec;

pub use rules::{Crafted, FIPS, RULES, Rule};
pub use spec::Leniency;
