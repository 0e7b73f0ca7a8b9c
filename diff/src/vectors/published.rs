//! The published vectors (NIST ACVP, C2SP Wycheproof) as check inputs.

use super::input::{NotRun, Vector, Want, check};
use crate::check::e2e_extra::{EXTERNAL_MU, INTERNAL, PRE_HASH};
use crate::model::Case;
use mldsa::prehash::PreHash;
use mldsa_kat::acvp;
use mldsa_kat::wycheproof::{self, Expected as WExpected, FileKind, GroupKey};
use std::path::Path;
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
        let (scalar, field, iface) = if c.flag("externalMu") {
            (EXTERNAL_MU, "mu", "external mu")
        } else {
            (INTERNAL, "message", "internal")
        };
        return Ok((variant, scalar, vec![], c.hex(field)?, vec![], iface));
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
            let (sk, xi) = if c.str_field("keyFormat") == "seed" {
                let xi = c.hex("seed")?;
                if xi.len() != 32 {
                    return Err(format!("{}: seed is not 32 bytes", c.id()));
                }
                (crate::check::e2e::keygen(&p, &xi).1, xi)
            } else {
                (c.hex("sk")?, Vec::new())
            };
            let (stem, scalar, bytes, msg, ctx, iface) = acvp_msg(c, false)?;
            v.push(Vector {
                file: format!("{label}: {iface}"),
                id: c.id(),
                check: check(stem, &p)?,
                case: Case {
                    sk,
                    xi,
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
            let (sk, xi) = match (&g.key, spec.kind) {
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
                (GroupKey::Seed { private_seed, .. }, _) => (
                    crate::check::e2e::keygen(&p, private_seed).1,
                    private_seed.clone(),
                ),
                (GroupKey::Expanded { private_key }, _) => (private_key.clone(), Vec::new()),
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
            let stem = if c.flags.iter().any(|f| f == "InvalidPrivateKey") {
                "sign_malformed_sk"
            } else {
                "sign"
            };
            if let Some(msg) = &c.msg {
                v.push(Vector {
                    file: spec.name.into(),
                    id: id.clone(),
                    check: check(stem, &p)?,
                    case: Case {
                        sk: sk.clone(),
                        xi: xi.clone(),
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
                        xi,
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
