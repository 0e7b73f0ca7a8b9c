//! The hello line an adapter starts with (`diff/oracles/PROTOCOL.md`): what it is, how fast it
//! is, what it offers and why it leaves the rest out. Parsed strictly: an unknown field, mode,
//! pre-hash or kernel name is an error at start-up, never something silently not asked.

use crate::oracle::Msg;
use mldsa::prehash::PreHash;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The protocol versions this harness speaks.
pub const PROTOCOLS: &[&str] = &["mldsa-diff-oracle/1"];

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hello {
    pub protocol: String,
    pub name: String,
    pub version: String,
    /// One ML-DSA-44 signature through the adapter, in microseconds.
    pub sign_us: u32,
    /// One kernel call, in microseconds.
    #[serde(default)]
    pub kernel_us: Option<u32>,
    pub offers: Offers,
    /// What it leaves out, and why.
    #[serde(default)]
    pub not_offered: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Offers {
    #[serde(default)]
    pub keygen: bool,
    #[serde(default)]
    pub sign: Option<SignOffer>,
    #[serde(default)]
    pub verify: Option<Modes>,
    #[serde(default)]
    pub kernels: Vec<Kernel>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyForm {
    /// The FIPS 204 encoding of the secret key, as given.
    Expanded,
    /// Only a key it derives from xi itself.
    Seed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rnd {
    /// Any 32-byte rnd.
    Given,
    /// Deterministic signing only (rnd = 32 zero bytes).
    Zero,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignOffer {
    pub key: KeyForm,
    pub rnd: Rnd,
    pub modes: Vec<Mode>,
    #[serde(default)]
    pub prehashes: Vec<String>,
}

impl SignOffer {
    /// Its modes and pre-hash functions.
    pub fn modes(&self) -> Modes {
        Modes {
            modes: self.modes.clone(),
            prehashes: self.prehashes.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Pure,
    Prehash,
    Prehashed,
    Mu,
    Internal,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Modes {
    pub modes: Vec<Mode>,
    /// Pre-hash functions by the protocol's names (`SHA2-256`, ..., `SHAKE-256`).
    #[serde(default)]
    pub prehashes: Vec<String>,
}

/// The kernel operations of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kernel {
    Ntt,
    Power2round,
    Decompose,
    UseHint,
    SampleInBall,
    ExpandA,
    RejNttPoly,
    RejBoundedPoly,
    ExpandMaskPoly,
    ExpandMask,
}

impl Kernel {
    /// Its `op` in a request.
    pub fn op(self) -> &'static str {
        match self {
            Kernel::Ntt => "ntt",
            Kernel::Power2round => "power2round",
            Kernel::Decompose => "decompose",
            Kernel::UseHint => "use_hint",
            Kernel::SampleInBall => "sample_in_ball",
            Kernel::ExpandA => "expand_a",
            Kernel::RejNttPoly => "rej_ntt_poly",
            Kernel::RejBoundedPoly => "rej_bounded_poly",
            Kernel::ExpandMaskPoly => "expand_mask_poly",
            Kernel::ExpandMask => "expand_mask",
        }
    }
}

/// What a message is sent as: its mode, the bytes in `msg`, the context and the pre-hash.
#[derive(Clone, Copy, Debug)]
pub struct Wire<'a> {
    pub mode: Mode,
    pub msg: &'a [u8],
    pub ctx: Option<&'a [u8]>,
    pub ph: Option<PreHash>,
}

/// How `m` is sent.
pub fn wire<'a>(m: &Msg<'a>) -> Wire<'a> {
    let (mode, msg, ctx, ph) = match *m {
        Msg::Pure { msg, ctx } => (Mode::Pure, msg, Some(ctx), None),
        Msg::PreHash { ph, msg, ctx } => (Mode::Prehash, msg, Some(ctx), Some(ph)),
        Msg::PreHashed { ph, digest, ctx } => (Mode::Prehashed, digest, Some(ctx), Some(ph)),
        Msg::Mu(mu) => (Mode::Mu, mu.as_slice(), None, None),
        Msg::Internal(m_prime) => (Mode::Internal, m_prime, None, None),
    };
    Wire { mode, msg, ctx, ph }
}

impl Modes {
    /// Whether a message sent as `w` is offered.
    pub fn offer(&self, w: &Wire<'_>) -> bool {
        self.modes.contains(&w.mode)
            && w.ph
                .is_none_or(|ph| self.prehashes.iter().any(|n| n == ph.name()))
    }

    fn check(&self, what: &str) -> Result<(), String> {
        if let Some(n) = self
            .prehashes
            .iter()
            .find(|n| !PreHash::ALL.iter().any(|ph| ph.name() == n.as_str()))
        {
            let known: Vec<&str> = PreHash::ALL.iter().map(|ph| ph.name()).collect();
            return Err(format!(
                "{what}: unknown pre-hash {n:?} (the protocol's names: {})",
                known.join(", ")
            ));
        }
        let pre = self.modes.contains(&Mode::Prehash) || self.modes.contains(&Mode::Prehashed);
        if pre == self.prehashes.is_empty() {
            return Err(format!(
                "{what}: the pre-hash modes need the pre-hash functions they take, and only they"
            ));
        }
        Ok(())
    }
}

impl Hello {
    /// Parses and checks the first line an adapter wrote.
    pub fn parse(line: &str) -> Result<Hello, String> {
        let h: Hello = serde_json::from_str(line.trim_end())
            .map_err(|e| format!("its first line is not a hello of the protocol ({e})"))?;
        if !PROTOCOLS.contains(&h.protocol.as_str()) {
            return Err(format!(
                "it speaks {:?}; this harness speaks {}",
                h.protocol,
                PROTOCOLS.join(", ")
            ));
        }
        if let Some(s) = &h.offers.sign {
            s.modes().check("sign")?;
        }
        if let Some(v) = &h.offers.verify {
            v.check("verify")?;
        }
        if !h.offers.kernels.is_empty() && h.kernel_us.is_none() {
            return Err("it offers kernels but states no kernel_us".into());
        }
        if h.sign_us == 0 {
            return Err("sign_us is 0: state the measured time of one ML-DSA-44 signature".into());
        }
        Ok(h)
    }
}
