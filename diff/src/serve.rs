//! `mldsa-diff serve IMPL`: one implementation of this harness spoken to over the oracle
//! protocol (`diff/oracles/PROTOCOL.md`), so that another harness can ask it as this one asks
//! an adapter, and so that the protocol's own tests have an adapter whose every answer is
//! known. What it offers is found by asking the implementation (as `mldsa-diff list`'s matrix
//! is), never assumed.

use crate::impls::process::hello::{Kernel, Mode};
use crate::oracle::{Got, Key, Miss, Msg, Oracle};
use mldsa::Params;
use mldsa::params::{ALL_PARAMS, Eta, Gamma1, Gamma2, ML_DSA_44, ML_DSA_65, N};
use mldsa::poly::Poly;
use mldsa::prehash::PreHash;
use serde_json::{Map, Value, json};
use std::io::{BufRead, Write};

/// What a call through the protocol adds to the implementation's own time, in microseconds
/// (a kernel call served from portable took 65 us through `mldsa-diff check --oracle`).
const PIPE_US: u32 = 60;

const MODES: [Mode; 5] = [
    Mode::Pure,
    Mode::Prehash,
    Mode::Prehashed,
    Mode::Mu,
    Mode::Internal,
];

fn mode_name(m: Mode) -> &'static str {
    match m {
        Mode::Pure => "pure",
        Mode::Prehash => "prehash",
        Mode::Prehashed => "prehashed",
        Mode::Mu => "mu",
        Mode::Internal => "internal",
    }
}

/// A sample message in mode `m` (pre-hash `ph`), for probing.
fn sample(m: Mode, ph: PreHash) -> (Vec<u8>, Vec<u8>) {
    match m {
        Mode::Prehashed => (crate::oracle::digest(ph, b"abc"), b"ctx".to_vec()),
        Mode::Mu => (vec![7; 64], Vec::new()),
        _ => (b"abc".to_vec(), b"ctx".to_vec()),
    }
}

/// The message of a request's fields.
fn msg<'a>(m: Mode, bytes: &'a [u8], ctx: &'a [u8], ph: Option<PreHash>) -> Option<Msg<'a>> {
    Some(match m {
        Mode::Pure => Msg::Pure { msg: bytes, ctx },
        Mode::Prehash => Msg::PreHash {
            ph: ph?,
            msg: bytes,
            ctx,
        },
        Mode::Prehashed => Msg::PreHashed {
            ph: ph?,
            digest: bytes,
            ctx,
        },
        Mode::Mu => Msg::Mu(bytes.try_into().ok()?),
        Mode::Internal => Msg::Internal(bytes),
    })
}

/// Whether `got` is an answer (not "not offered").
fn answers<T>(got: Got<T>) -> bool {
    !matches!(got, Err(Miss::NotOffered))
}

/// The modes and pre-hashes `asks` answers (of "sign" or "verify"), the others entered in
/// `not_offered`; `None` if it answers none. A pre-hash is listed if every pre-hash mode it
/// answers answers it.
fn modes_offered(
    what: &str,
    asks: impl Fn(Msg<'_>) -> bool,
    not_offered: &mut Map<String, Value>,
) -> Option<Value> {
    let mut modes = Vec::new();
    let mut prehashes: Option<Vec<&str>> = None;
    for m in MODES {
        let pre = matches!(m, Mode::Prehash | Mode::Prehashed);
        let tried = if pre {
            &PreHash::ALL[..]
        } else {
            &[PreHash::Shake128][..]
        };
        let ok: Vec<&str> = tried
            .iter()
            .filter(|&&ph| {
                let (b, c) = sample(m, ph);
                asks(msg(m, &b, &c, Some(ph)).expect("a sample message"))
            })
            .map(|ph| ph.name())
            .collect();
        if ok.is_empty() {
            let key = format!("{what} {}", mode_name(m));
            not_offered.insert(key, json!("not offered by its API here"));
            continue;
        }
        modes.push(mode_name(m));
        if pre {
            prehashes = Some(match prehashes {
                None => ok,
                Some(before) => before.into_iter().filter(|n| ok.contains(n)).collect(),
            });
        }
    }
    (!modes.is_empty()).then(|| json!({"modes": modes, "prehashes": prehashes.unwrap_or_default()}))
}

/// The hello of `o`: what it answers, found by asking it on sample inputs of ML-DSA-44.
pub fn hello(o: &dyn Oracle) -> Value {
    let p = ML_DSA_44;
    let xi = [1u8; 32];
    let (pk, sk) = crate::check::e2e::keygen(&p, &xi);
    let sig = vec![0u8; p.sig_bytes()];
    let mut not_offered = Map::new();
    let sign = modes_offered(
        "sign",
        |m| answers(o.sign(&p, Key::expanded(&sk), m, &[3; 32])),
        &mut not_offered,
    );
    let verify = modes_offered(
        "verify",
        |m| answers(o.verify(&p, &pk, m, &sig)),
        &mut not_offered,
    );
    let kernels: Vec<&str> = KERNELS
        .iter()
        .filter(|&&k| answers(kernel(o, k, &probe(k))))
        .map(|k| k.op())
        .collect();
    let speed = o.speed();
    let mut offers = json!({
        "keygen": answers(o.keygen(&p, &xi)),
        "kernels": kernels,
    });
    if let Some(mut sign) = sign {
        sign["key"] = json!("expanded");
        sign["rnd"] = json!("given");
        offers["sign"] = sign;
    }
    if let Some(verify) = verify {
        offers["verify"] = verify;
    }
    json!({
        "protocol": crate::impls::process::hello::PROTOCOLS[0],
        "name": o.name(),
        "version": format!("mldsa-diff {} serving {} ({})", env!("CARGO_PKG_VERSION"), o.name(), o.origin().describe()),
        // Its own time plus a pipe round trip with JSON (about 60 us a call, measured here).
        "sign_us": speed.sign_us + PIPE_US,
        "kernel_us": speed.kernel_us + PIPE_US,
        "offers": offers,
        "not_offered": not_offered,
    })
}

const KERNELS: [Kernel; 10] = [
    Kernel::Ntt,
    Kernel::Power2round,
    Kernel::Decompose,
    Kernel::UseHint,
    Kernel::SampleInBall,
    Kernel::ExpandA,
    Kernel::RejNttPoly,
    Kernel::RejBoundedPoly,
    Kernel::ExpandMaskPoly,
    Kernel::ExpandMask,
];

/// A sample request of kernel `k`.
fn probe(k: Kernel) -> Map<String, Value> {
    let zeros = vec![0; N];
    let v = match k {
        Kernel::Ntt | Kernel::Power2round => json!({"poly": zeros}),
        Kernel::Decompose => json!({"gamma2": 95232, "poly": zeros}),
        Kernel::UseHint => json!({"gamma2": 95232, "poly": zeros, "hint": zeros}),
        Kernel::SampleInBall => json!({"set": "ML-DSA-44", "ctilde": "00".repeat(32)}),
        Kernel::ExpandA => json!({"set": "ML-DSA-44", "rho": "00".repeat(32)}),
        Kernel::RejNttPoly => json!({"seed": "00".repeat(34)}),
        Kernel::RejBoundedPoly => json!({"eta": 2, "seed": "00".repeat(66)}),
        Kernel::ExpandMaskPoly => json!({"gamma1": 131072, "seed": "00".repeat(66)}),
        Kernel::ExpandMask => json!({"set": "ML-DSA-44", "rhopp": "00".repeat(64), "kappa": 0}),
    };
    match v {
        Value::Object(o) => o,
        _ => unreachable!("an object"),
    }
}

/// A request's field, or why it is missing.
fn field<'a>(r: &'a Map<String, Value>, f: &str) -> Result<&'a Value, String> {
    r.get(f).ok_or_else(|| format!("no field {f:?}"))
}

fn bytes(r: &Map<String, Value>, f: &str) -> Result<Vec<u8>, String> {
    let s = field(r, f)?
        .as_str()
        .ok_or_else(|| format!("{f} is not a string"))?;
    hex::decode(s).map_err(|e| format!("{f}: {e}"))
}

fn array<const L: usize>(r: &Map<String, Value>, f: &str) -> Result<[u8; L], String> {
    bytes(r, f)?
        .try_into()
        .map_err(|_| format!("{f} is not {L} bytes"))
}

fn poly(r: &Map<String, Value>, f: &str) -> Result<Poly, String> {
    let a = field(r, f)?
        .as_array()
        .ok_or_else(|| format!("{f} is not an array"))?;
    let mut p = Poly::ZERO;
    if a.len() != N {
        return Err(format!("{f} has {} coefficients", a.len()));
    }
    for (c, v) in p.coeffs.iter_mut().zip(a) {
        *c = v
            .as_i64()
            .and_then(|x| i32::try_from(x).ok())
            .ok_or_else(|| format!("{f}: not a coefficient"))?;
    }
    Ok(p)
}

fn set(r: &Map<String, Value>) -> Result<Params, String> {
    let name = field(r, "set")?.as_str().ok_or("set is not a string")?;
    ALL_PARAMS
        .into_iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("unknown set {name:?}"))
}

/// The set whose gamma2 (eta, gamma1) is the request's.
fn by<T: PartialEq>(
    r: &Map<String, Value>,
    f: &str,
    of: fn(&Params) -> (T, i64),
) -> Result<(Params, T), String> {
    let v = field(r, f)?
        .as_i64()
        .ok_or_else(|| format!("{f} is not an integer"))?;
    ALL_PARAMS
        .into_iter()
        .find_map(|p| {
            let (t, value) = of(&p);
            (value == v).then_some((p, t))
        })
        .ok_or_else(|| format!("{f} = {v} is no set's"))
}

fn polys_value(ps: &[Poly]) -> Value {
    json!(ps.iter().map(|p| p.coeffs.to_vec()).collect::<Vec<_>>())
}

/// Kernel `k` on the request's fields: the answer's fields.
fn kernel(o: &dyn Oracle, k: Kernel, r: &Map<String, Value>) -> Got<Map<String, Value>> {
    let bad = |e: String| Miss::Fault(crate::model::Fault::Expectation(e));
    let g2 = |r| {
        by(r, "gamma2", |p: &Params| {
            (p.gamma2, i64::from(p.gamma2.value()))
        })
        .map_err(bad)
    };
    let (p, out) = match k {
        Kernel::Ntt => (
            ML_DSA_65,
            json!({"poly": o.ntt(&ML_DSA_65, poly(r, "poly").map_err(bad)?)?.coeffs.to_vec()}),
        ),
        Kernel::Power2round => {
            let (t1, t0) = o.power2round(&ML_DSA_65, &poly(r, "poly").map_err(bad)?)?;
            (ML_DSA_65, json!({"polys": polys_value(&[t1, t0])}))
        }
        Kernel::Decompose => {
            let (p, g): (Params, Gamma2) = g2(r)?;
            let (r1, r0) = o.decompose(&p, g, &poly(r, "poly").map_err(bad)?)?;
            (p, json!({"polys": polys_value(&[r1, r0])}))
        }
        Kernel::UseHint => {
            let (p, g): (Params, Gamma2) = g2(r)?;
            let a = poly(r, "poly").map_err(bad)?;
            let h = poly(r, "hint").map_err(bad)?;
            (
                p,
                json!({"poly": o.use_hint(&p, g, &a, &h)?.coeffs.to_vec()}),
            )
        }
        Kernel::SampleInBall => {
            let p = set(r).map_err(bad)?;
            let c = o.sample_in_ball(&p, &bytes(r, "ctilde").map_err(bad)?)?;
            (p, json!({"poly": c.coeffs.to_vec()}))
        }
        Kernel::ExpandA => {
            let p = set(r).map_err(bad)?;
            let a = o.expand_a(&p, &array(r, "rho").map_err(bad)?)?;
            (p, json!({"polys": polys_value(&a)}))
        }
        Kernel::RejNttPoly => {
            let a = o.poly_uniform(&ML_DSA_65, &array(r, "seed").map_err(bad)?)?;
            (ML_DSA_65, json!({"poly": a.coeffs.to_vec()}))
        }
        Kernel::RejBoundedPoly => {
            let (p, e): (Params, Eta) =
                by(r, "eta", |p| (p.eta, i64::from(p.eta.value()))).map_err(bad)?;
            let a = o.poly_uniform_eta(&p, e, &array(r, "seed").map_err(bad)?)?;
            (p, json!({"poly": a.coeffs.to_vec()}))
        }
        Kernel::ExpandMaskPoly => {
            let (p, g): (Params, Gamma1) =
                by(r, "gamma1", |p| (p.gamma1, i64::from(p.gamma1.value()))).map_err(bad)?;
            let a = o.poly_uniform_gamma1(&p, g, &array(r, "seed").map_err(bad)?)?;
            (p, json!({"poly": a.coeffs.to_vec()}))
        }
        Kernel::ExpandMask => {
            let p = set(r).map_err(bad)?;
            let kappa = field(r, "kappa")
                .and_then(|v| {
                    v.as_u64()
                        .and_then(|k| u16::try_from(k).ok())
                        .ok_or_else(|| "kappa is not an integer in [0, 65535]".to_string())
                })
                .map_err(bad)?;
            let y = o.expand_mask(&p, &array(r, "rhopp").map_err(bad)?, kappa)?;
            (p, json!({"polys": polys_value(&y)}))
        }
    };
    let _ = p;
    match out {
        Value::Object(m) => Ok(m),
        _ => unreachable!("an object"),
    }
}

/// The message fields of a sign or verify request.
struct Wired {
    mode: Mode,
    msg: Vec<u8>,
    ctx: Vec<u8>,
    ph: Option<PreHash>,
}

impl Wired {
    fn of(r: &Map<String, Value>) -> Result<Wired, String> {
        let mode =
            serde_json::from_value(field(r, "mode")?.clone()).map_err(|e| format!("mode: {e}"))?;
        let ctx = match r.contains_key("ctx") {
            true => bytes(r, "ctx")?,
            false => Vec::new(),
        };
        let ph = match r.get("ph").and_then(Value::as_str) {
            Some(n) => Some(
                PreHash::ALL
                    .into_iter()
                    .find(|ph| ph.name() == n)
                    .ok_or_else(|| format!("unknown pre-hash {n:?}"))?,
            ),
            None => None,
        };
        Ok(Wired {
            mode,
            msg: bytes(r, "msg")?,
            ctx,
            ph,
        })
    }

    fn msg(&self) -> Option<Msg<'_>> {
        msg(self.mode, &self.msg, &self.ctx, self.ph)
    }
}

/// Why a request has no answer of the implementation's.
enum NoAnswer {
    /// It does not take this input at all (a key of another length for C): the protocol's
    /// `not_offered` answer.
    NotOffered,
    /// The request is not one the protocol allows, or the implementation failed.
    Failed(String),
}

impl From<String> for NoAnswer {
    fn from(e: String) -> Self {
        NoAnswer::Failed(e)
    }
}

impl From<&str> for NoAnswer {
    fn from(e: &str) -> Self {
        NoAnswer::Failed(e.into())
    }
}

/// The answer fields of one request, or why it has none.
fn answer(o: &dyn Oracle, r: &Map<String, Value>) -> Result<Map<String, Value>, NoAnswer> {
    let op = field(r, "op")?.as_str().ok_or("op is not a string")?;
    let fault = |m: Miss| match m {
        Miss::NotOffered => NoAnswer::NotOffered,
        Miss::Fault(f) => NoAnswer::Failed(format!("{op}: {f}")),
    };
    let mut out = Map::new();
    match op {
        "keygen" => {
            let p = set(r)?;
            let kp = o.keygen(&p, &array(r, "xi")?).map_err(fault)?;
            let (pk, sk) = kp.map_err(|e| NoAnswer::Failed(format!("keygen refused: {e}")))?;
            out.insert("pk".into(), hex::encode(pk).into());
            out.insert("sk".into(), hex::encode(sk).into());
        }
        "sign" => {
            let p = set(r)?;
            let sk = bytes(r, "sk")?;
            let w = Wired::of(r)?;
            let message = w.msg().ok_or("a message that does not fit its mode")?;
            match o
                .sign(&p, Key::expanded(&sk), message, &array(r, "rnd")?)
                .map_err(fault)?
            {
                Ok(sig) => out.insert("sig".into(), hex::encode(sig).into()),
                Err(e) => out.insert("refused".into(), e.into()),
            };
        }
        "verify" => {
            let p = set(r)?;
            let w = Wired::of(r)?;
            let Some(message) = w.msg() else {
                out.insert("accept".into(), false.into());
                return Ok(out);
            };
            let v = o
                .verify(&p, &bytes(r, "pk")?, message, &bytes(r, "sig")?)
                .map_err(fault)?;
            out.insert("accept".into(), v.is_ok().into());
            if let Err(Some(why)) = v {
                out.insert("reason".into(), why.into());
            }
        }
        _ => {
            let k = KERNELS
                .into_iter()
                .find(|k| k.op() == op)
                .ok_or_else(|| format!("unknown op {op:?}"))?;
            return kernel(o, k, r).map_err(fault);
        }
    }
    Ok(out)
}

/// Serves `o`: the hello, then one answer per request line until `input` ends. A request the
/// protocol does not allow, or a fault of the implementation, ends it with an error (the
/// harness on the other side reports that as a fault of this implementation).
pub fn serve(o: &dyn Oracle, input: impl BufRead, mut output: impl Write) -> Result<(), String> {
    let io = |e: std::io::Error| format!("serve: {e}");
    writeln!(output, "{}", hello(o)).map_err(io)?;
    output.flush().map_err(io)?;
    for line in input.lines() {
        let line = line.map_err(io)?;
        let r = match serde_json::from_str::<Value>(&line) {
            Ok(Value::Object(r)) => r,
            _ => return Err(format!("serve: not a request: {line:.200}")),
        };
        let id = field(&r, "id")?.clone();
        let mut a = match answer(o, &r) {
            Ok(a) => a,
            Err(NoAnswer::NotOffered) => {
                let mut a = Map::new();
                a.insert("not_offered".into(), "not this input".into());
                a
            }
            Err(NoAnswer::Failed(e)) => return Err(e),
        };
        a.insert("id".into(), id);
        writeln!(output, "{}", Value::Object(a)).map_err(io)?;
        output.flush().map_err(io)?;
    }
    Ok(())
}
