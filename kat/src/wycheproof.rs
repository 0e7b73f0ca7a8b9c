//! C2SP Wycheproof ML-DSA vectors (`testvectors_v1/mldsa_{44,65,87}_{sign_seed,sign_noseed,
//! verify}_test.json`, stored gzip-compressed under `<vectors>/wycheproof/`): a strict parser
//! that keeps every field of every file, group and case (and rejects fields it does not know,
//! so nothing is dropped unnoticed), and a runner that checks each case on a chosen backend
//! through [`mldsa::raw`] and, optionally, through the typed API.
//!
//! What a case asks (Wycheproof `doc/mldsa.md`, and the vectors README):
//! * sign (seed or expanded key): sign `msg` with `ctx` (absent = empty), or, when only `mu`
//!   is given (flag `Internal`), run Sign_internal from mu; `rnd` absent means the
//!   deterministic variant (32 zero bytes). A "valid" case must give exactly `sig`; an
//!   "invalid" one (context over 255 bytes, a private key or seed of the wrong length, an
//!   expanded key with s1/s2 out of range) must be refused with an error.
//! * verify: ML-DSA.Verify(publicKey, msg, sig, ctx) must accept exactly the "valid" cases.
//!
//! "acceptable" (Wycheproof: a case an implementation may accept or reject) does not occur in
//! these files: FIPS 204 leaves no choice. Should a later version of the files add such a
//! case, it must be listed in [`ACCEPTABLE`] with what this library does with it; the runner
//! then asserts that behaviour, and fails on any acceptable case that is not listed (and on a
//! listed case that is not acceptable in the files), so none is ever passed over silently.

use crate::Tally;
use mldsa::{BackendKind, Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Params, raw};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The three kinds of Wycheproof ML-DSA file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `*_sign_seed_test.json`: groups carry the 32-byte seed xi (`privateSeed`).
    SignSeed,
    /// `*_sign_noseed_test.json`: groups carry the expanded key (`privateKey`, skEncode).
    SignNoseed,
    /// `*_verify_test.json`: groups carry only the public key.
    Verify,
}

impl FileKind {
    /// The `schema` field such a file names.
    pub const fn schema(self) -> &'static str {
        match self {
            FileKind::SignSeed => "mldsa_sign_seed_schema.json",
            FileKind::SignNoseed => "mldsa_sign_noseed_schema.json",
            FileKind::Verify => "mldsa_verify_schema.json",
        }
    }
    /// The `type` field of its test groups.
    pub const fn group_type(self) -> &'static str {
        match self {
            FileKind::SignSeed | FileKind::SignNoseed => "MlDsaSign",
            FileKind::Verify => "MlDsaVerify",
        }
    }
}

/// One file this module runs, with the case counts it must hold (C2SP/wycheproof commit
/// dac1dd4729fd1f8dd9e1e9f3dce51d783da6c166; 1,138 cases in all).
#[derive(Clone, Copy, Debug)]
pub struct FileSpec {
    /// Upstream file name (stored as `<name>.gz`).
    pub name: &'static str,
    /// Which kind of file.
    pub kind: FileKind,
    /// Its parameter set.
    pub params: Params,
    /// Number of cases.
    pub cases: usize,
    /// Cases whose result is "valid".
    pub valid: usize,
    /// Cases whose result is "invalid".
    pub invalid: usize,
}

const fn spec(
    name: &'static str,
    kind: FileKind,
    params: Params,
    (cases, valid, invalid): (usize, usize, usize),
) -> FileSpec {
    FileSpec {
        name,
        kind,
        params,
        cases,
        valid,
        invalid,
    }
}

/// Every Wycheproof ML-DSA file, with its pinned counts (cases, valid, invalid).
pub const FILES: [FileSpec; 9] = {
    use FileKind::*;
    use mldsa::{ML_DSA_44 as P44, ML_DSA_65 as P65, ML_DSA_87 as P87};
    [
        spec("mldsa_44_sign_seed_test.json", SignSeed, P44, (86, 82, 4)),
        spec(
            "mldsa_44_sign_noseed_test.json",
            SignNoseed,
            P44,
            (73, 68, 5),
        ),
        spec("mldsa_44_verify_test.json", Verify, P44, (180, 77, 103)),
        spec("mldsa_65_sign_seed_test.json", SignSeed, P65, (105, 101, 4)),
        spec(
            "mldsa_65_sign_noseed_test.json",
            SignNoseed,
            P65,
            (78, 73, 5),
        ),
        spec("mldsa_65_verify_test.json", Verify, P65, (210, 79, 131)),
        spec("mldsa_87_sign_seed_test.json", SignSeed, P87, (96, 92, 4)),
        spec(
            "mldsa_87_sign_noseed_test.json",
            SignNoseed,
            P87,
            (69, 64, 5),
        ),
        spec("mldsa_87_verify_test.json", Verify, P87, (241, 71, 170)),
    ]
};

/// The number of cases in all files (the vectors README says 1,138).
pub const TOTAL_CASES: usize = 1138;

/// What this library does with a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Signs (giving exactly the expected signature) or verifies.
    Accepts,
    /// Returns an error.
    Rejects,
}

/// Cases the files mark "acceptable", as (file name, tcId, what this library does): the
/// runner asserts that behaviour. None of the pinned files holds such a case, so the list is
/// empty; see the module documentation.
pub const ACCEPTABLE: &[(&str, u64, Verdict)] = &[];

/// Flags some cases carry that the file's `notes` do not describe: upstream omits a note for
/// `InvalidSignature` (used with `ZeroPublicKey` in the verify files). Any other flag missing
/// from `notes` is a parse error.
pub const FLAGS_WITHOUT_NOTE: &[&str] = &["InvalidSignature"];

/// A `notes` entry: what a flag means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// `bugType` (BASIC, EDGE_CASE, ...).
    pub bug_type: String,
    /// `description`.
    pub description: String,
}

/// A group's `source`: who generated its cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// `name`.
    pub name: String,
    /// `version`.
    pub version: String,
}

/// The private part of a group, by file kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupKey {
    /// sign_seed: `privateSeed` (xi; a length other than 32 is an invalid key) and, in some
    /// groups, `privateKeyPkcs8` (the seed in a PKCS#8 wrapper; not used by the runner).
    Seed {
        /// `privateSeed`.
        private_seed: Vec<u8>,
        /// `privateKeyPkcs8`, when present.
        private_key_pkcs8: Option<Vec<u8>>,
    },
    /// sign_noseed: `privateKey`, the skEncode form (possibly the wrong length or out of
    /// range).
    Expanded {
        /// `privateKey`.
        private_key: Vec<u8>,
    },
    /// verify: no private key; `publicKeyDer` (SubjectPublicKeyInfo; not used by the runner).
    None {
        /// `publicKeyDer`, when present.
        public_key_der: Option<Vec<u8>>,
    },
}

/// A case's `result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// "valid".
    Valid,
    /// "invalid".
    Invalid,
    /// "acceptable".
    Acceptable,
}

/// One test case, every field kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// `tcId`.
    pub tc_id: u64,
    /// `comment`.
    pub comment: String,
    /// `flags` (keys into the file's `notes`).
    pub flags: Vec<String>,
    /// `result`.
    pub result: Expected,
    /// `msg`, when present (absent in sign cases that give only mu).
    pub msg: Option<Vec<u8>>,
    /// `ctx`, when present (absent means empty; more than 255 bytes is invalid).
    pub ctx: Option<Vec<u8>>,
    /// `mu`, when present: 64 bytes in the files; sign cases give it alongside `msg` (the mu
    /// of msg and ctx) or alone (flag `Internal`).
    pub mu: Option<Vec<u8>>,
    /// `rnd`, when present (absent: the deterministic variant, 32 zero bytes).
    pub rnd: Option<Vec<u8>>,
    /// `sig`: the expected signature for sign cases (empty for invalid ones), the signature
    /// to verify for verify cases.
    pub sig: Vec<u8>,
}

impl Case {
    /// The context, empty when absent.
    pub fn ctx(&self) -> &[u8] {
        self.ctx.as_deref().unwrap_or_default()
    }
    fn label(&self) -> String {
        format!("tcId {} ({}) {:?}", self.tc_id, self.comment, self.flags)
    }
}

/// One test group, every field kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// `type` ("MlDsaSign" or "MlDsaVerify").
    pub group_type: String,
    /// `source`.
    pub source: Source,
    /// `publicKey` (null in groups whose private key has the wrong length).
    pub public_key: Option<Vec<u8>>,
    /// The private key fields.
    pub key: GroupKey,
    /// `tests`.
    pub tests: Vec<Case>,
}

/// One parsed file, every field kept.
#[derive(Clone, Debug)]
pub struct TestFile {
    /// The spec it was loaded for.
    pub spec: FileSpec,
    /// `algorithm` ("ML-DSA-44", ...).
    pub algorithm: String,
    /// `header`.
    pub header: Vec<String>,
    /// `notes`: flag name to its note.
    pub notes: BTreeMap<String, Note>,
    /// `numberOfTests`.
    pub number_of_tests: usize,
    /// `schema`.
    pub schema: String,
    /// `testGroups`.
    pub groups: Vec<Group>,
}

impl TestFile {
    /// Every case with its group.
    pub fn cases(&self) -> impl Iterator<Item = (&Group, &Case)> {
        self.groups
            .iter()
            .flat_map(|g| g.tests.iter().map(move |t| (g, t)))
    }
    /// Number of cases with the given result.
    pub fn count(&self, r: Expected) -> usize {
        self.cases().filter(|(_, c)| c.result == r).count()
    }
}

/// A JSON object whose fields are taken one by one; [`Fields::finish`] fails if any field
/// was left untaken, so the parser cannot drop a field it does not know about.
struct Fields<'a> {
    at: String,
    obj: &'a Map<String, Value>,
    taken: BTreeSet<&'static str>,
}

impl<'a> Fields<'a> {
    fn new(v: &'a Value, at: String) -> Result<Self, String> {
        let obj = v
            .as_object()
            .ok_or_else(|| format!("{at}: not a JSON object"))?;
        Ok(Fields {
            at,
            obj,
            taken: BTreeSet::new(),
        })
    }
    /// A field that may be absent or null.
    fn opt(&mut self, key: &'static str) -> Option<&'a Value> {
        self.taken.insert(key);
        self.obj.get(key).filter(|v| !v.is_null())
    }
    fn req(&mut self, key: &'static str) -> Result<&'a Value, String> {
        match self.opt(key) {
            Some(v) => Ok(v),
            None => Err(format!("{}: missing field {key}", self.at)),
        }
    }
    fn str(&mut self, key: &'static str) -> Result<&'a str, String> {
        let v = self.req(key)?;
        v.as_str()
            .ok_or_else(|| format!("{}: field {key} is not a string", self.at))
    }
    fn opt_hex(&mut self, key: &'static str) -> Result<Option<Vec<u8>>, String> {
        match self.opt(key) {
            None => Ok(None),
            Some(v) => {
                let s = v
                    .as_str()
                    .ok_or_else(|| format!("{}: field {key} is not a string", self.at))?;
                hex::decode(s)
                    .map(Some)
                    .map_err(|e| format!("{}: field {key}: {e}", self.at))
            }
        }
    }
    fn hex(&mut self, key: &'static str) -> Result<Vec<u8>, String> {
        let at = self.at.clone();
        self.opt_hex(key)?
            .ok_or_else(|| format!("{at}: missing field {key}"))
    }
    fn array(&mut self, key: &'static str) -> Result<&'a Vec<Value>, String> {
        let v = self.req(key)?;
        v.as_array()
            .ok_or_else(|| format!("{}: field {key} is not an array", self.at))
    }
    fn strings(&mut self, key: &'static str) -> Result<Vec<String>, String> {
        let at = self.at.clone();
        self.array(key)?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("{at}: {key} holds a non-string"))
            })
            .collect()
    }
    fn finish(self) -> Result<(), String> {
        let unknown: Vec<&String> = self
            .obj
            .keys()
            .filter(|k| !self.taken.contains(k.as_str()))
            .collect();
        if unknown.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{}: unknown field(s) {unknown:?} (the parser keeps every field; teach it these)",
                self.at
            ))
        }
    }
}

fn parse_case(v: &Value, at: &str) -> Result<Case, String> {
    let id = v.get("tcId").and_then(Value::as_u64);
    let mut f = Fields::new(v, format!("{at} tcId {}", id.unwrap_or(0)))?;
    let tc_id = f
        .req("tcId")?
        .as_u64()
        .ok_or_else(|| format!("{at}: tcId is not an unsigned integer"))?;
    let result = match f.str("result")? {
        "valid" => Expected::Valid,
        "invalid" => Expected::Invalid,
        "acceptable" => Expected::Acceptable,
        other => return Err(format!("{at} tcId {tc_id}: unknown result {other:?}")),
    };
    let case = Case {
        tc_id,
        comment: f.str("comment")?.to_owned(),
        flags: f.strings("flags")?,
        result,
        msg: f.opt_hex("msg")?,
        ctx: f.opt_hex("ctx")?,
        mu: f.opt_hex("mu")?,
        rnd: f.opt_hex("rnd")?,
        sig: f.hex("sig")?,
    };
    f.finish()?;
    Ok(case)
}

fn parse_group(v: &Value, kind: FileKind, at: &str) -> Result<Group, String> {
    let mut f = Fields::new(v, at.to_owned())?;
    let group_type = f.str("type")?.to_owned();
    if group_type != kind.group_type() {
        return Err(format!(
            "{at}: group type {group_type:?}, expected {:?}",
            kind.group_type()
        ));
    }
    let mut s = Fields::new(f.req("source")?, format!("{at} source"))?;
    let source = Source {
        name: s.str("name")?.to_owned(),
        version: s.str("version")?.to_owned(),
    };
    s.finish()?;
    let key = match kind {
        FileKind::SignSeed => GroupKey::Seed {
            private_seed: f.hex("privateSeed")?,
            private_key_pkcs8: f.opt_hex("privateKeyPkcs8")?,
        },
        FileKind::SignNoseed => GroupKey::Expanded {
            private_key: f.hex("privateKey")?,
        },
        FileKind::Verify => GroupKey::None {
            public_key_der: f.opt_hex("publicKeyDer")?,
        },
    };
    let public_key = f.opt_hex("publicKey")?;
    let tests = f
        .array("tests")?
        .iter()
        .map(|t| parse_case(t, at))
        .collect::<Result<Vec<_>, _>>()?;
    f.finish()?;
    Ok(Group {
        group_type,
        source,
        public_key,
        key,
        tests,
    })
}

/// Parses one file's JSON text as `spec` says it is, checking its algorithm, schema,
/// `numberOfTests`, tcId uniqueness, flags against `notes`, and the pinned counts.
pub fn parse(spec: FileSpec, text: &str) -> Result<TestFile, String> {
    let at = spec.name;
    let v: Value = serde_json::from_str(text).map_err(|e| format!("{at}: {e}"))?;
    let mut f = Fields::new(&v, at.to_owned())?;
    let algorithm = f.str("algorithm")?.to_owned();
    let schema = f.str("schema")?.to_owned();
    let number_of_tests = f
        .req("numberOfTests")?
        .as_u64()
        .ok_or_else(|| format!("{at}: numberOfTests is not an unsigned integer"))?
        as usize;
    let header = f.strings("header")?;
    let mut notes = BTreeMap::new();
    for (name, n) in f
        .req("notes")?
        .as_object()
        .ok_or_else(|| format!("{at}: notes is not an object"))?
    {
        let mut nf = Fields::new(n, format!("{at} note {name}"))?;
        let note = Note {
            bug_type: nf.str("bugType")?.to_owned(),
            description: nf.str("description")?.to_owned(),
        };
        nf.finish()?;
        notes.insert(name.clone(), note);
    }
    let groups = f
        .array("testGroups")?
        .iter()
        .enumerate()
        .map(|(i, g)| parse_group(g, spec.kind, &format!("{at} group {i}")))
        .collect::<Result<Vec<_>, _>>()?;
    f.finish()?;
    let file = TestFile {
        spec,
        algorithm,
        header,
        notes,
        number_of_tests,
        schema,
        groups,
    };

    if file.algorithm != spec.params.name {
        return Err(format!(
            "{at}: algorithm {:?}, expected {}",
            file.algorithm, spec.params.name
        ));
    }
    if file.schema != spec.kind.schema() {
        return Err(format!(
            "{at}: schema {:?}, expected {}",
            file.schema,
            spec.kind.schema()
        ));
    }
    let mut ids = BTreeSet::new();
    for (_, c) in file.cases() {
        if !ids.insert(c.tc_id) {
            return Err(format!("{at}: tcId {} appears twice", c.tc_id));
        }
        for flag in &c.flags {
            if !file.notes.contains_key(flag) && !FLAGS_WITHOUT_NOTE.contains(&flag.as_str()) {
                return Err(format!(
                    "{at}: tcId {} has flag {flag} that notes do not describe",
                    c.tc_id
                ));
            }
        }
    }
    let counts = (
        ids.len(),
        file.count(Expected::Valid),
        file.count(Expected::Invalid),
    );
    if ids.len() != file.number_of_tests {
        return Err(format!(
            "{at}: numberOfTests says {}, the groups hold {} cases",
            file.number_of_tests,
            ids.len()
        ));
    }
    if counts != (spec.cases, spec.valid, spec.invalid) {
        return Err(format!(
            "{at}: holds (cases, valid, invalid) = {counts:?}, pinned {:?}",
            (spec.cases, spec.valid, spec.invalid)
        ));
    }
    for (name, id, _) in ACCEPTABLE.iter().filter(|(n, ..)| *n == at) {
        let listed_ok = file
            .cases()
            .any(|(_, c)| c.tc_id == *id && c.result == Expected::Acceptable);
        if !listed_ok {
            return Err(format!(
                "{name}: ACCEPTABLE lists tcId {id}, which is not an acceptable case there"
            ));
        }
    }
    Ok(file)
}

/// Where `spec`'s file is under the vectors directory.
pub fn path(dir: &Path, spec: &FileSpec) -> PathBuf {
    dir.join("wycheproof").join(format!("{}.gz", spec.name))
}

/// Reads and parses `<dir>/wycheproof/<name>.gz`. A missing file is an error that says how
/// to get it.
pub fn load(dir: &Path, spec: FileSpec) -> Result<TestFile, String> {
    let p = path(dir, &spec);
    let file = std::fs::File::open(&p).map_err(|e| {
        format!(
            "{}: {e} (get the Wycheproof files with scripts/fetch-vectors.sh <dir> and set \
             MLDSA_VECTORS=<dir>)",
            p.display()
        )
    })?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", p.display()))?;
    parse(spec, &text)
}

/// What the library should do with `c` of file `name`: accept the valid cases, reject the
/// invalid ones, and do with an acceptable one what [`ACCEPTABLE`] records.
pub fn verdict(name: &str, c: &Case) -> Result<Verdict, String> {
    match c.result {
        Expected::Valid => Ok(Verdict::Accepts),
        Expected::Invalid => Ok(Verdict::Rejects),
        Expected::Acceptable => ACCEPTABLE
            .iter()
            .find(|(n, id, _)| *n == name && *id == c.tc_id)
            .map(|&(.., v)| v)
            .ok_or_else(|| {
                format!(
                    "{name} {}: an \"acceptable\" case not listed in wycheproof::ACCEPTABLE; \
                     record what the library does with it",
                    c.label()
                )
            }),
    }
}

/// Why a sign path refused a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The library returned this error.
    Library(Error),
    /// The seed is not 32 bytes: the library's seed entry points take `&[u8; 32]`, so such
    /// a seed cannot be passed to it at all (the type is the length check).
    SeedLength(usize),
}

/// The refusal an invalid sign case must meet, from its flags; `None`: any refusal.
fn expected_refusal(kind: FileKind, c: &Case) -> Option<fn(&Refusal) -> bool> {
    let has = |f: &str| c.flags.iter().any(|x| x == f);
    if has("InvalidContext") {
        Some(|r| matches!(r, Refusal::Library(Error::ContextTooLong { .. })))
    } else if has("IncorrectPrivateKeyLength") && kind == FileKind::SignSeed {
        Some(|r| matches!(r, Refusal::SeedLength(_)))
    } else if has("IncorrectPrivateKeyLength") {
        Some(|r| matches!(r, Refusal::Library(Error::InvalidLength { .. })))
    } else if has("InvalidPrivateKey") {
        Some(|r| matches!(r, Refusal::Library(Error::SecretKeyOutOfRange)))
    } else {
        None
    }
}

type Attempt = (&'static str, Result<Vec<u8>, Refusal>);

fn fixed<const N: usize>(what: &str, v: &[u8]) -> Result<[u8; N], String> {
    v.try_into()
        .map_err(|_| format!("{what} is {} bytes, not {N}", v.len()))
}

/// The typed API's attempts for a sign case (on the process's default backend), and any
/// mismatch between its public key and the group's.
fn typed_sign<P: ParameterSet>(
    g: &Group,
    c: &Case,
    rnd: &[u8; 32],
    problems: &mut Vec<String>,
) -> Result<Vec<Attempt>, String> {
    let key = match &g.key {
        GroupKey::Seed { private_seed, .. } => match <&[u8; 32]>::try_from(&private_seed[..]) {
            Ok(xi) => mldsa::SigningKey::<P>::from_seed(xi),
            Err(_) => {
                return Ok(vec![(
                    "typed: privateSeed as xi: &[u8; 32]",
                    Err(Refusal::SeedLength(private_seed.len())),
                )]);
            }
        },
        GroupKey::Expanded { private_key } => {
            match mldsa::SigningKey::<P>::from_expanded_bytes(private_key) {
                Ok(k) => k,
                Err(e) => {
                    return Ok(vec![(
                        "typed SigningKey::from_expanded_bytes",
                        Err(Refusal::Library(e)),
                    )]);
                }
            }
        }
        GroupKey::None { .. } => return Err("a sign case in a group without a key".into()),
    };
    if let Some(pk) = &g.public_key {
        if key.verifying_key().as_bytes() != &pk[..] {
            problems.push("typed API: the signing key's public key differs from publicKey".into());
        }
    }
    let mut attempts = Vec::new();
    let out = |r: Result<mldsa::Signature<P>, Error>| {
        r.map(|s| s.as_bytes().to_vec()).map_err(Refusal::Library)
    };
    if let Some(msg) = &c.msg {
        attempts.push((
            "typed sign_with_rnd(msg, ctx)",
            out(key.sign_with_rnd(msg, c.ctx(), rnd)),
        ));
    }
    if let Some(mu) = &c.mu {
        attempts.push((
            "typed sign_mu(mu)",
            out(key.sign_mu(&fixed("mu", mu)?, rnd)),
        ));
    }
    Ok(attempts)
}

type Verified = (&'static str, Result<(), Error>);

/// The typed API's verdicts for a verify case (on the process's default backend).
fn typed_verify<P: ParameterSet>(pk: &[u8], c: &Case) -> Result<Vec<Verified>, String> {
    let vk = match mldsa::VerifyingKey::<P>::from_bytes(pk) {
        Ok(vk) => vk,
        Err(e) => return Ok(vec![("typed VerifyingKey::from_bytes", Err(e))]),
    };
    let sig = match mldsa::Signature::<P>::from_bytes(&c.sig) {
        Ok(s) => s,
        Err(e) => return Ok(vec![("typed Signature::from_bytes", Err(e))]),
    };
    let mut out = Vec::new();
    if let Some(msg) = &c.msg {
        out.push(("typed verify(msg, ctx)", vk.verify(msg, c.ctx(), &sig)));
    }
    if let Some(mu) = &c.mu {
        out.push(("typed verify_mu(mu)", vk.verify_mu(&fixed("mu", mu)?, &sig)));
    }
    Ok(out)
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

fn short(bytes: &[u8]) -> String {
    let n = bytes.len().min(8);
    format!("{}.. ({} bytes)", hex::encode(&bytes[..n]), bytes.len())
}

/// One sign case on `backend`: `Ok(())` if the library did what the case asks; `Err` says
/// what went wrong.
fn sign_case(
    file: &TestFile,
    g: &Group,
    c: &Case,
    backend: BackendKind,
    typed: bool,
) -> Result<(), String> {
    let p = file.spec.params;
    let verdict = verdict(file.spec.name, c)?;
    let rnd: [u8; 32] = match &c.rnd {
        Some(r) => fixed("rnd", r)?,
        None => [0; 32],
    };
    let mu: Option<[u8; 64]> = c.mu.as_deref().map(|m| fixed("mu", m)).transpose()?;
    if c.msg.is_none() && mu.is_none() {
        return Err("neither msg nor mu".into());
    }
    let mut problems = Vec::new();
    let mut attempts: Vec<Attempt> = Vec::new();

    // The expanded key: KeyGen_internal from the seed, or the given bytes.
    let sk = match &g.key {
        GroupKey::Seed { private_seed, .. } => match <[u8; 32]>::try_from(&private_seed[..]) {
            Err(_) => Err(Refusal::SeedLength(private_seed.len())),
            Ok(xi) => {
                let (mut pk, mut sk) = (vec![0u8; p.pk_bytes()], vec![0u8; p.sk_bytes()]);
                raw::keygen_internal(backend, &p, &xi, &mut pk, &mut sk)
                    .map_err(|e| format!("KeyGen_internal: {e}"))?;
                if g.public_key.as_ref().is_some_and(|epk| *epk != pk) {
                    problems.push("KeyGen_internal(privateSeed) gave another publicKey".into());
                }
                Ok(sk)
            }
        },
        GroupKey::Expanded { private_key } => Ok(private_key.clone()),
        GroupKey::None { .. } => return Err("a sign case in a group without a key".into()),
    };
    match sk {
        Err(r) => attempts.push(("raw: privateSeed as xi: [u8; 32]", Err(r))),
        Ok(sk) => {
            if let Some(msg) = &c.msg {
                let mut sig = vec![0u8; p.sig_bytes()];
                let r = raw::pure_prefix(c.ctx()).and_then(|pre| {
                    raw::sign_internal(backend, &p, &sk, &[&pre, c.ctx(), msg], &rnd, &mut sig)
                });
                attempts.push((
                    "raw Sign(msg, ctx)",
                    r.map(|()| sig).map_err(Refusal::Library),
                ));
            }
            if let Some(mu) = &mu {
                let mut sig = vec![0u8; p.sig_bytes()];
                let r = raw::sign_mu(backend, &p, &sk, mu, &rnd, &mut sig);
                attempts.push((
                    "raw Sign_internal(mu)",
                    r.map(|()| sig).map_err(Refusal::Library),
                ));
            }
        }
    }
    if typed {
        attempts.extend(by_set!(p, typed_sign(g, c, &rnd, &mut problems))?);
    }

    // Where the case gives both msg and mu, mu must be the mu of msg and ctx under publicKey.
    if let (Some(msg), Some(mu), Some(pk)) = (&c.msg, &mu, &g.public_key) {
        if let Ok(pre) = raw::pure_prefix(c.ctx()) {
            let got = raw::compute_mu(backend, pk, &[&pre, c.ctx(), msg])
                .map_err(|e| format!("compute_mu: {e}"))?;
            if got != *mu {
                problems.push("mu(publicKey, msg, ctx) differs from the case's mu".into());
            }
        }
    }

    match verdict {
        Verdict::Accepts => {
            for (path, r) in &attempts {
                match r {
                    Ok(sig) if *sig == c.sig => {}
                    Ok(sig) => problems.push(format!(
                        "{path} gave another signature {} (expected {})",
                        short(sig),
                        short(&c.sig)
                    )),
                    Err(e) => problems.push(format!("{path} refused: {e:?}")),
                }
            }
            // The expected signature must also verify under the group's public key.
            let pk = g
                .public_key
                .as_ref()
                .ok_or("a case to accept in a group without publicKey")?;
            if let Some(msg) = &c.msg {
                let r = raw::pure_prefix(c.ctx()).and_then(|pre| {
                    raw::verify_internal(backend, &p, pk, &[&pre, c.ctx(), msg], &c.sig)
                });
                if let Err(e) = r {
                    problems.push(format!(
                        "raw Verify(msg, ctx) rejected the expected sig: {e}"
                    ));
                }
            }
            if let Some(mu) = &mu {
                if let Err(e) = raw::verify_mu(backend, &p, pk, mu, &c.sig) {
                    problems.push(format!(
                        "raw Verify_internal(mu) rejected the expected sig: {e}"
                    ));
                }
            }
        }
        Verdict::Rejects => {
            let want = expected_refusal(file.spec.kind, c);
            for (path, r) in &attempts {
                match r {
                    Ok(sig) => problems.push(format!(
                        "{path} signed ({}) instead of refusing",
                        short(sig)
                    )),
                    Err(e) if want.is_some_and(|w| !w(e)) => problems.push(format!(
                        "{path} refused, but with {e:?}, not as the flags say"
                    )),
                    Err(_) => {}
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// One verify case on `backend`.
fn verify_case(
    file: &TestFile,
    g: &Group,
    c: &Case,
    backend: BackendKind,
    typed: bool,
) -> Result<(), String> {
    let p = file.spec.params;
    let verdict = verdict(file.spec.name, c)?;
    let pk = g
        .public_key
        .as_ref()
        .ok_or("verify group without publicKey")?;
    let mu: Option<[u8; 64]> = c.mu.as_deref().map(|m| fixed("mu", m)).transpose()?;
    let mut results: Vec<Verified> = Vec::new();
    if let Some(msg) = &c.msg {
        let r = raw::pure_prefix(c.ctx())
            .and_then(|pre| raw::verify_internal(backend, &p, pk, &[&pre, c.ctx(), msg], &c.sig));
        results.push(("raw Verify(msg, ctx)", r));
    }
    if let Some(mu) = &mu {
        results.push((
            "raw Verify_internal(mu)",
            raw::verify_mu(backend, &p, pk, mu, &c.sig),
        ));
    }
    if results.is_empty() {
        return Err("neither msg nor mu".into());
    }
    if typed {
        results.extend(by_set!(p, typed_verify(pk, c))?);
    }
    let problems: Vec<String> = results
        .iter()
        .filter_map(|(path, r)| match (verdict, r) {
            (Verdict::Accepts, Err(e)) => Some(format!("{path} rejected: {e}")),
            (Verdict::Rejects, Ok(())) => Some(format!("{path} accepted")),
            _ => None,
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// Runs every case of `file` on `backend` (with `typed`, also through the typed API, which
/// runs on the process's default backend). Each case is one entry of the tally.
pub fn run(file: &TestFile, backend: BackendKind, typed: bool) -> Tally {
    let mut tally = Tally::default();
    for (g, c) in file.cases() {
        let r = match file.spec.kind {
            FileKind::SignSeed | FileKind::SignNoseed => sign_case(file, g, c, backend, typed),
            FileKind::Verify => verify_case(file, g, c, backend, typed),
        };
        tally.check(r.is_ok(), || {
            format!(
                "{} {} expected {:?}: {}",
                file.spec.name,
                c.label(),
                c.result,
                r.err().unwrap_or_default()
            )
        });
    }
    tally
}
