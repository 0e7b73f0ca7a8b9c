//! ML-DSA (FIPS 204): the module-lattice digital signature standard, for ML-DSA-44, -65 and
//! -87, `no_std` and allocation-free on every signing and verifying path.
//!
//! * [`SigningKey`], [`VerifyingKey`], [`Signature`]: typed keys for one parameter set
//!   ([`MlDsa44`], [`MlDsa65`], [`MlDsa87`]), with pure and pre-hash (HashML-DSA) signing,
//!   contexts, external mu, and the RustCrypto `signature` traits.
//! * [`raw`]: byte-level KeyGen/Sign/Verify_internal with an explicit [`BackendKind`], as
//!   the known-answer tests and the differential harness use them.
//! * [`backend`]: the kernel trait, each kernel's written contract, and backend selection.
//!
//! ```
//! use mldsa::{MlDsa65, SigningKey};
//! let sk = SigningKey::<MlDsa65>::from_seed(&[7u8; 32]);
//! let sig = sk.sign_deterministic(b"message", b"context").unwrap();
//! sk.verifying_key().verify(b"message", b"context", &sig).unwrap();
//! assert!(sk.verifying_key().verify(b"massage", b"context", &sig).is_err());
//! ```

#![cfg_attr(not(test), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]
// No variable-latency divide on a secret (issue #21): every `/` and `%` in the library is
// either rewritten without division or allowed at its site with the public value it divides
// (README, "Constant-time test"). Test code is exempt.
#![cfg_attr(not(test), deny(clippy::integer_division_remainder_used))]

#[cfg(feature = "std")]
extern crate std;

mod api;
pub mod backend;
pub mod ct;
mod error;
pub mod keccak;
pub mod params;
pub mod poly;
pub mod prehash;
pub mod raw;
pub mod sample;
mod scheme;
mod small_div;

pub use api::{Signature, SigningKey, VerifyingKey};
pub use backend::BackendKind;
pub use error::{Error, HintError};
pub use params::{
    ML_DSA_44, ML_DSA_65, ML_DSA_87, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Params,
};
pub use prehash::PreHash;
pub use scheme::MAX_SIGNING_ATTEMPTS;
pub use signature;
