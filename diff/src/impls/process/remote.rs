//! An implementation in another process as an [`Oracle`]: each operation its hello offers
//! becomes one request line, each answer is checked (its id, its fields, the lengths FIPS 204
//! gives keys and signatures) and turned into the interface's answer. A process that fails is
//! killed, the failure is that implementation's answer (a typed [`Fault`] naming it), and the
//! next request starts a fresh process. One process per calling thread: idle ones wait in a
//! pool.

use super::child::{Child, Failure};
use super::hello::{Hello, Kernel, KeyForm, Mode, Rnd, wire};
use crate::model::Provenance;
use crate::oracle::{
    Fault, Got, Key, KeyPair, Miss, Msg, Oracle, Signed, Speed, Verified, accepted,
};
use mldsa::Params;
use mldsa::params::{Eta, Gamma1, Gamma2, N, Q};
use mldsa::poly::Poly;
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long an adapter has for its hello.
const HELLO_LIMIT: Duration = Duration::from_secs(60);

struct Inner {
    name: &'static str,
    command: String,
    hello: Hello,
    idle: Mutex<Vec<Child>>,
    next_id: AtomicU64,
}

/// A running adapter (cheap to clone: clones share its processes).
#[derive(Clone)]
pub struct Remote(Arc<Inner>);

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Remote({} = `{}`)", self.0.name, self.0.command)
    }
}

/// Starts `command` and reads its hello within `limit`.
fn start(name: &str, command: &str, limit: Duration) -> Result<(Child, Hello), String> {
    let mut child = Child::start(command).map_err(|e| format!("cannot start `{command}`: {e}"))?;
    let line = child.read_line(limit).map_err(|f| match f {
        Failure::Exited { status, stderr } => {
            format!("`{command}` exited ({status}) before its hello; its stderr: {stderr}")
        }
        Failure::Timeout => format!(
            "`{command}` wrote no hello within {:.1} s",
            limit.as_secs_f64()
        ),
        Failure::NotALine(why) => format!("`{command}` began with {why}"),
    })?;
    let hello = Hello::parse(&line).map_err(|e| format!("{name} (`{command}`): {e}"))?;
    Ok((child, hello))
}

impl Remote {
    /// Starts the adapter `name` = `command` and reads what it offers.
    pub fn start(name: &'static str, command: &str) -> Result<Remote, String> {
        let (child, hello) = start(name, command, HELLO_LIMIT)?;
        Ok(Remote(Arc::new(Inner {
            name,
            command: command.to_string(),
            hello,
            idle: Mutex::new(vec![child]),
            next_id: AtomicU64::new(0),
        })))
    }

    pub fn hello(&self) -> &Hello {
        &self.0.hello
    }

    pub fn command(&self) -> &str {
        &self.0.command
    }

    /// The fault of this implementation for `why`.
    fn malformed(&self, line: &str, why: impl Into<String>) -> Miss {
        Miss::Fault(Fault::Malformed {
            implementation: self.0.name.to_string(),
            why: why.into(),
            line: line.chars().take(200).collect(),
        })
    }

    /// Sends `request` (an object without its id) and makes the interface's answer of the
    /// answer object with `read` (which checks its fields). Any failure (no answer, not this
    /// request's answer, a field `read` refuses) kills that process; the next request starts
    /// another.
    fn ask<T>(
        &self,
        mut request: Map<String, Value>,
        end_to_end: bool,
        read: impl FnOnce(&Map<String, Value>) -> Got<T>,
    ) -> Got<T> {
        let id = self.0.next_id.fetch_add(1, Ordering::Relaxed);
        request.insert("id".into(), id.into());
        let line = Value::Object(request).to_string();
        let idle = self.0.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let limit = super::time_limit(end_to_end);
        let mut child = match idle {
            Some(c) => c,
            // A restart's hello counts against the case's time.
            None => match start(self.0.name, &self.0.command, limit.min(HELLO_LIMIT)) {
                Ok((c, _)) => c,
                Err(e) => {
                    return Err(Miss::Fault(Fault::Exited {
                        implementation: self.0.name.into(),
                        status: "could not be restarted".into(),
                        stderr: e,
                    }));
                }
            },
        };
        let answer = match child.ask(&line, limit) {
            Ok(a) => a,
            Err(Failure::Exited { status, stderr }) => {
                return Err(Miss::Fault(Fault::Exited {
                    implementation: self.0.name.into(),
                    status,
                    stderr,
                }));
            }
            Err(Failure::Timeout) => {
                return Err(Miss::Fault(Fault::Hang {
                    implementation: self.0.name.into(),
                    millis: u64::try_from(limit.as_millis()).unwrap_or(u64::MAX),
                }));
            }
            Err(Failure::NotALine(why)) => return Err(self.malformed("", why)),
        };
        let obj = match serde_json::from_str::<Value>(answer.trim_end()) {
            Ok(Value::Object(o)) => o,
            Ok(_) => return Err(self.malformed(&answer, "not a JSON object")),
            Err(e) => return Err(self.malformed(&answer, format!("not JSON: {e}"))),
        };
        if obj.get("id").and_then(Value::as_u64) != Some(id) {
            return Err(self.malformed(&answer, format!("not the answer to request {id}")));
        }
        // An input its API cannot take at all (PROTOCOL.md): not compared with it.
        let got = match obj.get("not_offered") {
            Some(Value::String(_)) if obj.len() == 2 => Err(Miss::NotOffered),
            Some(_) => Err(self.malformed(&answer, "not_offered is a string, and all the answer")),
            None => read(&obj),
        };
        if !matches!(got, Err(Miss::Fault(_))) {
            self.0
                .idle
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(child);
        }
        got
    }

    /// Field `f` of `answer` as bytes (hex).
    fn bytes(&self, answer: &Map<String, Value>, f: &str) -> Got<Vec<u8>> {
        let text = || Value::Object(answer.clone()).to_string();
        let s = answer
            .get(f)
            .and_then(Value::as_str)
            .ok_or_else(|| self.malformed(&text(), format!("no string field {f:?}")))?;
        hex::decode(s).map_err(|e| self.malformed(&text(), format!("{f} is not hex: {e}")))
    }

    /// `bytes` of `field`, if it has `want` of them for set `p`.
    fn sized(&self, p: &Params, field: &str, bytes: Vec<u8>, want: usize) -> Got<Vec<u8>> {
        if bytes.len() == want {
            return Ok(bytes);
        }
        Err(Miss::Fault(Fault::Length {
            implementation: self.0.name.into(),
            field: field.into(),
            set: p.name.into(),
            got: bytes.len(),
            want,
        }))
    }

    /// The polynomials of field `f` (`count` of them, each of 256 coefficients in
    /// (-2^31, 2^31)).
    fn polys(&self, answer: &Map<String, Value>, f: &str, count: usize) -> Got<Vec<Poly>> {
        let text = || Value::Object(answer.clone()).to_string();
        let bad = |why: &str| self.malformed(&text(), format!("{f}: {why}"));
        // `poly` is one polynomial, `polys` a list of them.
        let list: Vec<&Value> = match (f, answer.get(f)) {
            ("poly", Some(v @ Value::Array(_))) => vec![v],
            (_, Some(Value::Array(a))) => a.iter().collect(),
            _ => return Err(bad("missing or not an array")),
        };
        if list.len() != count {
            return Err(bad(&format!("{} polynomials, not {count}", list.len())));
        }
        list.into_iter()
            .map(|p| {
                let c = p
                    .as_array()
                    .ok_or_else(|| bad("a polynomial is not an array"))?;
                if c.len() != N {
                    return Err(bad(&format!("a polynomial of {} coefficients", c.len())));
                }
                let mut out = Poly::ZERO;
                for (o, v) in out.coeffs.iter_mut().zip(c) {
                    *o = v
                        .as_i64()
                        .and_then(|x| i32::try_from(x).ok())
                        .ok_or_else(|| bad("a coefficient is not a 32-bit integer"))?;
                }
                Ok(out)
            })
            .collect()
    }

    /// A kernel request, if the hello offers `k`.
    fn kernel(&self, k: Kernel, fields: Value, out: &str, count: usize) -> Got<Vec<Poly>> {
        if !self.0.hello.offers.kernels.contains(&k) {
            return Err(Miss::NotOffered);
        }
        let Value::Object(mut req) = fields else {
            unreachable!("kernel fields are an object")
        };
        req.insert("op".into(), k.op().into());
        self.ask(req, false, |a| self.polys(a, out, count))
    }
}

/// A polynomial as the protocol sends it: canonical representatives in [0, q).
fn canonical(a: &Poly) -> Vec<i32> {
    a.coeffs.iter().map(|&x| x.rem_euclid(Q)).collect()
}

fn one(mut v: Vec<Poly>) -> Poly {
    v.pop().expect("one polynomial was checked for")
}

fn two(v: Vec<Poly>) -> (Poly, Poly) {
    (v[0], v[1])
}

impl Oracle for Remote {
    fn name(&self) -> &'static str {
        self.0.name
    }
    fn origin(&self) -> Provenance {
        Provenance::Process
    }
    fn speed(&self) -> Speed {
        let h = &self.0.hello;
        Speed {
            sign_us: h.sign_us,
            kernel_us: h.kernel_us.unwrap_or(h.sign_us),
        }
    }
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        if !self.0.hello.offers.keygen {
            return Err(Miss::NotOffered);
        }
        let req = obj(json!({"op": "keygen", "set": p.name, "xi": hex::encode(xi)}));
        self.ask(req, true, |a| {
            let pk = self.sized(p, "pk", self.bytes(a, "pk")?, p.pk_bytes())?;
            let sk = self.sized(p, "sk", self.bytes(a, "sk")?, p.sk_bytes())?;
            Ok(Ok((pk, sk)))
        })
    }
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let Some(offer) = &self.0.hello.offers.sign else {
            return Err(Miss::NotOffered);
        };
        let w = wire(&m);
        let seed_ok = offer.key == KeyForm::Expanded || key.xi.is_some();
        let rnd_ok = offer.rnd == Rnd::Given || rnd == &[0; 32];
        if !offer.modes().offer(&w) || !seed_ok || !rnd_ok {
            return Err(Miss::NotOffered);
        }
        let mut req = obj(json!({
            "op": "sign", "set": p.name, "sk": hex::encode(key.sk), "mode": mode_name(w.mode),
            "msg": hex::encode(w.msg), "rnd": hex::encode(rnd),
        }));
        if let Some(xi) = key.xi {
            req.insert("xi".into(), hex::encode(xi).into());
        }
        put_context(&mut req, &w);
        self.ask(req, true, |a| match (a.get("sig"), a.get("refused")) {
            (None, Some(Value::String(why))) => Ok(Err(why.clone())),
            (Some(_), None) => {
                let sig = self.sized(p, "signature", self.bytes(a, "sig")?, p.sig_bytes())?;
                Ok(Ok(sig))
            }
            _ => Err(self.malformed(
                &Value::Object(a.clone()).to_string(),
                "a sign answer has sig (hex) or refused (a string), one of them",
            )),
        })
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        let w = wire(&m);
        if !self
            .0
            .hello
            .offers
            .verify
            .as_ref()
            .is_some_and(|v| v.offer(&w))
        {
            return Err(Miss::NotOffered);
        }
        let mut req = obj(json!({
            "op": "verify", "set": p.name, "pk": hex::encode(pk), "mode": mode_name(w.mode),
            "msg": hex::encode(w.msg), "sig": hex::encode(sig),
        }));
        put_context(&mut req, &w);
        self.ask(req, true, |a| {
            match a.get("accept").and_then(Value::as_bool) {
                Some(true) => Ok(accepted(true)),
                Some(false) => Ok(Err(a
                    .get("reason")
                    .and_then(Value::as_str)
                    .map(str::to_string))),
                None => Err(self.malformed(
                    &Value::Object(a.clone()).to_string(),
                    "no boolean field \"accept\"",
                )),
            }
        })
    }
    fn ntt(&self, _: &Params, a: Poly) -> Got<Poly> {
        self.kernel(Kernel::Ntt, json!({"poly": canonical(&a)}), "poly", 1)
            .map(one)
    }
    fn power2round(&self, _: &Params, a: &Poly) -> Got<(Poly, Poly)> {
        self.kernel(
            Kernel::Power2round,
            json!({"poly": canonical(a)}),
            "polys",
            2,
        )
        .map(two)
    }
    fn decompose(&self, _: &Params, g: Gamma2, a: &Poly) -> Got<(Poly, Poly)> {
        let f = json!({"gamma2": g.value(), "poly": canonical(a)});
        self.kernel(Kernel::Decompose, f, "polys", 2).map(two)
    }
    fn use_hint(&self, _: &Params, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly> {
        let f = json!({"gamma2": g.value(), "poly": canonical(a), "hint": h.coeffs.to_vec()});
        self.kernel(Kernel::UseHint, f, "poly", 1).map(one)
    }
    fn sample_in_ball(&self, p: &Params, ctilde: &[u8]) -> Got<Poly> {
        let f = json!({"set": p.name, "ctilde": hex::encode(ctilde)});
        self.kernel(Kernel::SampleInBall, f, "poly", 1).map(one)
    }
    fn expand_a(&self, p: &Params, rho: &[u8; 32]) -> Got<Vec<Poly>> {
        let f = json!({"set": p.name, "rho": hex::encode(rho)});
        self.kernel(Kernel::ExpandA, f, "polys", p.k * p.l)
    }
    fn expand_mask(&self, p: &Params, rhopp: &[u8; 64], kappa: u16) -> Got<Vec<Poly>> {
        let f = json!({"set": p.name, "rhopp": hex::encode(rhopp), "kappa": kappa});
        self.kernel(Kernel::ExpandMask, f, "polys", p.l)
    }
    fn poly_uniform(&self, _: &Params, seed: &[u8; 34]) -> Got<Poly> {
        let f = json!({"seed": hex::encode(seed)});
        self.kernel(Kernel::RejNttPoly, f, "poly", 1).map(one)
    }
    fn poly_uniform_eta(&self, _: &Params, e: Eta, seed: &[u8; 66]) -> Got<Poly> {
        let f = json!({"eta": e.value(), "seed": hex::encode(seed)});
        self.kernel(Kernel::RejBoundedPoly, f, "poly", 1).map(one)
    }
    fn poly_uniform_gamma1(&self, _: &Params, g: Gamma1, seed: &[u8; 66]) -> Got<Poly> {
        let f = json!({"gamma1": g.value(), "seed": hex::encode(seed)});
        self.kernel(Kernel::ExpandMaskPoly, f, "poly", 1).map(one)
    }
}

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(o) => o,
        _ => unreachable!("json!({{..}}) is an object"),
    }
}

fn mode_name(m: Mode) -> &'static str {
    match m {
        Mode::Pure => "pure",
        Mode::Prehash => "prehash",
        Mode::Prehashed => "prehashed",
        Mode::Mu => "mu",
        Mode::Internal => "internal",
    }
}

/// The context and pre-hash fields of a message's request.
fn put_context(req: &mut Map<String, Value>, w: &super::hello::Wire<'_>) {
    if let Some(ctx) = w.ctx {
        req.insert("ctx".into(), hex::encode(ctx).into());
    }
    if let Some(ph) = w.ph {
        req.insert("ph".into(), ph.name().into());
    }
}
