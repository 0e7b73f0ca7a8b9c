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

mod run;
pub use run::{run, verdict};
