//! The API's boundary inputs, each with the answer FIPS 204 fixes.

use super::input::{Vector, Want, check};
use crate::check::e2e_extra::{EXTERNAL_MU, PRE_HASH, PRE_HASHED};
use crate::model::Case;
use mldsa::prehash::PreHash;
/// Boundary inputs of the API, signing and verifying, each with the answer FIPS 204 fixes:
/// contexts of 0, 255 and 256 bytes (pure and HashML-DSA), an empty and a 64 KiB message,
/// external mu, a signature checked under another pre-hash function. The expected
/// signatures are the model signer's (`craft::sign`, from mu computed by `craft::spec`, with
/// M' assembled here from FIPS 204 Alg. 2 and 4), never an implementation's.
pub fn boundary_vectors() -> Result<Vec<Vector>, String> {
    use sha3::digest::ExtendableOutput;
    // (index in PreHash::ALL, DER OID of FIPS 204 Alg. 4, digest length) for SHAKE-128/256.
    const SHAKE: [(u8, [u8; 11], usize); 2] = [
        (10, [6, 9, 0x60, 0x86, 0x48, 1, 0x65, 3, 4, 2, 0x0b], 32),
        (11, [6, 9, 0x60, 0x86, 0x48, 1, 0x65, 3, 4, 2, 0x0c], 64),
    ];
    let shake = |which: usize, msg: &[u8]| -> Vec<u8> {
        let mut d = vec![0u8; SHAKE[which].2];
        if which == 0 {
            sha3::Shake128::digest_xof(msg, &mut d);
        } else {
            sha3::Shake256::digest_xof(msg, &mut d);
        }
        d
    };
    let mut v = Vec::new();
    for p in mldsa::params::ALL_PARAMS {
        let (pk, sk) = crate::check::e2e::keygen(&p, &[0xb0; 32]);
        let rnd = [0x5a; 32];
        let model_mu = |mu: &[u8; 64]| -> Result<Vec<u8>, String> {
            crate::craft::sign::sign_mu(&p, &sk, mu, &rnd)
                .ok_or_else(|| format!("{}: the model signer did not sign", p.name))
        };
        let model = |m_prime: &[u8]| model_mu(&crate::craft::spec::mu(&pk, m_prime));
        // The signing case and the verifying case of `sig` with the input in `c`.
        let signing = |c: &Case| Case {
            sk: sk.clone(),
            rnd: rnd.to_vec(),
            ..c.clone()
        };
        let verifying = |c: &Case, sig: &[u8]| Case {
            pk: pk.clone(),
            sig: sig.to_vec(),
            ..c.clone()
        };
        // A signing vector (the answer a signature or a refusal) or a verifying one, of the
        // pure check for a pure input (scalar 0), else of its `_variants` check.
        let mut push = |what: &str, case: Case, want: Want| -> Result<(), String> {
            let op = if matches!(want, Want::Accept(_)) {
                "verify"
            } else {
                "sign"
            };
            let stem = if case.scalar == 0 {
                op.to_string()
            } else {
                format!("{op}_variants")
            };
            v.push(Vector {
                file: format!("api boundary: {op} {what}"),
                id: p.name.to_string(),
                check: check(&stem, &p)?,
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
            let input = Case {
                msg,
                ctx,
                ..Case::default()
            };
            push(&what, signing(&input), Want::Bytes(sig.clone()))?;
            let verify = verifying(&input, &sig);
            push(&what, verify.clone(), Want::Accept(true))?;
            let mut longer = verify;
            longer.ctx.push(0x63);
            push(
                &format!("{what}, one more context byte"),
                longer,
                Want::Accept(false),
            )?;
        }
        let too_long = Case {
            msg: vec![0x61; 3],
            ctx: vec![0x63; 256],
            ..Case::default()
        };
        push("pure, 256-byte context", signing(&too_long), Want::Refuse)?;
        // HashML-DSA (Alg. 4: M' = 1 || |ctx| || ctx || OID || PH(M)).
        for (which, ctx_len) in [(0, 0), (0, 255), (1, 255)] {
            let (ph, oid, _) = SHAKE[which];
            let (msg, ctx) = (vec![0x61; 3], vec![0x63; ctx_len]);
            let m_prime = [&[1, ctx_len as u8][..], &ctx, &oid, &shake(which, &msg)].concat();
            let sig = model(&m_prime)?;
            let name = PreHash::ALL[usize::from(ph)].name();
            let what = format!("pre-hash {name}, {ctx_len}-byte context");
            let input = Case {
                scalar: PRE_HASH,
                bytes: vec![ph],
                msg,
                ctx,
                ..Case::default()
            };
            let sign = signing(&input);
            push(&what, sign.clone(), Want::Bytes(sig.clone()))?;
            if ctx_len == 255 {
                let mut too_long = sign;
                too_long.ctx.push(0x63);
                push(
                    &format!("{what}, one more context byte"),
                    too_long,
                    Want::Refuse,
                )?;
            }
            let verify = verifying(&input, &sig);
            push(&what, verify.clone(), Want::Accept(true))?;
            let mut other = verify.clone();
            other.bytes = vec![SHAKE[1 - which].0];
            push(
                &format!("{what}, under the other SHAKE"),
                other,
                Want::Accept(false),
            )?;
            let mut longer = verify;
            longer.ctx.push(0x63);
            push(
                &format!("{what}, one more context byte"),
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
            let input = |digest: Vec<u8>| Case {
                scalar: PRE_HASHED,
                bytes: vec![ph],
                msg: digest,
                ..Case::default()
            };
            push(
                "pre-hashed SHAKE-128, its 32-byte digest given",
                signing(&input(d.clone())),
                Want::Bytes(sig.clone()),
            )?;
            for n in [0, 31, 33, 64] {
                let mut wrong = d.clone();
                wrong.resize(n, 0x5c);
                push(
                    &format!("pre-hashed SHAKE-128, a {n}-byte digest given"),
                    signing(&input(wrong)),
                    Want::Refuse,
                )?;
            }
            push(
                "pre-hashed SHAKE-128, its 32-byte digest given",
                verifying(&input(d.clone()), &sig),
                Want::Accept(true),
            )?;
            let mut short = d.clone();
            short.pop();
            push(
                "pre-hashed SHAKE-128, its digest less its last byte",
                verifying(&input(short), &sig),
                Want::Accept(false),
            )?;
        }
        // External mu (Alg. 7 from line 7 on).
        let mu = [0xff; 64];
        let sig = model_mu(&mu)?;
        let input = Case {
            scalar: EXTERNAL_MU,
            msg: mu.to_vec(),
            ..Case::default()
        };
        push("external mu", signing(&input), Want::Bytes(sig.clone()))?;
        let verify = verifying(&input, &sig);
        push("external mu", verify.clone(), Want::Accept(true))?;
        let mut other = verify;
        other.msg[63] ^= 1;
        push(
            "external mu, the last bit of mu flipped",
            other,
            Want::Accept(false),
        )?;
    }
    Ok(v)
}
