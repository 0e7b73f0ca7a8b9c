//! The crafted verify cases, as data: each [`Rule`] names the FIPS 204 rule it tests, the
//! verdict FIPS 204 demands, and (for an invalid case) the one verifier deviation under which
//! it would be accepted — so the case is valid except for exactly that rule.
//!
//! Every rule-breaking case uses a degenerate public key, rho || t1 with t1 = 0: then c t1 2^d
//! = 0 whatever c is, w' = A z, and the crafter can choose z and the hints freely and still
//! compute the honest c~ = H(mu || w1Encode(UseHint(h, A z))) without any secret. With z = 0,
//! w' = 0 and every hinted coefficient is UseHint(1, r) at r0 = 0. The last rules are valid
//! cases at the extremes of the arithmetic, t1 at 0 and 2^10 - 1 ([`super::extreme`]).

use super::spec::{self, Leniency, Poly};
use crate::source::{Drawn, Source};
use mldsa::Params;

/// No deviation: FIPS 204.
pub const FIPS: Leniency = Leniency {
    no_z_bound: false,
    use_hint_zero_up: false,
    hint_order: false,
    hint_padding: false,
    hint_count: false,
    ctilde_first_32: false,
    ctx_length: false,
};

/// A crafted (public key, message, context, signature).
#[derive(Clone, Debug, Default)]
pub struct Crafted {
    /// rho || t1 with t1 = 0.
    pub pk: Vec<u8>,
    /// The message.
    pub msg: Vec<u8>,
    /// The context.
    pub ctx: Vec<u8>,
    /// The signature.
    pub sig: Vec<u8>,
    /// What was chosen (position, value), for the report.
    pub detail: String,
}

/// One FIPS 204 rule a crafted case tests.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// What the case is.
    pub name: &'static str,
    /// Whether FIPS 204 demands acceptance.
    pub accept: bool,
    /// For an invalid case: the deviation under which the model verifier accepts it (the
    /// rule it breaks); `None` for a valid case. `ctilde_first_32` reaches only sets whose
    /// c~ is longer than 32 bytes.
    pub breaks: Option<Leniency>,
    build: Build,
}

impl Rule {
    /// Builds one case of this rule from `src`.
    pub fn build(&self, p: &Params, src: &mut dyn Source) -> Drawn<Crafted> {
        (self.build)(p, src)
    }
}

type Build = fn(&Params, &mut dyn Source) -> Drawn<Crafted>;

/// A case FIPS 204 accepts.
const fn valid(name: &'static str, build: Build) -> Rule {
    Rule {
        name,
        accept: true,
        breaks: None,
        build,
    }
}

/// A case that breaks exactly the rule `lenient` drops.
const fn breaks(name: &'static str, lenient: Leniency, build: Build) -> Rule {
    Rule {
        name,
        accept: false,
        breaks: Some(lenient),
        build,
    }
}

macro_rules! lenient {
    ($field:ident) => {
        Leniency {
            $field: true,
            ..FIPS
        }
    };
}

/// Every rule, in the order of the edge cases (case i < RULES.len() is rule i).
#[rustfmt::skip]
pub static RULES: [Rule; 28] = [
    valid("z = 0, no hints (w' = 0)", |p, s| zero_z(p, s, false)),
    valid("use_hint(1, r0 = 0): z = 0 with hints, each hinted w1 coefficient is m - 1", |p, s| zero_z(p, s, true)),
    valid("a z coefficient at +(gamma1 - beta - 1), the largest valid", |p, s| z_at(p, s, Bound::Inside, 1)),
    valid("a z coefficient at -(gamma1 - beta - 1)", |p, s| z_at(p, s, Bound::Inside, -1)),
    valid("every z coefficient at +-(gamma1 - beta - 1)", all_z_at_bound),
    valid("exactly omega hints, over the rows", |p, s| hint_layout(p, s, Layout::Omega)),
    valid("all omega hints in one row", |p, s| hint_layout(p, s, Layout::OneRow)),
    valid("a row with no hints between rows with hints", |p, s| hint_layout(p, s, Layout::EmptyRow)),
    valid("each row's first hint index below the previous row's last", |p, s| hint_layout(p, s, Layout::Restart)),
    valid("random z and hints (use_hint on spread-out r0)", |p, s| hint_layout(p, s, Layout::Random)),
    valid("a context of 255 bytes", |p, s| message(p, s, Message::Ctx255)),
    valid("an empty message and context", |p, s| message(p, s, Message::Empty)),
    valid("a long message (4-16 KiB)", |p, s| message(p, s, Message::Long)),
    breaks("a z coefficient at +(gamma1 - beta)", lenient!(no_z_bound), |p, s| z_at(p, s, Bound::At, 1)),
    breaks("a z coefficient at -(gamma1 - beta)", lenient!(no_z_bound), |p, s| z_at(p, s, Bound::At, -1)),
    breaks("a z coefficient in (gamma1 - beta, gamma1], up to the largest encodable", lenient!(no_z_bound), |p, s| z_at(p, s, Bound::Beyond, 1)),
    breaks("a z coefficient in [-gamma1 + 1, -(gamma1 - beta))", lenient!(no_z_bound), |p, s| z_at(p, s, Bound::Beyond, -1)),
    breaks("the last row's hint count is omega + 1 (read on, the first count byte is its last index)", lenient!(hint_count), count_above_omega),
    breaks("hint counts decreasing (a row's count below the previous one)", lenient!(hint_count), counts_decreasing),
    breaks("a hint index repeated within a row", lenient!(hint_order), |p, s| misordered(p, s, true)),
    breaks("two hint indices of a row out of order", lenient!(hint_order), |p, s| misordered(p, s, false)),
    breaks("a nonzero byte after the last hint index", lenient!(hint_padding), padding),
    breaks("c~ that differs from the honest one only in its last byte", lenient!(ctilde_first_32), ctilde_last_byte),
    breaks("a context of 256 bytes (c~ over its length mod 256)", lenient!(ctx_length), |p, s| message(p, s, Message::Ctx256)),
    valid("t1 = 2^10 - 1 everywhere (t1 2^d = q - 1), z = 0: w' is c t1 2^d alone", |p, s| extreme(p, s, T1::AllMax, Z::Zero)),
    valid("t1 = 2^10 - 1 everywhere, every z coefficient at +-(gamma1 - beta - 1)", |p, s| extreme(p, s, T1::AllMax, Z::AllAtBound)),
    valid("t1 coefficients 0 or 2^10 - 1 at random, every z coefficient at +-(gamma1 - beta - 1)", |p, s| extreme(p, s, T1::Mixed, Z::AllAtBound)),
    valid("t1 = 2^10 - 1 everywhere, z steered (6 coefficients per polynomial at +-(gamma1 - beta - 1)) to drive one row's unreduced NTT-domain sum of A-hat o NTT(z) far from 0", |p, s| extreme(p, s, T1::AllMax, Z::Steered)),
];

#[derive(Clone, Copy)]
enum T1 {
    /// Every coefficient 2^10 - 1.
    AllMax,
    /// Each coefficient 0 or 2^10 - 1.
    Mixed,
}

#[derive(Clone, Copy)]
enum Z {
    Zero,
    /// Every coefficient at +-(gamma1 - beta - 1).
    AllAtBound,
    /// [`super::extreme::steered_z`] for a random row.
    Steered,
}

/// A valid case with t1 at its extremes ([`super::extreme`]): rho drawn again while more
/// than omega hints would be needed (with z = 0 none ever is).
fn extreme(p: &Params, src: &mut dyn Source, t1: T1, z: Z) -> Drawn<Crafted> {
    let mut plan = Plan::new(p, src)?;
    let t1: Vec<Poly> = match t1 {
        T1::AllMax => vec![[1023; 256]; p.k],
        T1::Mixed => {
            let bits = src.bytes(p.k * 32)?;
            (0..p.k)
                .map(|r| {
                    core::array::from_fn(|i| (spec::signed(&bits, r * 256 + i, 1) + 1) / 2 * 1023)
                })
                .collect()
        }
    };
    let m_prime = spec::pure_m_prime(&plan.msg, &plan.ctx, FIPS)
        .expect("a crafted context of at most 255 bytes");
    for attempt in 0..16 {
        let row = src.int_in(0, p.k as i64 - 1)? as usize;
        let zs: Vec<Poly> = match z {
            _ if attempt == 15 => vec![[0; 256]; p.l],
            Z::Zero => vec![[0; 256]; p.l],
            Z::AllAtBound => {
                let signs = src.bytes(p.l * 32)?;
                let b = bound(p) - 1;
                (0..p.l)
                    .map(|j| core::array::from_fn(|i| spec::signed(&signs, j * 256 + i, b)))
                    .collect()
            }
            Z::Steered => super::extreme::steered_z(p, &plan.rho, row, 6),
        };
        if let Some((pk, sig)) = super::extreme::sign(p, &plan.rho, &t1, &zs, &m_prime) {
            let ones = t1.iter().flatten().filter(|&&c| c == 1023).count();
            let sum = super::extreme::row_sum_in_q(p, &plan.rho, row, &zs);
            return Ok(Crafted {
                pk,
                msg: plan.msg,
                ctx: plan.ctx,
                sig,
                detail: format!(
                    "{ones} of {} t1 coefficients 2^10 - 1; row {row}'s NTT-domain sum of A-hat o NTT(z): {sum:.1} q",
                    p.k * 256
                ),
            });
        }
        plan.rho = src.bytes(32)?;
    }
    unreachable!("with z = 0 no hint is needed")
}

/// What the crafter signs: everything but c~, which it computes.
struct Plan {
    rho: Vec<u8>,
    z: Vec<Poly>,
    /// Per row, the hint indices in encoding order (repeats and disorder allowed).
    rows: Vec<Vec<u8>>,
    /// The count bytes, if not the running totals of `rows`.
    counts: Option<Vec<u8>>,
    /// The hint set c~ is computed over, if not the union of `rows` per row.
    decoded: Option<Vec<[bool; 256]>>,
    /// Bytes written into the index field after the rows (padding, a lenient row's
    /// indices).
    extra: Vec<(usize, u8)>,
    msg: Vec<u8>,
    ctx: Vec<u8>,
    detail: String,
}

impl Plan {
    fn new(p: &Params, src: &mut dyn Source) -> Drawn<Plan> {
        let msg_len = src.int_in(0, 64)? as usize;
        let ctx_len = src.int_in(0, 16)? as usize;
        Ok(Plan {
            rho: src.bytes(32)?,
            z: vec![[0; 256]; p.l],
            rows: vec![Vec::new(); p.k],
            counts: None,
            decoded: None,
            extra: Vec::new(),
            msg: src.bytes(msg_len)?,
            ctx: src.bytes(ctx_len)?,
            detail: String::new(),
        })
    }

    /// [`Plan::new`] with z's every coefficient in [-b, b], b = gamma1 - beta - 1, from a
    /// 32-byte seed of `src`.
    fn random_z(p: &Params, src: &mut dyn Source) -> Drawn<Plan> {
        let mut plan = Plan::new(p, src)?;
        let b = bound(p) - 1;
        let mut stream = vec![0u8; p.l * 256 * 4];
        spec::h256(&[&src.bytes(32)?], &mut stream);
        for (c, x) in plan.z.iter_mut().flatten().zip(stream.chunks(4)) {
            *c = i64::from(u32::from_le_bytes(x.try_into().expect("4 bytes"))) % (2 * b + 1) - b;
        }
        Ok(plan)
    }

    /// The hint set of each row: its indices as a set.
    fn row_sets(&self) -> Vec<[bool; 256]> {
        self.rows
            .iter()
            .map(|r| {
                let mut h = [false; 256];
                for &i in r {
                    h[usize::from(i)] = true;
                }
                h
            })
            .collect()
    }

    fn finish(mut self, p: &Params, m_prime: Option<Vec<u8>>) -> Crafted {
        let mut pk = self.rho.clone();
        pk.resize(p.pk_bytes(), 0);
        let m_prime = m_prime.unwrap_or_else(|| {
            spec::pure_m_prime(&self.msg, &self.ctx, FIPS)
                .expect("a crafted context of at most 255 bytes")
        });
        let zero_t1 = vec![[0; 256]; p.k];
        // With t1 = 0, c does not enter w'.
        let w = spec::w_approx(p, &self.rho, &zero_t1, &[0; 256], &self.z);
        let decoded = self.decoded.take().unwrap_or_else(|| self.row_sets());
        let ctilde = spec::challenge(p, &spec::mu(&pk, &m_prime), &decoded, &w, FIPS);
        let mut y = spec::hint_pack(p, &self.rows);
        if let Some(c) = &self.counts {
            y[p.omega..].copy_from_slice(c);
        }
        for &(i, v) in &self.extra {
            y[i] = v;
        }
        let sig = [ctilde, spec::pack_z(p, &self.z), y].concat();
        Crafted {
            pk,
            msg: self.msg,
            ctx: self.ctx,
            sig,
            detail: self.detail,
        }
    }
}

/// `n` distinct indices in [0, 256), increasing, drawn from `src`.
fn positions(src: &mut dyn Source, n: usize) -> Drawn<Vec<u8>> {
    let mut taken = [false; 256];
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        let mut i = src.int_in(0, 255)? as usize;
        while taken[i] {
            i = (i + 1) % 256;
        }
        taken[i] = true;
        v.push(i as u8);
    }
    v.sort_unstable();
    Ok(v)
}

/// Splits `total` hints over the rows at random.
fn spread(p: &Params, src: &mut dyn Source, total: usize) -> Drawn<Vec<usize>> {
    let mut per = vec![0; p.k];
    for _ in 0..total {
        per[src.int_in(0, p.k as i64 - 1)? as usize] += 1;
    }
    Ok(per)
}

fn fill_rows(plan: &mut Plan, src: &mut dyn Source, per: &[usize]) -> Drawn<()> {
    for (r, &n) in per.iter().enumerate() {
        plan.rows[r] = positions(src, n)?;
    }
    Ok(())
}

fn bound(p: &Params) -> i64 {
    i64::from(p.gamma1.value() - p.beta)
}

fn zero_z(p: &Params, src: &mut dyn Source, hints: bool) -> Drawn<Crafted> {
    let mut plan = Plan::new(p, src)?;
    if hints {
        let total = src.int_in(1, p.omega as i64)? as usize;
        let per = spread(p, src, total)?;
        fill_rows(&mut plan, src, &per)?;
        plan.detail = format!("{total} hints at r = 0, rows {per:?}");
    }
    Ok(plan.finish(p, None))
}

#[derive(Clone, Copy)]
enum Bound {
    /// +-(gamma1 - beta - 1).
    Inside,
    /// +-(gamma1 - beta).
    At,
    /// Beyond the bound, to the end of the encodable range.
    Beyond,
}

/// A few random hints (r0 is spread out, so none is at r0 = 0 but by a 2^-17 chance).
fn few_hints(p: &Params, plan: &mut Plan, src: &mut dyn Source) -> Drawn<()> {
    let total = src.int_in(0, 4)? as usize;
    let per = spread(p, src, total)?;
    fill_rows(plan, src, &per)
}

fn z_at(p: &Params, src: &mut dyn Source, where_: Bound, sign: i64) -> Drawn<Crafted> {
    let mut plan = Plan::random_z(p, src)?;
    let b = bound(p);
    let poly = src.int_in(0, p.l as i64 - 1)? as usize;
    let coeff = match src.int_in(0, 3)? {
        0 => 0,
        1 => 255,
        _ => src.int_in(0, 255)? as usize,
    };
    let g1 = i64::from(p.gamma1.value());
    let v = match (where_, sign > 0) {
        (Bound::Inside, _) => sign * (b - 1),
        (Bound::At, _) => sign * b,
        (Bound::Beyond, true) => src.int_in(b + 1, g1)?,
        (Bound::Beyond, false) => src.int_in(-g1 + 1, -b - 1)?,
    };
    plan.z[poly][coeff] = v;
    few_hints(p, &mut plan, src)?;
    plan.detail = format!("z[{poly}][{coeff}] = {v}");
    Ok(plan.finish(p, None))
}

fn all_z_at_bound(p: &Params, src: &mut dyn Source) -> Drawn<Crafted> {
    let mut plan = Plan::new(p, src)?;
    let b = bound(p) - 1;
    let signs = src.bytes(p.l * 32)?;
    for (i, c) in plan.z.iter_mut().flatten().enumerate() {
        *c = spec::signed(&signs, i, b);
    }
    few_hints(p, &mut plan, src)?;
    Ok(plan.finish(p, None))
}

#[derive(Clone, Copy)]
enum Layout {
    Omega,
    OneRow,
    EmptyRow,
    Restart,
    Random,
}

fn hint_layout(p: &Params, src: &mut dyn Source, layout: Layout) -> Drawn<Crafted> {
    let mut plan = Plan::random_z(p, src)?;
    let per = match layout {
        Layout::Omega => spread(p, src, p.omega)?,
        Layout::OneRow => {
            let mut per = vec![0; p.k];
            per[src.int_in(0, p.k as i64 - 1)? as usize] = p.omega;
            per
        }
        Layout::EmptyRow => {
            let empty = src.int_in(1, p.k as i64 - 2)? as usize;
            let mut per = vec![0; p.k];
            for (r, n) in per.iter_mut().enumerate() {
                if r != empty {
                    *n = src.int_in(1, (p.omega / p.k) as i64)? as usize;
                }
            }
            per
        }
        Layout::Restart => {
            // Row r: indices 10 + r and 200 + r, so the next row starts below this one's last.
            for (r, row) in plan.rows.iter_mut().enumerate() {
                *row = vec![10 + r as u8, 200 + r as u8];
            }
            Vec::new()
        }
        Layout::Random => {
            let total = src.int_in(0, p.omega as i64)? as usize;
            spread(p, src, total)?
        }
    };
    fill_rows(&mut plan, src, &per)?;
    plan.detail = format!(
        "hints per row {:?}",
        plan.rows.iter().map(Vec::len).collect::<Vec<_>>()
    );
    Ok(plan.finish(p, None))
}

#[derive(Clone, Copy)]
enum Message {
    Ctx255,
    Ctx256,
    Empty,
    Long,
}

fn message(p: &Params, src: &mut dyn Source, m: Message) -> Drawn<Crafted> {
    let mut plan = Plan::random_z(p, src)?;
    few_hints(p, &mut plan, src)?;
    let mut m_prime = None;
    match m {
        Message::Ctx255 => plan.ctx = src.bytes(255)?,
        Message::Empty => (plan.msg, plan.ctx) = (Vec::new(), Vec::new()),
        Message::Long => {
            plan.msg = vec![0; src.int_in(4096, 16384)? as usize];
            spec::h256(&[&src.bytes(32)?], &mut plan.msg);
        }
        Message::Ctx256 => {
            plan.ctx = src.bytes(256)?;
            m_prime = spec::pure_m_prime(&plan.msg, &plan.ctx, lenient!(ctx_length));
        }
    }
    plan.detail = format!(
        "message {} bytes, context {} bytes",
        plan.msg.len(),
        plan.ctx.len()
    );
    Ok(plan.finish(p, m_prime))
}

fn count_above_omega(p: &Params, src: &mut dyn Source) -> Drawn<Crafted> {
    // Row 0 holds c0 = ceil(omega / 2) hints; the middle rows none; the last row's indices
    // are 0, 1, ..., omega - c0 - 1 and its count omega + 1, so a decoder that does not
    // check the count reads y[omega] = c0 as one more index (greater than the one before).
    let mut plan = Plan::random_z(p, src)?;
    let c0 = p.omega - p.omega / 2;
    plan.rows[0] = positions(src, c0)?;
    plan.rows[p.k - 1] = (0..(p.omega - c0) as u8).collect();
    let mut counts = vec![c0 as u8; p.k];
    counts[p.k - 1] = p.omega as u8 + 1;
    let mut decoded = plan.row_sets();
    decoded[p.k - 1][c0] = true;
    plan.counts = Some(counts);
    plan.decoded = Some(decoded);
    plan.detail = format!("row 0: {c0} hints; last row's count {}", p.omega + 1);
    Ok(plan.finish(p, None))
}

fn counts_decreasing(p: &Params, src: &mut dyn Source) -> Drawn<Crafted> {
    // Row 0: a hints; row 1's count a - 1 (below row 0's); row 2 on: hints after a. A decoder
    // without the count check reads no index for row 1 and goes on from a.
    let mut plan = Plan::random_z(p, src)?;
    let a = src.int_in(2, (p.omega / 2) as i64)? as usize;
    plan.rows[0] = positions(src, a)?;
    let mut counts = Vec::with_capacity(p.k);
    counts.push(a as u8);
    counts.push(a as u8 - 1);
    let mut at = a;
    for r in 2..p.k {
        let n = src.int_in(0, 3)? as usize;
        plan.rows[r] = positions(src, n)?;
        at += n;
        counts.push(at as u8);
    }
    plan.counts = Some(counts);
    plan.detail = format!("row 0: {a} hints, row 1's count {}", a - 1);
    Ok(plan.finish(p, None))
}

fn misordered(p: &Params, src: &mut dyn Source, repeat: bool) -> Drawn<Crafted> {
    // The decoded set (what c~ is computed over) is the row's indices as a set, which a
    // decoder without the order check also finds.
    let mut plan = Plan::random_z(p, src)?;
    let row = src.int_in(0, p.k as i64 - 1)? as usize;
    let n = src.int_in(2, 6)? as usize;
    let mut idx = positions(src, n)?;
    let at = src.int_in(0, n as i64 - 2)? as usize;
    if repeat {
        idx.insert(at + 1, idx[at]);
    } else {
        idx.swap(at, at + 1);
    }
    plan.detail = format!("row {row} indices {idx:?}");
    plan.rows[row] = idx;
    Ok(plan.finish(p, None))
}

fn padding(p: &Params, src: &mut dyn Source) -> Drawn<Crafted> {
    let mut plan = Plan::random_z(p, src)?;
    let total = src.int_in(0, p.omega as i64 - 1)? as usize;
    let per = spread(p, src, total)?;
    fill_rows(&mut plan, src, &per)?;
    let at = src.int_in(total as i64, p.omega as i64 - 1)? as usize;
    let v = src.int_in(1, 255)? as u8;
    plan.extra.push((at, v));
    plan.detail = format!("{total} hints, index byte {at} = {v}");
    Ok(plan.finish(p, None))
}

fn ctilde_last_byte(p: &Params, src: &mut dyn Source) -> Drawn<Crafted> {
    let mut plan = Plan::random_z(p, src)?;
    few_hints(p, &mut plan, src)?;
    let x = src.int_in(1, 255)? as u8;
    let mut c = plan.finish(p, None);
    c.sig[p.ctilde_bytes() - 1] ^= x;
    c.detail = format!("c~[{}] ^= {x:#04x}", p.ctilde_bytes() - 1);
    Ok(c)
}
