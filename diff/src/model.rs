//! The harness's data: an input ([`Case`]), one implementation's answer ([`Output`], with a
//! typed [`Verdict`]), and where two answers differ ([`Difference`], at a typed [`Field`]).
//! A leaf module: it knows nothing of checks or implementations.

use mldsa::params::Q;
use serde::{Deserialize, Serialize};

/// One input. Kernel checks use `polys`, `bytes` and `scalar`; end-to-end checks use the
/// named byte fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Case {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polys: Vec<Vec<i32>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub bytes: Vec<u8>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scalar: i64,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub pk: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub sk: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub msg: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub ctx: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub rnd: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub sig: Vec<u8>,
    /// For signing cases whose secret key is KeyGen_internal(xi)'s: that xi (an implementation
    /// that signs only with keys it derives from a seed takes it; the validation checks it
    /// makes `sk`).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub xi: Vec<u8>,
    /// For verify cases: what was done to the valid signature (informational).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

fn is_zero(x: &i64) -> bool {
    *x == 0
}

/// The outcome of a decoder, verifier or signer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// The check has no verdict.
    #[default]
    None,
    /// A decoder or verifier accepted.
    Accept,
    /// A decoder or verifier rejected, with the implementation's reason if it gives one
    /// (reasons are informational: checks that compare verdicts compare [`Verdict::kind`]).
    Reject(Option<String>),
    /// An s1/s2 decoding whose coefficients all lie in [-eta, eta].
    InRange,
    /// An s1/s2 decoding with a coefficient outside [-eta, eta].
    OutOfRange,
    /// A signer produced a signature.
    Signed,
    /// A signer refused: its error, as it words it.
    Error(String),
    /// The harness around the implementation failed: never an answer of its own, judged wrong
    /// whoever it comes from, the reference included.
    Fault(Fault),
}

/// A failure of the harness around an implementation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
pub enum Fault {
    /// A kernel wrote outside the output buffer it was handed (its guard bytes changed).
    #[error(
        "{kernel} wrote outside its output buffer (guard changed up to {before} bytes before \
         and {after} bytes after it)"
    )]
    Guard {
        kernel: String,
        /// Bytes before the buffer that changed (the farthest, counted from its start).
        before: usize,
        /// Bytes after the buffer that changed (the farthest, counted from its end).
        after: usize,
    },
    /// A kernel's two entry points (this library's Keccak permutations for secret and for
    /// public states) gave different answers on the same input.
    #[error("{kernel}: the entry points for secret and for public states disagree")]
    EntryPoints { kernel: String },
    /// The C code's randomness could not be scripted.
    #[error("scripting the C randomness failed: {0}")]
    Script(String),
    #[error("panicked: {0}")]
    Panic(String),
    /// The call did not return within the case time limit.
    #[error("{implementation} did not return within {} s (hang)", *.millis as f64 / 1000.0)]
    Hang {
        implementation: String,
        /// The limit, in milliseconds.
        millis: u64,
    },
    /// The harness could not state the answer a known difference requires for this input.
    #[error("{0}")]
    Expectation(String),
    /// An implementation in another process exited (or closed its output) instead of
    /// answering.
    #[error("{implementation} exited ({status}) instead of answering; its last stderr: {stderr:?}")]
    Exited {
        implementation: String,
        status: String,
        stderr: String,
    },
    /// An implementation in another process answered with something that is not an answer
    /// of the protocol (not JSON, a missing field, another request's id).
    #[error("{implementation} answered a malformed line ({why}): {line:?}")]
    Malformed {
        implementation: String,
        why: String,
        /// The line, cut to 200 characters.
        line: String,
    },
    /// Two routes of one API that must answer alike did not (the typed API's keypair and seed
    /// accessors, say): a fault of that implementation, whatever the others answer.
    #[error("{implementation} contradicted itself: {what}")]
    Contradiction {
        implementation: String,
        what: String,
    },
    /// An implementation answered a key or signature of a length FIPS 204 does not give it.
    #[error("{implementation} answered a {got}-byte {field}; {set} has {want}")]
    Length {
        implementation: String,
        field: String,
        set: String,
        got: usize,
        want: usize,
    },
}

impl Fault {
    /// The answer that stands for this fault.
    pub fn output(self) -> Output {
        Output {
            verdict: Verdict::Fault(self),
            ..Output::default()
        }
    }
}

impl Verdict {
    pub fn accept(ok: bool) -> Self {
        if ok {
            Verdict::Accept
        } else {
            Verdict::Reject(None)
        }
    }

    /// The verdict without the informational reason of a rejection.
    pub fn kind(&self) -> Verdict {
        match self {
            Verdict::Reject(_) => Verdict::Reject(None),
            v => v.clone(),
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::None => Ok(()),
            Verdict::Accept => f.write_str("accept"),
            Verdict::Reject(None) => f.write_str("reject"),
            Verdict::Reject(Some(r)) => write!(f, "reject ({r})"),
            Verdict::InRange => f.write_str("in range"),
            Verdict::OutOfRange => f.write_str("out of range"),
            Verdict::Signed => f.write_str("signed"),
            Verdict::Error(e) => write!(f, "error: {e}"),
            Verdict::Fault(e) => write!(f, "error: harness: {e}"),
        }
    }
}

fn is_none(v: &Verdict) -> bool {
    *v == Verdict::None
}

/// One implementation's answer. NTT-domain polynomials are in the canonical (FIPS 204
/// bit-reversed) order whatever the implementation's internal order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Output {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polys: Vec<Vec<i32>>,
    /// Output bytes (packed data, keys, signatures).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex::serde")]
    pub bytes: Vec<u8>,
    /// A count or boolean (as 0/1).
    #[serde(default)]
    pub scalar: i64,
    #[serde(default, skip_serializing_if = "is_none")]
    pub verdict: Verdict,
}

/// Which part of an [`Output`] a [`Difference`] is in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Field {
    /// Output polynomial `i`.
    Poly(usize),
    /// Output polynomial `i` lies outside the kernel contract's output bounds.
    PolyContract(usize),
    /// The number of output polynomials.
    PolyCount,
    Bytes,
    Scalar,
    Verdict,
    /// Accept/reject (verify checks compare only that).
    Accept,
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Field::Poly(i) => write!(f, "polys[{i}]"),
            Field::PolyContract(i) => write!(f, "polys[{i}] (contract output bound)"),
            Field::PolyCount => f.write_str("polys (count)"),
            Field::Bytes => f.write_str("bytes"),
            Field::Scalar => f.write_str("scalar"),
            Field::Verdict => f.write_str("verdict"),
            Field::Accept => f.write_str("accept"),
        }
    }
}

/// Where two outputs first differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    pub field: Field,
    /// First differing coefficient or byte within the field.
    pub index: usize,
    /// The reference's value there.
    pub reference: String,
    /// The other implementation's value there.
    pub other: String,
}

impl std::fmt::Display for Difference {
    /// "polys[0] index 17: reference 5 vs 6", as every report line words it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = self;
        write!(
            f,
            "{} index {}: reference {} vs {}",
            d.field, d.index, d.reference, d.other
        )
    }
}

/// Canonical representative in [0, q).
pub fn canonical(x: i32) -> i32 {
    x.rem_euclid(Q)
}

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
    /// OpenSSL's C code, built from the `openssl-src` crate's bundled source.
    OpenSsl,
    /// A program of its own, spoken to over the oracle protocol (`diff/oracles/PROTOCOL.md`).
    Process,
}

impl Provenance {
    /// How `list` and reports name it.
    pub fn describe(self) -> &'static str {
        match self {
            Provenance::Ours => "this crate",
            Provenance::PqClean => "PQClean C",
            Provenance::MldsaNative => "mldsa-native C",
            Provenance::RustPeer => "Rust peer",
            Provenance::OpenSsl => "OpenSSL C",
            Provenance::Process => "another process",
        }
    }
}
