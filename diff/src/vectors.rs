//! Every published vector through every implementation: NIST ACVP (keyGen, sigGen, sigGen
//! tr1, sigVer) and C2SP Wycheproof (sign with seed, sign with expanded key, verify), each
//! case turned into the input of the end-to-end check that asks the same question
//! (`keygen`, `sign`, `sign_malformed_sk`, `sign_variants`, `verify`, `verify_variants`),
//! run on every implementation that answers it, and judged against the vector's expected
//! result. An implementation whose answer differs is either covered by a stated deviation
//! (`known`: then its answer must be exactly the one the entry computes) or a finding.
//! `mldsa-diff vectors` prints the table of who passes which file; `diff/tests/vectors.rs`
//! asserts it.

use crate::check::Check;
use crate::check::e2e_extra::{EXTERNAL_MU, INTERNAL, PRE_HASH, PRE_HASHED};
use crate::known::{self, Expected};
use crate::model::{Case, Output, Verdict};
use crate::oracle::Oracle;
use mldsa::prehash::PreHash;
use mldsa_kat::acvp;
use mldsa_kat::wycheproof::{self, Expected as WExpected, FileKind, GroupKey};
use std::collections::BTreeMap;
use std::path::Path;

/// What FIPS 204 (the vector) demands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Want {
    /// Exactly these bytes (pk || sk, or a signature).
    Bytes(Vec<u8>),
    /// Accept (true) or reject.
    Accept(bool),
    /// The signer must refuse (any error).
    Refuse,
}

/// One vector as a check's input.
#[derive(Clone, Debug)]
pub struct Vector {
    /// The file and interface it belongs to ("acvp sigGen: pre-hash", a Wycheproof file).
    pub file: String,
    /// Its id in the file (tgId/tcId).
    pub id: String,
    /// The check that asks the same question.
    pub check: Check,
    /// The input.
    pub case: Case,
    /// The answer demanded.
    pub want: Want,
}

/// A vector no check can take, with why (counted and printed, never passed).
#[derive(Clone, Debug)]
pub struct NotRun {
    /// File.
    pub file: String,
    /// Id.
    pub id: String,
    /// Why.
    pub why: String,
}

fn check(name: &str, p: &mldsa::Params) -> Result<Check, String> {
    let n = format!("{name}_{}", &p.name[7..]);
    Check::from_name(&n).ok_or_else(|| format!("no check {n}"))
}

fn rnd_of(c: &acvp::Case<'_>) -> Result<Vec<u8>, String> {
    if c.flag("deterministic") {
        Ok(vec![0; 32])
    } else {
        c.hex("rnd")
    }
}

/// The message fields of an ACVP signing or verifying case: (check stem, scalar, bytes,
/// msg, ctx, interface label).
type MsgFields = (&'static str, i64, Vec<u8>, Vec<u8>, Vec<u8>, &'static str);

fn acvp_msg(c: &acvp::Case<'_>, verify: bool) -> Result<MsgFields, String> {
    let (pure, variant) = if verify {
        ("verify", "verify_variants")
    } else {
        ("sign", "sign_variants")
    };
    if c.str_field("signatureInterface") == "internal" {
        if c.flag("externalMu") {
            return Ok((
                variant,
                EXTERNAL_MU,
                vec![],
                c.hex("mu")?,
                vec![],
                "external mu",
            ));
        }
        return Ok((
            variant,
            INTERNAL,
            vec![],
            c.hex("message")?,
            vec![],
            "internal",
        ));
    }
    let (msg, ctx) = (c.hex("message")?, c.hex("context")?);
    if c.str_field("preHash") == "preHash" {
        let name = c.test["hashAlg"].as_str().unwrap_or_default();
        let ph = PreHash::ALL
            .iter()
            .position(|h| Some(*h) == PreHash::from_name(name))
            .ok_or_else(|| format!("{}: unknown hashAlg {name}", c.id()))?;
        return Ok((variant, PRE_HASH, vec![ph as u8], msg, ctx, "pre-hash"));
    }
    Ok((pure, 0, vec![], msg, ctx, "pure"))
}

/// Every ACVP case as a check input.
pub fn acvp_vectors(dir: &Path) -> Result<Vec<Vector>, String> {
    let mut v = Vec::new();
    acvp::for_each_case(dir, "ML-DSA-keyGen-FIPS204", |c| {
        let p = c.params()?;
        v.push(Vector {
            file: "acvp keyGen".into(),
            id: c.id(),
            check: check("keygen", &p)?,
            case: Case {
                bytes: c.hex("seed")?,
                ..Case::default()
            },
            want: Want::Bytes([c.hex("pk")?, c.hex("sk")?].concat()),
        });
        Ok(())
    })?;
    for (name, label) in [
        ("ML-DSA-sigGen-FIPS204", "acvp sigGen"),
        ("ML-DSA-sigGen-FIPS204-tr1", "acvp sigGen tr1"),
    ] {
        acvp::for_each_case(dir, name, |c| {
            let p = c.params()?;
            // Seed-format keys (tr1): the expanded key is KeyGen_internal's, whose own
            // vectors (keyGen, above) every implementation is judged on.
            let sk = if c.str_field("keyFormat") == "seed" {
                let xi = c.hex("seed")?;
                if xi.len() != 32 {
                    return Err(format!("{}: seed is not 32 bytes", c.id()));
                }
                crate::check::e2e::keygen(&p, &xi).1
            } else {
                c.hex("sk")?
            };
            let (stem, scalar, bytes, msg, ctx, iface) = acvp_msg(c, false)?;
            v.push(Vector {
                file: format!("{label}: {iface}"),
                id: c.id(),
                check: check(stem, &p)?,
                case: Case {
                    sk,
                    scalar,
                    bytes,
                    msg,
                    ctx,
                    rnd: rnd_of(c)?,
                    ..Case::default()
                },
                want: Want::Bytes(c.hex("signature")?),
            });
            Ok(())
        })?;
    }
    acvp::for_each_case(dir, "ML-DSA-sigVer-FIPS204", |c| {
        let p = c.params()?;
        let (stem, scalar, bytes, msg, ctx, iface) = acvp_msg(c, true)?;
        let passed = c.expected["testPassed"]
            .as_bool()
            .ok_or_else(|| format!("{}: no testPassed", c.id()))?;
        v.push(Vector {
            file: format!("acvp sigVer: {iface}"),
            id: c.id(),
            check: check(stem, &p)?,
            case: Case {
                pk: c.hex("pk")?,
                sig: c.hex("signature")?,
                scalar,
                bytes,
                msg,
                ctx,
                ..Case::default()
            },
            want: Want::Accept(passed),
        });
        Ok(())
    })?;
    Ok(v)
}

/// Every Wycheproof case as a check input (and the ones no check can take).
pub fn wycheproof_vectors(dir: &Path) -> Result<(Vec<Vector>, Vec<NotRun>), String> {
    let (mut v, mut not_run) = (Vec::new(), Vec::new());
    for spec in wycheproof::FILES {
        let file = wycheproof::load(dir, spec)?;
        let p = spec.params;
        for (g, c) in file.cases() {
            let id = format!("tcId {}", c.tc_id);
            if c.result == WExpected::Acceptable {
                return Err(format!("{} {id}: an acceptable case", spec.name));
            }
            let valid = c.result == WExpected::Valid;
            let sk = match (&g.key, spec.kind) {
                (GroupKey::None { .. }, FileKind::Verify) => {
                    v.push(Vector {
                        file: spec.name.into(),
                        id,
                        check: check("verify", &p)?,
                        case: Case {
                            pk: g.public_key.clone().unwrap_or_default(),
                            msg: c.msg.clone().unwrap_or_default(),
                            ctx: c.ctx().to_vec(),
                            sig: c.sig.clone(),
                            ..Case::default()
                        },
                        want: Want::Accept(valid),
                    });
                    continue;
                }
                (GroupKey::Seed { private_seed, .. }, _) if private_seed.len() != 32 => {
                    not_run.push(NotRun {
                        file: spec.name.into(),
                        id,
                        why: format!(
                            "a {}-byte seed: every implementation's KeyGen takes exactly 32 bytes",
                            private_seed.len()
                        ),
                    });
                    continue;
                }
                (GroupKey::Seed { private_seed, .. }, _) => {
                    crate::check::e2e::keygen(&p, private_seed).1
                }
                (GroupKey::Expanded { private_key }, _) => private_key.clone(),
                _ => {
                    return Err(format!(
                        "{} {id}: a group without the file's key",
                        spec.name
                    ));
                }
            };
            let want = if valid {
                Want::Bytes(c.sig.clone())
            } else {
                Want::Refuse
            };
            let rnd = c.rnd.clone().unwrap_or_else(|| vec![0; 32]);
            let malformed = c.flags.iter().any(|f| f == "InvalidPrivateKey");
            if let Some(msg) = &c.msg {
                v.push(Vector {
                    file: spec.name.into(),
                    id: id.clone(),
                    check: check(
                        if malformed {
                            "sign_malformed_sk"
                        } else {
                            "sign"
                        },
                        &p,
                    )?,
                    case: Case {
                        sk: sk.clone(),
                        msg: msg.clone(),
                        ctx: c.ctx().to_vec(),
                        rnd: rnd.clone(),
                        ..Case::default()
                    },
                    want: want.clone(),
                });
            }
            if let Some(mu) = &c.mu {
                v.push(Vector {
                    file: format!("{}: mu", spec.name),
                    id,
                    check: check("sign_variants", &p)?,
                    case: Case {
                        sk,
                        scalar: EXTERNAL_MU,
                        msg: mu.clone(),
                        rnd,
                        ..Case::default()
                    },
                    want,
                });
            }
        }
    }
    Ok((v, not_run))
}

/// Boundary inputs of the API, signing and verifying, each with the answer FIPS 204 fixes:
/// contexts of 0, 255 and 256 bytes (pure and HashML-DSA), an empty and a 64 KiB message,
/// external mu, a signature checked under another pre-hash function. The expected
/// signatures are the model signer's (`craft::sign`, from mu computed by `craft::spec`, with
/// M' assembled here from FIPS 204 Alg. 2 and 4), never an implementation's.
pub fn boundary_vectors() -> Result<Vec<Vector>, String> {
    use sha3::digest::{ExtendableOutput, Update, XofReader};
    // (index in PreHash::ALL, DER OID of FIPS 204 Alg. 4, digest length) for SHAKE-128/256.
    const SHAKE: [(u8, [u8; 11], usize); 2] = [
        (10, [6, 9, 0x60, 0x86, 0x48, 1, 0x65, 3, 4, 2, 0x0b], 32),
        (11, [6, 9, 0x60, 0x86, 0x48, 1, 0x65, 3, 4, 2, 0x0c], 64),
    ];
    let shake = |which: usize, msg: &[u8]| -> Vec<u8> {
        let mut d = vec![0u8; SHAKE[which].2];
        if which == 0 {
            let mut x = sha3::Shake128::default();
            x.update(msg);
            x.finalize_xof().read(&mut d);
        } else {
            let mut x = sha3::Shake256::default();
            x.update(msg);
            x.finalize_xof().read(&mut d);
        }
        d
    };
    let mut v = Vec::new();
    for p in [
        mldsa::params::ML_DSA_44,
        mldsa::params::ML_DSA_65,
        mldsa::params::ML_DSA_87,
    ] {
        let (pk, sk) = crate::check::e2e::keygen(&p, &[0xb0; 32]);
        let rnd = [0x5a; 32];
        let model = |m_prime: &[u8]| -> Result<Vec<u8>, String> {
            crate::craft::sign::sign_mu(&p, &sk, &crate::craft::spec::mu(&pk, m_prime), &rnd)
                .ok_or_else(|| format!("{}: the model signer did not sign", p.name))
        };
        let mut push = |what: String, stem: &str, case: Case, want: Want| -> Result<(), String> {
            v.push(Vector {
                file: format!("api boundary: {what}"),
                id: p.name.to_string(),
                check: check(stem, &p)?,
                case,
                want,
            });
            Ok(())
        };
        // Pure ML-DSA (Alg. 2: M' = 0 || |ctx| || ctx || M).
        for (msg, ctx) in [(vec![], vec![0x63; 255]), (vec![0x61; 65536], vec![])] {
            let m_prime = [&[0, ctx.len() as u8][..], &ctx, &msg].concat();
            let sig = model(&m_prime)?;
            let what = format!(
                "pure, {}-byte message, {}-byte context",
                msg.len(),
                ctx.len()
            );
            let sign = Case {
                sk: sk.clone(),
                msg: msg.clone(),
                ctx: ctx.clone(),
                rnd: rnd.to_vec(),
                ..Case::default()
            };
            push(
                format!("sign {what}"),
                "sign",
                sign,
                Want::Bytes(sig.clone()),
            )?;
            let verify = Case {
                pk: pk.clone(),
                msg: msg.clone(),
                ctx: ctx.clone(),
                sig: sig.clone(),
                ..Case::default()
            };
            push(
                format!("verify {what}"),
                "verify",
                verify.clone(),
                Want::Accept(true),
            )?;
            let mut longer = verify;
            longer.ctx.resize(ctx.len() + 1, 0x63);
            push(
                format!("verify {what}, one more context byte"),
                "verify",
                longer,
                Want::Accept(false),
            )?;
        }
        let too_long = Case {
            sk: sk.clone(),
            msg: vec![0x61; 3],
            ctx: vec![0x63; 256],
            rnd: rnd.to_vec(),
            ..Case::default()
        };
        push(
            "sign pure, 256-byte context".into(),
            "sign",
            too_long,
            Want::Refuse,
        )?;
        // HashML-DSA (Alg. 4: M' = 1 || |ctx| || ctx || OID || PH(M)).
        for (which, ctx_len) in [(0, 0), (0, 255), (1, 255)] {
            let (ph, oid, _) = SHAKE[which];
            let (msg, ctx) = (vec![0x61; 3], vec![0x63; ctx_len]);
            let m_prime = [&[1, ctx_len as u8][..], &ctx, &oid, &shake(which, &msg)].concat();
            let sig = model(&m_prime)?;
            let name = PreHash::ALL[usize::from(ph)].name();
            let what = format!("pre-hash {name}, {ctx_len}-byte context");
            let sign = Case {
                sk: sk.clone(),
                scalar: PRE_HASH,
                bytes: vec![ph],
                msg: msg.clone(),
                ctx: ctx.clone(),
                rnd: rnd.to_vec(),
                ..Case::default()
            };
            push(
                format!("sign {what}"),
                "sign_variants",
                sign.clone(),
                Want::Bytes(sig.clone()),
            )?;
            if ctx_len == 255 {
                let mut too_long = sign;
                too_long.ctx.push(0x63);
                push(
                    format!("sign {what}, one more context byte"),
                    "sign_variants",
                    too_long,
                    Want::Refuse,
                )?;
            }
            let verify = Case {
                pk: pk.clone(),
                scalar: PRE_HASH,
                bytes: vec![ph],
                msg: msg.clone(),
                ctx: ctx.clone(),
                sig,
                ..Case::default()
            };
            push(
                format!("verify {what}"),
                "verify_variants",
                verify.clone(),
                Want::Accept(true),
            )?;
            let mut other = verify.clone();
            other.bytes = vec![SHAKE[1 - which].0];
            push(
                format!("verify {what}, under the other SHAKE"),
                "verify_variants",
                other,
                Want::Accept(false),
            )?;
            let mut longer = verify;
            longer.ctx.push(0x63);
            push(
                format!("verify {what}, one more context byte"),
                "verify_variants",
                longer,
                Want::Accept(false),
            )?;
        }
        // HashML-DSA given the digest: a digest of another length than SHAKE-128's 32 bytes
        // must be refused (FIPS 204 Alg. 4 computes PH(M) itself; an API that takes it must
        // not sign an M' that HashML-DSA never forms).
        {
            let (ph, oid, _) = SHAKE[0];
            let d = shake(0, &[0x61; 3]);
            let m_prime = [&[1u8, 0][..], &oid, &d].concat();
            let sig = model(&m_prime)?;
            let case = |digest: Vec<u8>| Case {
                sk: sk.clone(),
                scalar: PRE_HASHED,
                bytes: vec![ph],
                msg: digest,
                rnd: rnd.to_vec(),
                ..Case::default()
            };
            push(
                "sign pre-hashed SHAKE-128, its 32-byte digest given".into(),
                "sign_variants",
                case(d.clone()),
                Want::Bytes(sig.clone()),
            )?;
            for n in [0, 31, 33, 64] {
                let mut wrong = d.clone();
                wrong.resize(n, 0x5c);
                push(
                    format!("sign pre-hashed SHAKE-128, a {n}-byte digest given"),
                    "sign_variants",
                    case(wrong),
                    Want::Refuse,
                )?;
            }
            let verify = |digest: Vec<u8>| Case {
                pk: pk.clone(),
                scalar: PRE_HASHED,
                bytes: vec![ph],
                msg: digest,
                sig: sig.clone(),
                ..Case::default()
            };
            push(
                "verify pre-hashed SHAKE-128, its 32-byte digest given".into(),
                "verify_variants",
                verify(d.clone()),
                Want::Accept(true),
            )?;
            let mut short = d.clone();
            short.pop();
            push(
                "verify pre-hashed SHAKE-128, its digest less its last byte".into(),
                "verify_variants",
                verify(short),
                Want::Accept(false),
            )?;
        }
        // External mu (Alg. 7 from line 7 on).
        let mu = [0xff; 64];
        let sig = crate::craft::sign::sign_mu(&p, &sk, &mu, &rnd)
            .ok_or_else(|| format!("{}: the model signer did not sign", p.name))?;
        let sign = Case {
            sk: sk.clone(),
            scalar: EXTERNAL_MU,
            msg: mu.to_vec(),
            rnd: rnd.to_vec(),
            ..Case::default()
        };
        push(
            "sign external mu".into(),
            "sign_variants",
            sign,
            Want::Bytes(sig.clone()),
        )?;
        let verify = Case {
            pk: pk.clone(),
            scalar: EXTERNAL_MU,
            msg: mu.to_vec(),
            sig,
            ..Case::default()
        };
        push(
            "verify external mu".into(),
            "verify_variants",
            verify.clone(),
            Want::Accept(true),
        )?;
        let mut other = verify;
        other.msg[63] ^= 1;
        push(
            "verify external mu, the last bit of mu flipped".into(),
            "verify_variants",
            other,
            Want::Accept(false),
        )?;
    }
    Ok(v)
}

/// How one implementation answered one vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// What FIPS 204 demands.
    Right,
    /// Other than FIPS 204, exactly as the implementation's stated deviation computes.
    Known,
    /// Other than FIPS 204 and not predicted: a finding.
    Wrong,
    /// It has no interface for this input.
    Unanswered,
}

fn meets(check: Check, want: &Want, out: &Output) -> bool {
    match want {
        Want::Bytes(b) => out.bytes == *b && !matches!(out.verdict, Verdict::Error(_)),
        Want::Accept(a) => out.scalar == i64::from(*a),
        Want::Refuse => {
            let _ = check;
            matches!(out.verdict, Verdict::Error(_))
        }
    }
}

/// Judges `o` on `v`.
pub fn judge(o: &dyn Oracle, v: &Vector) -> Outcome {
    let Some(out) = o.run(v.check, &v.case) else {
        return Outcome::Unanswered;
    };
    if meets(v.check, &v.want, &out) {
        return Outcome::Right;
    }
    let stated = if v.check.def.name == "verify_{set}" {
        known::verifier_deviation(o.name()).map(|l| {
            let c = &v.case;
            let ok =
                crate::craft::spec::verify(&v.check.params(), &c.pk, &c.msg, &c.ctx, &c.sig, l);
            out.scalar == i64::from(ok)
        })
    } else {
        known::find(v.check, o.name(), o.origin())
            .filter(|k| k.deviation)
            .map(|k| {
                let reference =
                    crate::oracle::run_rust(&mldsa::backend::Portable, v.check, &v.case)
                        .unwrap_or_default();
                match (k.expect)(v.check, &v.case, &reference) {
                    Expected::Output(want) => crate::judge::compare(v.check, &want, &out).is_none(),
                    Expected::Verdict(want) => want.kind() == out.verdict.kind(),
                }
            })
    };
    if stated == Some(true) {
        Outcome::Known
    } else {
        Outcome::Wrong
    }
}

/// One cell of the table.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// Right answers.
    pub right: usize,
    /// Stated deviations.
    pub known: usize,
    /// Findings (vector ids).
    pub wrong: Vec<String>,
    /// Inputs it has no interface for.
    pub unanswered: usize,
}

/// The table: (file, implementation) -> row.
pub type Table = BTreeMap<(String, &'static str), Row>;

/// Runs every vector through every oracle (on every core: the vectors split in chunks).
pub fn run(vectors: &[Vector], oracles: &[Box<dyn Oracle>]) -> Table {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = vectors.len().div_ceil(threads).max(1);
    let parts: Vec<Vec<(usize, usize, Outcome)>> = std::thread::scope(|s| {
        let handles: Vec<_> = vectors
            .chunks(chunk)
            .enumerate()
            .map(|(c, vs)| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    for (i, v) in vs.iter().enumerate() {
                        for (j, o) in oracles.iter().enumerate() {
                            out.push((c * chunk + i, j, judge(o.as_ref(), v)));
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a vector run panicked"))
            .collect()
    });
    let mut t = Table::new();
    for (i, j, outcome) in parts.into_iter().flatten() {
        let v = &vectors[i];
        let row = t.entry((v.file.clone(), oracles[j].name())).or_default();
        match outcome {
            Outcome::Right => row.right += 1,
            Outcome::Known => row.known += 1,
            Outcome::Wrong => row.wrong.push(v.id.clone()),
            Outcome::Unanswered => row.unanswered += 1,
        }
    }
    t
}

/// The table as text: one line per file, one column per implementation, each cell
/// `right[+known][!wrong]` or `-` where it answered nothing; `n/a` lines for vectors no
/// check can take.
pub fn render(t: &Table, names: &[&str], not_run: &[NotRun]) -> String {
    let mut files: Vec<&String> = t.keys().map(|(f, _)| f).collect();
    files.dedup();
    let w = files.iter().map(|f| f.len()).max().unwrap_or(4).max(4);
    let mut s = format!("{:<w$} {:>5}", "file", "cases");
    for n in names {
        s += &format!(" {n:>17}");
    }
    s.push('\n');
    for f in files {
        let total = t
            .iter()
            .find(|((ff, _), _)| ff == f)
            .map(|(_, r)| r.right + r.known + r.wrong.len() + r.unanswered)
            .unwrap_or(0);
        s += &format!("{f:<w$} {total:>5}");
        for n in names {
            let cell = match t.get(&(f.clone(), *n)) {
                None => "?".to_string(),
                Some(r) if r.unanswered == total => "-".to_string(),
                Some(r) => {
                    let mut c = r.right.to_string();
                    if r.known > 0 {
                        c += &format!("+{}k", r.known);
                    }
                    if !r.wrong.is_empty() {
                        c += &format!("!{}", r.wrong.len());
                    }
                    if r.unanswered > 0 {
                        c += &format!("/{}", total - r.unanswered);
                    }
                    c
                }
            };
            s += &format!(" {cell:>17}");
        }
        s.push('\n');
    }
    s += "cell: right answers; +Nk: stated deviations (known.rs), asserted exactly; !N: wrong \
          (a finding); /N: of N it answered; -: no interface for these inputs\n";
    for n in not_run {
        s += &format!("n/a: {} {}: {}\n", n.file, n.id, n.why);
    }
    s
}

/// Every vector's results.
#[derive(Debug)]
pub struct Results {
    /// The table.
    pub table: Table,
    /// The implementations, in column order.
    pub names: Vec<&'static str>,
    /// Vectors no check can take.
    pub not_run: Vec<NotRun>,
    /// Vectors run.
    pub vectors: usize,
}

impl Results {
    /// The table as text.
    pub fn render(&self) -> String {
        render(&self.table, &self.names, &self.not_run)
    }
    /// Every wrong answer, one line per (file, implementation).
    pub fn findings(&self) -> Vec<String> {
        self.table
            .iter()
            .filter(|(_, r)| !r.wrong.is_empty())
            .map(|((f, n), r)| format!("{n} on {f}: {}", r.wrong.join(", ")))
            .collect()
    }
}

/// Loads every vector from `dir` and runs it through `oracles`.
pub fn run_all(dir: &Path, oracles: &[Box<dyn Oracle>]) -> Result<Results, String> {
    let mut vectors = acvp_vectors(dir)?;
    let (w, not_run) = wycheproof_vectors(dir)?;
    vectors.extend(w);
    vectors.extend(boundary_vectors()?);
    Ok(Results {
        table: run(&vectors, oracles),
        names: oracles.iter().map(|o| o.name()).collect(),
        not_run,
        vectors: vectors.len(),
    })
}
