//! The public-API checks (api_verify_{set}, api_sign_{set}) reach the paths they are for:
//! valid and broken signatures in every mode, keys and signatures of other lengths, contexts
//! past 255 bytes, refusals, and keys the typed API refuses while every other signer signs.
//! Measured on the generated inputs through the implementations' answers, not assumed.

use mldsa_diff::check::{self, Check};
use mldsa_diff::impls::ours::Ours;
use mldsa_diff::impls::typed::{TYPED, Typed, route};
use mldsa_diff::model::Provenance;
use mldsa_diff::model::Verdict;
use mldsa_diff::oracle::{Got, Key, KeyPair, Msg, Oracle, Signed, Speed, Verified};
use mldsa_diff::source::RngSource;

fn check(name: &str) -> Check {
    Check::from_name(name).unwrap_or_else(|| panic!("no check {name}"))
}

#[test]
fn api_verify_reaches_accept_and_reject_in_every_mode_and_odd_lengths() {
    let portable = Ours::new(mldsa::backend::Portable);
    for set in ["44", "65", "87"] {
        let c = check(&format!("api_verify_{set}"));
        let p = c.params();
        let mut src = RngSource::for_check(7, &c.name());
        let (mut accepted, mut rejected, mut odd_pk, mut odd_sig, mut long_ctx) = (0, 0, 0, 0, 0);
        let mut accepted_by_mode = [0; 5];
        for i in 0..400 {
            let case = check::generate(c, i, &mut src).unwrap();
            check::validate(c, &case).unwrap();
            let out = c.run(&portable, &case).unwrap();
            if out.verdict == Verdict::Accept {
                accepted += 1;
                accepted_by_mode[case.scalar as usize] += 1;
            } else {
                rejected += 1;
            }
            odd_pk += usize::from(case.pk.len() != p.pk_bytes());
            odd_sig += usize::from(case.sig.len() != p.sig_bytes());
            long_ctx += usize::from(case.ctx.len() > 255);
        }
        println!(
            "api_verify_{set}: {accepted} accepted ({accepted_by_mode:?} by mode), {rejected} rejected, \
             {odd_pk} pk and {odd_sig} signatures of another length, {long_ctx} contexts over 255"
        );
        assert!(accepted >= 50 && rejected >= 200, "{accepted} / {rejected}");
        // Pure (0), HashML-DSA (1) and HashML-DSA given the digest (4) each verify.
        for mode in [0, 1, 4] {
            assert!(
                accepted_by_mode[mode] >= 8,
                "mode {mode}: {accepted_by_mode:?}"
            );
        }
        assert!(odd_pk > 5 && odd_sig > 5 && long_ctx > 5);
    }
}

#[test]
fn api_sign_reaches_signatures_refusals_and_keys_only_the_typed_api_refuses() {
    let portable = Ours::new(mldsa::backend::Portable);
    for set in ["44", "65", "87"] {
        let c = check(&format!("api_sign_{set}"));
        let p = c.params();
        let mut src = RngSource::for_check(7, &c.name());
        let (mut signed, mut refused, mut typed_only, mut odd_sk) = (0, 0, 0, 0);
        for i in 0..400 {
            let case = check::generate(c, i, &mut src).unwrap();
            check::validate(c, &case).unwrap();
            let raw = c.run(&portable, &case).unwrap();
            let typed = c.run(&Typed, &case).unwrap();
            match (&raw.verdict, &typed.verdict) {
                (Verdict::Signed, Verdict::Signed) => {
                    signed += 1;
                    assert_eq!(raw.bytes, typed.bytes, "case {i}");
                }
                (Verdict::Signed, Verdict::Error(e)) => {
                    assert_eq!(*e, mldsa::Error::SecretKeyInconsistent.to_string());
                    typed_only += 1;
                }
                (Verdict::Error(_), Verdict::Error(_)) => refused += 1,
                other => panic!("case {i}: raw {:?}, {TYPED} {:?}", other.0, other.1),
            }
            odd_sk += usize::from(case.sk.len() != p.sk_bytes());
        }
        println!(
            "api_sign_{set}: {signed} signed, {refused} refused by both, {typed_only} signed by the \
             raw API and refused by the typed one (inconsistent key), {odd_sk} keys of another length"
        );
        assert!(signed >= 150 && refused >= 10 && typed_only >= 10 && odd_sk >= 10);
    }
}

/// Records the route the typed API takes for every call a check makes of it.
struct Routes(std::sync::Mutex<std::collections::BTreeMap<String, usize>>);

impl Routes {
    fn count(&self, what: String) {
        *self.0.lock().unwrap().entry(what).or_default() += 1;
    }
}

/// What kind of message, for the counts.
fn mode(m: Msg<'_>) -> String {
    match m {
        Msg::Pure { ctx: [], .. } => "pure, empty ctx".into(),
        Msg::Pure { .. } => "pure".into(),
        Msg::PreHash { .. } => "pre-hash".into(),
        Msg::PreHashed { .. } => "pre-hashed".into(),
        Msg::Mu(_) => "mu".into(),
        Msg::Internal(_) => "internal".into(),
    }
}

impl Oracle for Routes {
    fn name(&self) -> &'static str {
        TYPED
    }
    fn origin(&self) -> Provenance {
        Typed.origin()
    }
    fn speed(&self) -> Speed {
        Typed.speed()
    }
    fn keygen(&self, p: &mldsa::Params, xi: &[u8; 32]) -> Got<KeyPair> {
        self.count(format!("keygen {:?}", route(None, xi, false)));
        Typed.keygen(p, xi)
    }
    fn sign(&self, p: &mldsa::Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        self.count(format!("sign {} {:?}", mode(m), route(Some(m), rnd, true)));
        Typed.sign(p, key, m, rnd)
    }
    fn verify(&self, p: &mldsa::Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        self.count(format!(
            "verify {} {:?}",
            mode(m),
            route(Some(m), sig, false)
        ));
        Typed.verify(p, pk, m, sig)
    }
}

/// The default check's end-to-end cases (its seed, 200 a check) take every route through the
/// typed API (impls/typed.rs), each several times, and the typed API answers each as the
/// portable backend does through the raw API where both sign or both verify.
#[test]
fn the_default_check_takes_every_route_through_the_typed_api() {
    let routes = Routes(Default::default());
    let portable = Ours::new(mldsa::backend::Portable);
    for set in ["44", "65", "87"] {
        for name in [
            "keygen",
            "sign",
            "verify",
            "sign_variants",
            "api_sign",
            "api_verify",
        ] {
            let c = check(&format!("{name}_{set}"));
            let mut src = RngSource::for_check(20260101, &c.name());
            for i in 0..200 {
                let case = check::generate(c, i, &mut src).unwrap();
                let typed = c.run(&routes, &case).unwrap();
                let raw = c.run(&portable, &case).unwrap();
                if typed.verdict == raw.verdict {
                    assert_eq!(typed.bytes, raw.bytes, "{name}_{set} case {i}");
                }
            }
        }
    }
    let counts = routes.0.into_inner().unwrap();
    println!("{counts:#?}");
    let wanted = [
        "keygen FromSeed",
        "keygen Generate",
        "sign pure Given",
        "sign pure Hedged",
        "sign pure Deterministic",
        "sign pure ExternalMu",
        "sign pure, empty ctx Hedged",
        "sign pure, empty ctx Deterministic",
        "sign pre-hash Given",
        "sign pre-hash Hedged",
        "sign pre-hashed Given",
        "sign pre-hashed ExternalMu",
        "verify pure Given",
        "verify pure ExternalMu",
        "verify pure, empty ctx Traits",
        "verify pre-hash Given",
        "verify pre-hashed Given",
        "verify pre-hashed ExternalMu",
    ];
    for w in wanted {
        let n = counts.get(w).copied().unwrap_or(0);
        assert!(n >= 5, "route {w:?} taken {n} times: {counts:#?}");
    }
}
