//! NIST ACVP ML-DSA vectors (ACVP-Server gen-val JSON, FIPS204 and FIPS204-tr1): prompt
//! files joined with expectedResults by tgId/tcId, each case run through [`mldsa::raw`] on a
//! chosen backend and, for signing and verifying, through the typed API as well.

use crate::Tally;
use mldsa::{BackendKind, Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Params, PreHash, raw};
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

/// The ACVP files this module runs, with the number of cases each must hold.
pub const FILES: [(&str, usize); 4] = [
    ("ML-DSA-keyGen-FIPS204", 75),
    ("ML-DSA-sigGen-FIPS204", 360),
    ("ML-DSA-sigGen-FIPS204-tr1", 720),
    ("ML-DSA-sigVer-FIPS204", 180),
];

fn load_json(path: &Path) -> Result<Value, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(f)
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// One test case: its group's fields and its own fields, plus the expected result.
#[derive(Debug)]
pub struct Case<'a> {
    /// Test group (parameterSet, signatureInterface, ...).
    pub group: &'a Value,
    /// The prompt's test object.
    pub test: &'a Value,
    /// The expectedResults test object.
    pub expected: &'a Value,
}

impl Case<'_> {
    /// "tgId N tcId M".
    pub fn id(&self) -> String {
        format!("tgId {} tcId {}", self.group["tgId"], self.test["tcId"])
    }
    /// A hex field of the test (or of its expected result), decoded.
    pub fn hex(&self, field: &str) -> Result<Vec<u8>, String> {
        let v = self.test.get(field).or_else(|| self.expected.get(field));
        let s = v
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{}: missing field {field}", self.id()))?;
        hex::decode(s).map_err(|e| format!("{}: field {field}: {e}", self.id()))
    }
    /// The group's parameter set.
    pub fn params(&self) -> Result<Params, String> {
        let name = self.group["parameterSet"].as_str().unwrap_or_default();
        mldsa::params::params_by_name(name)
            .ok_or_else(|| format!("{}: unknown parameter set {name}", self.id()))
    }
    /// A boolean field of the group (absent: false).
    pub fn flag(&self, field: &str) -> bool {
        self.group
            .get(field)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    }
    /// A string field of the group (absent: empty).
    pub fn str_field(&self, field: &str) -> &str {
        self.group
            .get(field)
            .and_then(Value::as_str)
            .unwrap_or_default()
    }
}

/// Loads `dir/<name>/prompt.json.gz` and `expectedResults.json.gz` and calls `f` per case.
pub fn for_each_case(
    dir: &Path,
    name: &str,
    mut f: impl FnMut(&Case<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let prompt = load_json(&dir.join("acvp").join(name).join("prompt.json.gz"))?;
    let expected = load_json(&dir.join("acvp").join(name).join("expectedResults.json.gz"))?;
    let mut results: HashMap<(u64, u64), &Value> = HashMap::new();
    for g in expected["testGroups"].as_array().into_iter().flatten() {
        for t in g["tests"].as_array().into_iter().flatten() {
            results.insert(
                (
                    g["tgId"].as_u64().unwrap_or(0),
                    t["tcId"].as_u64().unwrap_or(0),
                ),
                t,
            );
        }
    }
    for g in prompt["testGroups"]
        .as_array()
        .ok_or_else(|| format!("{name}: no testGroups"))?
    {
        for t in g["tests"].as_array().into_iter().flatten() {
            let key = (
                g["tgId"].as_u64().unwrap_or(0),
                t["tcId"].as_u64().unwrap_or(0),
            );
            let expected = results
                .get(&key)
                .ok_or_else(|| format!("{name}: no expected result for {key:?}"))?;
            f(&Case {
                group: g,
                test: t,
                expected,
            })?;
        }
    }
    Ok(())
}

/// How a signing or verifying case builds its input.
enum Input {
    /// M' given directly (internal interface, externalMu false).
    MPrime(Vec<u8>),
    /// mu given directly (internal interface, externalMu true).
    Mu([u8; 64]),
    /// Pure ML-DSA: message and context.
    Pure { msg: Vec<u8>, ctx: Vec<u8> },
    /// HashML-DSA: message, context and the pre-hash function.
    PreHash {
        msg: Vec<u8>,
        ctx: Vec<u8>,
        ph: PreHash,
    },
}

impl Input {
    fn from_case(c: &Case<'_>) -> Result<Input, String> {
        if c.str_field("signatureInterface") == "internal" {
            if c.flag("externalMu") {
                let mu = c.hex("mu")?;
                return Ok(Input::Mu(
                    mu.try_into()
                        .map_err(|_| format!("{}: mu is not 64 bytes", c.id()))?,
                ));
            }
            return Ok(Input::MPrime(c.hex("message")?));
        }
        let msg = c.hex("message")?;
        let ctx = c.hex("context")?;
        if c.str_field("preHash") == "preHash" {
            let name = c.test["hashAlg"].as_str().unwrap_or_default();
            let ph = PreHash::from_name(name)
                .ok_or_else(|| format!("{}: unknown hashAlg {name}", c.id()))?;
            Ok(Input::PreHash { msg, ctx, ph })
        } else {
            Ok(Input::Pure { msg, ctx })
        }
    }

    /// Calls `f` with M' as parts, or with mu.
    fn with_m_prime<R>(
        &self,
        f: impl FnOnce(Result<&[&[u8]], &[u8; 64]>) -> R,
    ) -> Result<R, Error> {
        match self {
            Input::MPrime(m) => Ok(f(Ok(&[m]))),
            Input::Mu(mu) => Ok(f(Err(mu))),
            Input::Pure { msg, ctx } => {
                let prefix = raw::pure_prefix(ctx)?;
                Ok(f(Ok(&[&prefix, ctx, msg])))
            }
            Input::PreHash { msg, ctx, ph } => {
                let (prefix, oid) = raw::prehash_prefix(ctx, *ph)?;
                let d = ph.digest(msg);
                Ok(f(Ok(&[&prefix, ctx, &oid, &d[..ph.digest_len()]])))
            }
        }
    }
}

/// keyGen: KeyGen_internal(seed) must give the expected pk and sk.
pub fn keygen(dir: &Path, backend: BackendKind) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for_each_case(dir, "ML-DSA-keyGen-FIPS204", |c| {
        let p = c.params()?;
        let xi: [u8; 32] = c
            .hex("seed")?
            .try_into()
            .map_err(|_| format!("{}: seed is not 32 bytes", c.id()))?;
        let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
        raw::keygen_internal(backend, &p, &xi, &mut pk, &mut sk).map_err(|e| e.to_string())?;
        let (epk, esk) = (c.hex("pk")?, c.hex("sk")?);
        tally.check(pk == epk && sk == esk, || {
            format!(
                "{} ({}): pk ok {}, sk ok {}",
                c.id(),
                p.name,
                pk == epk,
                sk == esk
            )
        });
        Ok(())
    })?;
    Ok(tally)
}

/// The typed API's signature for the same case, to check it agrees with the raw path.
fn typed_sign<P: ParameterSet>(sk: &[u8], input: &Input, rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
    let key = mldsa::SigningKey::<P>::from_expanded_bytes(sk)?;
    let sig = match input {
        Input::MPrime(m) => key.sign_internal(m, rnd)?,
        Input::Mu(mu) => key.sign_mu(mu, rnd)?,
        Input::Pure { msg, ctx } => key.sign_with_rnd(msg, ctx, rnd)?,
        Input::PreHash { msg, ctx, ph } => key.sign_prehash_with_rnd(*ph, msg, ctx, rnd)?,
    };
    Ok(sig.as_bytes().to_vec())
}

fn typed_verify<P: ParameterSet>(pk: &[u8], input: &Input, sig: &[u8]) -> Result<(), Error> {
    let vk = mldsa::VerifyingKey::<P>::from_bytes(pk)?;
    let sig = mldsa::Signature::<P>::from_bytes(sig)?;
    match input {
        Input::MPrime(m) => vk.verify_internal(m, &sig),
        Input::Mu(mu) => vk.verify_mu(mu, &sig),
        Input::Pure { msg, ctx } => vk.verify(msg, ctx, &sig),
        Input::PreHash { msg, ctx, ph } => vk.verify_prehash(*ph, msg, ctx, &sig),
    }
}

macro_rules! by_set {
    ($p:expr, $f:ident($($arg:expr),*)) => {
        match $p.name {
            "ML-DSA-44" => $f::<MlDsa44>($($arg),*),
            "ML-DSA-65" => $f::<MlDsa65>($($arg),*),
            _ => $f::<MlDsa87>($($arg),*),
        }
    };
}

/// sigGen (`ML-DSA-sigGen-FIPS204`) or sigGen tr1 (`...-tr1`, which adds seed-format keys).
/// Each case is signed through `raw` on `backend`; with `typed`, also through the typed API
/// (which runs on the process's default backend).
pub fn siggen(dir: &Path, name: &str, backend: BackendKind, typed: bool) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for_each_case(dir, name, |c| {
        let p = c.params()?;
        let sk = if c.str_field("keyFormat") == "seed" {
            let xi: [u8; 32] = c
                .hex("seed")?
                .try_into()
                .map_err(|_| format!("{}: seed is not 32 bytes", c.id()))?;
            let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
            raw::keygen_internal(backend, &p, &xi, &mut pk, &mut sk).map_err(|e| e.to_string())?;
            sk
        } else {
            c.hex("sk")?
        };
        let rnd: [u8; 32] = if c.flag("deterministic") {
            [0; 32]
        } else {
            c.hex("rnd")?
                .try_into()
                .map_err(|_| format!("{}: rnd is not 32 bytes", c.id()))?
        };
        let input = Input::from_case(c)?;
        let mut sig = vec![0u8; p.sig_bytes()];
        input
            .with_m_prime(|m| match m {
                Ok(parts) => raw::sign_internal(backend, &p, &sk, parts, &rnd, &mut sig),
                Err(mu) => raw::sign_mu(backend, &p, &sk, mu, &rnd, &mut sig),
            })
            .and_then(|r| r)
            .map_err(|e| format!("{}: {e}", c.id()))?;
        let expected = c.hex("signature")?;
        let typed_ok =
            !typed || by_set!(p, typed_sign(&sk, &input, &rnd)).as_ref() == Ok(&expected);
        tally.check(sig == expected && typed_ok, || {
            format!(
                "{} ({}): raw matches {}, typed API matches {}",
                c.id(),
                p.name,
                sig == expected,
                typed_ok
            )
        });
        Ok(())
    })?;
    Ok(tally)
}

/// sigVer: accept/reject must equal `testPassed`, through `raw` and the typed API.
pub fn sigver(dir: &Path, backend: BackendKind, typed: bool) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for_each_case(dir, "ML-DSA-sigVer-FIPS204", |c| {
        let p = c.params()?;
        let pk = c.hex("pk")?;
        let sig = c.hex("signature")?;
        let input = Input::from_case(c)?;
        let expected = c.expected["testPassed"]
            .as_bool()
            .ok_or_else(|| format!("{}: no testPassed", c.id()))?;
        let got = input
            .with_m_prime(|m| match m {
                Ok(parts) => raw::verify_internal(backend, &p, &pk, parts, &sig),
                Err(mu) => raw::verify_mu(backend, &p, &pk, mu, &sig),
            })
            .and_then(|r| r);
        let typed_got = if typed {
            by_set!(p, typed_verify(&pk, &input, &sig)).is_ok()
        } else {
            got.is_ok()
        };
        tally.check(got.is_ok() == expected && typed_got == expected, || {
            format!(
                "{} ({}): expected {expected}, raw gave {got:?}, typed API gave {typed_got}",
                c.id(),
                p.name
            )
        });
        Ok(())
    })?;
    Ok(tally)
}
