//! The harness's data: an input ([`Case`]), one implementation's answer ([`Output`], with a
//! typed [`Verdict`]), and where two answers differ ([`Difference`], at a typed [`Field`]).
//! A leaf module: it knows nothing of checks or implementations.

use mldsa::params::Q;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bytes serialised as a hex string in reports.
pub(crate) mod hex_bytes {
    use serde::{Deserialize, Deserializer, Serializer};
    pub(crate) fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(b))
    }
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        hex::decode(String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// One input. Kernel checks use `polys`, `bytes` and `scalar`; end-to-end checks use the
/// named byte fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Case {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polys: Vec<Vec<i32>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex_bytes")]
    pub bytes: Vec<u8>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scalar: i64,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex_bytes")]
    pub pk: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex_bytes")]
    pub sk: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex_bytes")]
    pub msg: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex_bytes")]
    pub ctx: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex_bytes")]
    pub rnd: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex_bytes")]
    pub sig: Vec<u8>,
    /// For verify cases: what was done to the valid signature (informational).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

fn is_zero(x: &i64) -> bool {
    *x == 0
}

/// The outcome of a decoder, verifier or signer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
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
    /// A signer (or the harness around it) failed: the error, as displayed.
    Error(String),
}

impl Verdict {
    /// Accept or reject.
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

/// How a harness error's text begins (a guard violation, a panic, a hang, C randomness that
/// could not be scripted): any implementation, the reference included, is judged wrong for one.
pub const HARNESS_ERROR: &str = "harness: ";

impl Output {
    /// Whether this answer is a harness error.
    pub fn is_harness_fault(&self) -> bool {
        matches!(&self.verdict, Verdict::Error(e) if e.starts_with(HARNESS_ERROR))
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
        }
    }
}

impl std::str::FromStr for Verdict {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "" => Verdict::None,
            "accept" => Verdict::Accept,
            "reject" => Verdict::Reject(None),
            "in range" => Verdict::InRange,
            "out of range" => Verdict::OutOfRange,
            "signed" => Verdict::Signed,
            _ => {
                if let Some(r) = s.strip_prefix("reject (").and_then(|r| r.strip_suffix(')')) {
                    Verdict::Reject(Some(r.to_string()))
                } else if let Some(e) = s.strip_prefix("error: ") {
                    Verdict::Error(e.to_string())
                } else {
                    return Err(format!("not a verdict: {s:?}"));
                }
            }
        })
    }
}

impl Serialize for Verdict {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Verdict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

fn is_none(v: &Verdict) -> bool {
    *v == Verdict::None
}

/// One implementation's answer. NTT-domain polynomials are in the canonical (FIPS 204
/// bit-reversed) order whatever the implementation's internal order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Output {
    /// Output polynomials.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polys: Vec<Vec<i32>>,
    /// Output bytes (packed data, keys, signatures).
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hex_bytes")]
    pub bytes: Vec<u8>,
    /// A count or boolean (as 0/1).
    #[serde(default)]
    pub scalar: i64,
    /// The verdict of a decoder, verifier or signer.
    #[serde(default, skip_serializing_if = "is_none")]
    pub verdict: Verdict,
}

/// Which part of an [`Output`] a [`Difference`] is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// Output polynomial `i`.
    Poly(usize),
    /// Output polynomial `i` lies outside the kernel contract's output bounds.
    PolyContract(usize),
    /// The number of output polynomials.
    PolyCount,
    /// The output bytes.
    Bytes,
    /// The scalar.
    Scalar,
    /// The verdict.
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

impl std::str::FromStr for Field {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let index = |r: &str| {
            r.parse::<usize>()
                .map_err(|_| format!("not a field: {s:?}"))
        };
        Ok(match s {
            "polys (count)" => Field::PolyCount,
            "bytes" => Field::Bytes,
            "scalar" => Field::Scalar,
            "verdict" => Field::Verdict,
            "accept" => Field::Accept,
            _ => {
                let rest = s
                    .strip_prefix("polys[")
                    .ok_or_else(|| format!("not a field: {s:?}"))?;
                if let Some(i) = rest.strip_suffix("] (contract output bound)") {
                    Field::PolyContract(index(i)?)
                } else {
                    Field::Poly(index(rest.strip_suffix(']').unwrap_or("?"))?)
                }
            }
        })
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// Where two outputs first differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The part of the output.
    pub field: Field,
    /// First differing coefficient or byte within the field.
    pub index: usize,
    /// The reference's value there.
    pub reference: String,
    /// The other implementation's value there.
    pub other: String,
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
