//! How much keygen, sign and verify move with where the stack lies (issue 41 item 5), for
//! this crate's SIMD backends and PQClean's AVX2 code (mldsa-native's native build too, where
//! this CPU runs it) side by side.
//!
//! Each operation runs at 256 stack placements, 16 bytes apart over 4 KiB: called below two
//! frames of padding (one of 0..3840 bytes in steps of 256, one of 0..240 in steps of 16),
//! so every frame of the operation moves by that much against everything at a fixed address
//! (static tables, the heap). Placements, implementations and rounds are interleaved, and
//! each placement's time is its fastest round: on a shared machine a neighbour's burst of
//! work slows a stretch of seconds, which runs placement after placement (as separate runs
//! with environments of different sizes would) would report as a placement effect.
//! Reported per operation: the median over placements, the slowest placement, and how far
//! above the median it lies (the bar of issue 41: about 2%).
//!
//!     cargo bench -p mldsa-diff --bench placement [-- --sets 44,65,87 --rounds N --list-above PCT]
//!
//! `--list-above PCT` also lists (on stderr) every placement more than PCT% above its
//! operation's median: one narrow window of them (BENCHMARKS.md, AMD Zen 3) is 4K aliasing.
//!
//! Defaults: every set, 15 rounds (24 s for ML-DSA-44 here, more for the larger sets). Fewer rounds leave the
//! VM's noise in: at 5 rounds the slowest placements read 10-14% above the median where 15
//! rounds found 1.6-4.2% (ML-DSA-44, same build).

use mldsa::{BackendKind, ML_DSA_44, ML_DSA_65, ML_DSA_87, Params, raw};
use mldsa_diff::impls::mldsa_native;
use mldsa_diff::impls::pqclean::Variant;
use mldsa_diff::oracle::{Key, Msg};
use mldsa_diff::rng::with_script;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

mod common;
use common::{CTX, Fixture, MSG};

/// Runs `f` below a frame of `N` bytes (kept in memory by `black_box`).
#[inline(never)]
fn pad<const N: usize>(f: &mut dyn FnMut() -> f64) -> f64 {
    let mut p = [0u8; N];
    black_box(&mut p);
    let r = f();
    black_box(&mut p);
    r
}

type Pad = fn(&mut dyn FnMut() -> f64) -> f64;
const COARSE: [Pad; 16] = [
    pad::<0>,
    pad::<256>,
    pad::<512>,
    pad::<768>,
    pad::<1024>,
    pad::<1280>,
    pad::<1536>,
    pad::<1792>,
    pad::<2048>,
    pad::<2304>,
    pad::<2560>,
    pad::<2816>,
    pad::<3072>,
    pad::<3328>,
    pad::<3584>,
    pad::<3840>,
];
const FINE: [Pad; 16] = [
    pad::<0>, pad::<16>, pad::<32>, pad::<48>, pad::<64>, pad::<80>, pad::<96>, pad::<112>,
    pad::<128>, pad::<144>, pad::<160>, pad::<176>, pad::<192>, pad::<208>, pad::<224>, pad::<240>,
];
const PLACEMENTS: usize = COARSE.len() * FINE.len();

/// Nanoseconds per call of `op`, over `iters` calls, at placement `k` (its padding: 256
/// (k / 16) + 16 (k % 16) bytes).
fn at(k: usize, iters: u32, op: &mut dyn FnMut()) -> f64 {
    let mut timed = || {
        let t = Instant::now();
        for _ in 0..iters {
            op();
        }
        t.elapsed().as_nanos() as f64 / f64::from(iters)
    };
    COARSE[k / FINE.len()](&mut || FINE[k % FINE.len()](&mut timed))
}

/// One implementation's three operations on one set.
struct Subject<'a> {
    name: String,
    ops: [Box<dyn FnMut() + 'a>; 3],
}

fn subjects<'a>(p: &'a Params, fixture: &'a Fixture) -> Vec<Subject<'a>> {
    let mut out = Vec::new();
    for kind in BackendKind::available().filter(|k| *k != BackendKind::Portable) {
        let (mut pk, mut sk, mut sig) = (
            vec![0u8; p.pk_bytes()],
            vec![0u8; p.sk_bytes()],
            vec![0u8; p.sig_bytes()],
        );
        let f = fixture;
        out.push(Subject {
            name: format!("mldsa-{kind}"),
            ops: [
                Box::new(move || {
                    raw::keygen_internal(kind, p, black_box(&f.xi), &mut pk, &mut sk).unwrap()
                }),
                Box::new(move || {
                    raw::sign_internal(kind, p, black_box(&f.sk), &f.m_prime(), &f.rnd, &mut sig)
                        .unwrap()
                }),
                Box::new(move || {
                    raw::verify_internal(kind, p, black_box(&f.pk), &f.m_prime(), &f.sig).unwrap()
                }),
            ],
        });
    }
    for v in Variant::ALL {
        let Some(t) = v.for_params(p) else { continue };
        if !v.name().contains("avx2") {
            continue; // the clean C code is not this comparison's peer
        }
        let f = fixture;
        out.push(Subject {
            name: format!("pqclean-{}", &v.name()[2..]),
            ops: [
                Box::new(move || {
                    with_script(black_box(&f.xi), || t.keypair()).unwrap();
                }),
                Box::new(move || {
                    with_script(&f.rnd, || t.sign(black_box(&f.sk), MSG, CTX))
                        .unwrap()
                        .unwrap();
                }),
                Box::new(move || {
                    assert_eq!(t.verify(black_box(&f.pk), MSG, CTX, &f.sig), Some(true));
                }),
            ],
        });
    }
    if let Some(o) = common::native_oracle() {
        let o: &'a dyn mldsa_diff::Oracle = Box::leak(o);
        let f = fixture;
        let m = Msg::Pure { msg: MSG, ctx: CTX };
        out.push(Subject {
            name: mldsa_native::NATIVE_NAME.to_string(),
            ops: [
                Box::new(move || {
                    black_box(o.keygen(p, black_box(&f.xi)).unwrap().unwrap());
                }),
                Box::new(move || {
                    black_box(
                        o.sign(p, Key::expanded(black_box(&f.sk)), m, &f.rnd)
                            .unwrap()
                            .unwrap(),
                    );
                }),
                Box::new(move || {
                    o.verify(p, black_box(&f.pk), m, &f.sig).unwrap().unwrap();
                }),
            ],
        });
    }
    out
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> ExitCode {
    let (mut sets, mut rounds) = (vec![ML_DSA_44, ML_DSA_65, ML_DSA_87], 15usize);
    let mut list_above: Option<f64> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--sets" => {
                let Some(v) = args.next() else {
                    eprintln!("placement: --sets needs a value (e.g. 44,87)");
                    return ExitCode::from(2);
                };
                let mut chosen = Vec::new();
                for s in v.split(',') {
                    match s {
                        "44" => chosen.push(ML_DSA_44),
                        "65" => chosen.push(ML_DSA_65),
                        "87" => chosen.push(ML_DSA_87),
                        other => {
                            eprintln!("placement: --sets: no parameter set {other:?} (44, 65, 87)");
                            return ExitCode::from(2);
                        }
                    }
                }
                sets = chosen;
            }
            "--rounds" => match args.next().and_then(|v| v.parse().ok()).filter(|&n| n > 0) {
                Some(n) => rounds = n,
                None => {
                    eprintln!("placement: --rounds needs a positive count");
                    return ExitCode::from(2);
                }
            },
            "--list-above" => match args
                .next()
                .and_then(|v| v.parse().ok())
                .filter(|&p: &f64| p > 0.0)
            {
                Some(p) => list_above = Some(p),
                None => {
                    eprintln!("placement: --list-above needs a positive percentage");
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!(
                    "placement: unknown argument {other:?} (--sets 44,65,87, --rounds N, --list-above PCT)"
                );
                return ExitCode::from(2);
            }
        }
    }
    if let Err(e) = mldsa_diff::rng::require_scripting() {
        eprintln!("placement: {e}");
        return ExitCode::FAILURE;
    }
    println!(
        "{PLACEMENTS} stack placements 16 bytes apart, fastest of {rounds} rounds each; \
         times in µs\n"
    );
    println!("| operation | implementation | median | slowest placement | above the median |");
    println!("|---|---|---|---|---|");
    for p in &sets {
        let fixture = Fixture::new(p);
        let mut subjects = subjects(p, &fixture);
        for (op, name) in ["keygen", "sign", "verify"].iter().enumerate() {
            // About half a millisecond per timing.
            let iters = if op == 1 { 4 } else { 20 };
            let mut best = vec![vec![f64::MAX; PLACEMENTS]; subjects.len()];
            for _ in 0..rounds {
                for k in 0..PLACEMENTS {
                    for (times, subject) in best.iter_mut().zip(subjects.iter_mut()) {
                        times[k] = times[k].min(at(k, iters, &mut *subject.ops[op]));
                    }
                }
            }
            for (s, subject) in subjects.iter().enumerate() {
                let (worst_at, worst) = best[s]
                    .iter()
                    .copied()
                    .enumerate()
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .expect("256 placements");
                let mid = median(&mut best[s].clone());
                if let Some(pct) = list_above {
                    // Every placement more than pct% above the median: a window of them
                    // repeating every 4 KiB is 4K aliasing against a fixed-address object.
                    let slow: Vec<String> = (best[s].iter().enumerate())
                        .filter(|&(_, &t)| t > mid * (1.0 + pct / 100.0))
                        .map(|(k, t)| {
                            let bytes = 256 * (k / 16) + 16 * (k % 16);
                            format!("+{bytes}: {:.0}%", 100.0 * (t / mid - 1.0))
                        })
                        .collect();
                    eprintln!(
                        "{name}/{} {}: {} placements above {pct}%: {}",
                        p.name,
                        subject.name,
                        slow.len(),
                        slow.join(", ")
                    );
                }
                println!(
                    "| {name}/{} | {} | {:.2} | {:.2} (+{} bytes) | {:.1}% |",
                    p.name,
                    subject.name,
                    mid / 1000.0,
                    worst / 1000.0,
                    256 * (worst_at / 16) + 16 * (worst_at % 16),
                    100.0 * (worst / mid - 1.0)
                );
            }
        }
    }
    ExitCode::SUCCESS
}
