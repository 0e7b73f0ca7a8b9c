//! Running Wycheproof cases against the library: the verdict each case requires, signing
//! (raw and typed API) and verifying, per backend.

use super::*;

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
    if let Some(pk) = &g.public_key
        && key.verifying_key().as_bytes() != &pk[..]
    {
        problems.push("typed API: the signing key's public key differs from publicKey".into());
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
    if let (Some(msg), Some(mu), Some(pk)) = (&c.msg, &mu, &g.public_key)
        && let Ok(pre) = raw::pure_prefix(c.ctx())
    {
        let got = raw::compute_mu(backend, pk, &[&pre, c.ctx(), msg])
            .map_err(|e| format!("compute_mu: {e}"))?;
        if got != *mu {
            problems.push("mu(publicKey, msg, ctx) differs from the case's mu".into());
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
            if let Some(mu) = &mu
                && let Err(e) = raw::verify_mu(backend, &p, pk, mu, &c.sig)
            {
                problems.push(format!(
                    "raw Verify_internal(mu) rejected the expected sig: {e}"
                ));
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
