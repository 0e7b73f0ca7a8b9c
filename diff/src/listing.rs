//! What `mldsa-diff list` prints: the implementations here, every check with its contract,
//! the oracle matrix, what each implementation offers end to end (for the other processes,
//! their hello: their version, speed and why they leave the rest out), how mldsa-native's
//! kernel contracts differ, and every stated difference (the same data the judge applies).

use crate::check::Check;
use crate::known::{KNOWN, Who};
use crate::oracle::Oracle;
use std::fmt::Write;

fn fold(r: &str) -> String {
    r.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn who(w: Who) -> String {
    match w {
        Who::C => "every C variant".to_string(),
        Who::Rust => "every Rust backend".to_string(),
        Who::Named(n) => n.to_string(),
        Who::Names(ns) => ns.join(", "),
        Who::From(p) => format!("every {} implementation", p.describe()),
        Who::Every => "every implementation".to_string(),
    }
}

/// What an adapter's hello offers, in one line.
fn offers(o: &crate::impls::process::hello::Offers) -> String {
    let mut parts = Vec::new();
    if o.keygen {
        parts.push("keygen".to_string());
    }
    let modes = |m: &crate::impls::process::hello::Modes| {
        let mut v: Vec<String> = m
            .modes
            .iter()
            .map(|m| format!("{m:?}").to_lowercase())
            .collect();
        match m.prehashes.len() {
            0 => {}
            12 => v.push("all 12 pre-hashes".into()),
            _ => v.push(format!("pre-hashes {}", m.prehashes.join(" "))),
        }
        v.join(", ")
    };
    if let Some(sg) = &o.sign {
        let key = format!("{:?} key, {:?} rnd", sg.key, sg.rnd).to_lowercase();
        parts.push(format!("sign ({key}: {})", modes(&sg.modes())));
    }
    if let Some(v) = &o.verify {
        parts.push(format!("verify ({})", modes(v)));
    }
    if !o.kernels.is_empty() {
        let k: Vec<&str> = o.kernels.iter().map(|k| k.op()).collect();
        parts.push(format!("kernels {}", k.join(" ")));
    }
    parts.join("; ")
}

pub fn render() -> Result<String, String> {
    let oracles = crate::impls::available_checked()?;
    let names: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "implementations on this machine ({}): {}",
        std::env::consts::ARCH,
        names.join(", ")
    );
    let _ = writeln!(s, "reference: portable\n");
    for c in Check::all() {
        let _ = writeln!(s, "{:<26} {}", c.name(), c.describe());
    }
    let _ = writeln!(s, "\n{}", crate::matrix::render(&Check::all(), &oracles));
    let _ = writeln!(
        s,
        "\nwhat the implementations in this process offer end to end (found by asking each, as \
         `mldsa-diff serve` states it), and their stated speed:"
    );
    for o in crate::impls::built_in() {
        let hello = crate::serve::hello(o.as_ref()).to_string();
        let h = match crate::impls::process::hello::Hello::parse(&hello) {
            Ok(h) => h,
            Err(e) => {
                let _ = writeln!(s, "  {}: what it offers does not parse: {e}", o.name());
                continue;
            }
        };
        let e2e = crate::impls::process::hello::Offers {
            kernels: Vec::new(),
            ..h.offers
        };
        let line = offers(&e2e);
        if !line.is_empty() {
            let us = o.speed().sign_us;
            let _ = writeln!(s, "  {}: {line}; {us} us per ML-DSA-44 signature", o.name());
        }
    }
    let _ = writeln!(
        s,
        "\nimplementations in other processes (diff/oracles/PROTOCOL.md; each states its speed):"
    );
    for r in crate::impls::process::started()? {
        let h = r.hello();
        let name = r.name();
        let _ = writeln!(
            s,
            "  {name}: {} (`{}`), {} us per ML-DSA-44 signature",
            h.version,
            r.command(),
            h.sign_us
        );
        let _ = writeln!(s, "    offers: {}", offers(&h.offers));
        for (what, why) in &h.not_offered {
            let _ = writeln!(s, "    not offered: {what}: {why}");
        }
    }
    let missing = crate::impls::process::not_installed();
    if !missing.is_empty() {
        let _ = writeln!(
            s,
            "  shipped but not installed here ({}): {} (scripts/install-oracles.sh installs them)",
            crate::impls::process::install_dir().display(),
            missing.join(", ")
        );
    }
    let _ = writeln!(
        s,
        "\nhow mldsa-native's native kernels' contracts differ (applied by its wrapper):"
    );
    for (kernel, how) in crate::impls::mldsa_native::CONTRACT_DIFFERENCES {
        let _ = writeln!(s, "  {kernel}: {how}");
    }
    for (deviation, heading) in [
        (
            true,
            "known deviations of other implementations from FIPS 204 (asserted exactly, not ignored)",
        ),
        (
            false,
            "answers the specification requires instead of agreement (asserted exactly)",
        ),
    ] {
        let _ = writeln!(s, "\n{heading}:");
        for k in KNOWN.iter().filter(|k| k.deviation == deviation) {
            let names: Vec<&str> = k.checks.iter().map(|d| d.name).collect();
            let _ = writeln!(
                s,
                "  {} on {}: {}",
                names.join(", "),
                who(k.who),
                fold(k.reason)
            );
        }
    }
    let _ = writeln!(
        s,
        "\ncrafted verify cases (verify_crafted_{{set}}): rule, the verdict FIPS 204 demands"
    );
    for (i, r) in crate::craft::RULES.iter().enumerate() {
        let v = if r.accept { "accept" } else { "reject" };
        let _ = writeln!(s, "  {i:>2} {v}  {}", r.name);
    }
    Ok(s)
}
