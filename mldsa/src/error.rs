//! Typed errors. Every malformed input maps to one of these; nothing panics on bad bytes.

use crate::backend::kind::BackendKind;

/// Why a hint encoding was rejected (FIPS 204 Algorithm 21, HintBitUnpack).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HintError {
    /// The cumulative index count for polynomial `poly` is smaller than the previous one.
    CountDecreasing {
        /// Which polynomial of h.
        poly: usize,
    },
    /// The cumulative index count for polynomial `poly` exceeds omega.
    CountExceedsOmega {
        /// Which polynomial of h.
        poly: usize,
    },
    /// Within polynomial `poly` the positions are not strictly increasing.
    IndicesNotIncreasing {
        /// Which polynomial of h.
        poly: usize,
    },
    /// A byte after the last used index slot is not zero.
    NonZeroPadding,
}

/// Errors returned by this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An input had the wrong length.
    InvalidLength {
        /// What was being decoded ("public key", "signature", ...).
        what: &'static str,
        /// The required length.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A context string longer than 255 bytes (FIPS 204 Algorithms 2-5).
    ContextTooLong {
        /// Its length.
        len: usize,
    },
    /// An expanded secret key holds an s1 or s2 coefficient outside [-eta, eta].
    SecretKeyOutOfRange,
    /// An expanded secret key whose tr or t0 does not match its rho, s1 and s2.
    SecretKeyInconsistent,
    /// The hint part of a signature is not a valid encoding.
    MalformedHint(HintError),
    /// A signature's z has a coefficient with |z| >= gamma1 - beta.
    SignatureZOutOfRange,
    /// A pre-hash digest whose length does not fit the hash function named.
    InvalidDigestLength {
        /// Required length.
        expected: usize,
        /// Given length.
        got: usize,
    },
    /// The signature does not verify.
    VerificationFailed,
    /// A backend was requested that this CPU (or build) does not have.
    BackendUnavailable(BackendKind),
    /// `MLDSA_BACKEND` (or a backend name) is not one of portable, avx2, avx512, neon.
    UnknownBackend,
    /// The random number generator failed.
    Rng,
    /// Signing rejected [`crate::MAX_SIGNING_ATTEMPTS`] candidate signatures in a row. With
    /// correct arithmetic this happens with probability below 2^-256 (FIPS 204 Appendix C);
    /// in practice it means a faulty kernel.
    SigningAttemptsExhausted,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::InvalidLength {
                what,
                expected,
                got,
            } => {
                write!(f, "{what}: expected {expected} bytes, got {got}")
            }
            Error::ContextTooLong { len } => write!(f, "context of {len} bytes exceeds 255"),
            Error::SecretKeyOutOfRange => {
                f.write_str("secret key s1/s2 coefficient outside [-eta, eta]")
            }
            Error::SecretKeyInconsistent => {
                f.write_str("secret key tr or t0 does not match rho, s1, s2")
            }
            Error::MalformedHint(h) => write!(f, "malformed hint encoding: {h:?}"),
            Error::SignatureZOutOfRange => f.write_str("signature z coefficient outside the bound"),
            Error::InvalidDigestLength { expected, got } => {
                write!(f, "pre-hash digest: expected {expected} bytes, got {got}")
            }
            Error::VerificationFailed => f.write_str("signature verification failed"),
            Error::BackendUnavailable(b) => {
                write!(f, "backend {} is not available on this CPU/build", b.name())
            }
            Error::UnknownBackend => {
                f.write_str("unknown backend name (expected portable, avx2, avx512 or neon)")
            }
            Error::Rng => f.write_str("random number generator failure"),
            Error::SigningAttemptsExhausted => {
                f.write_str("signing loop limit reached (a faulty kernel?)")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
