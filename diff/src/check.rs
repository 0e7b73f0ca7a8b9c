//! Every check the harness runs: one per kernel (and parameter-dependent variant) and one
//! per end-to-end operation and parameter set; their contracts, and their input generators.
//!
//! Kernel inputs are drawn from the kernel's written contract in
//! [`mldsa::backend::contract`] — the same constants the library's debug assertions check —
//! with the contract's edge values over-represented.

use crate::source::{Exhausted, Source};
use mldsa::backend::contract::{self, Bounds, Compare};
use mldsa::params::{
    ALL_PARAMS, Eta, Gamma1, Gamma2, ML_DSA_44, ML_DSA_65, ML_DSA_87, N, Params, Q,
};
use serde::{Deserialize, Serialize};

/// One check: a kernel variant, or an end-to-end operation for one parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Check {
    Ntt,
    InvnttTomont,
    Pointwise,
    /// L-fold accumulate with the l of this parameter set.
    PointwiseAcc(Params),
    Reduce,
    Caddq,
    Add,
    Sub,
    Shiftl,
    Power2Round,
    Decompose(Gamma2),
    MakeHint(Gamma2),
    UseHint(Gamma2),
    Chknorm,
    RejUniform,
    RejEta(Eta),
    PolyUniform,
    PolyUniformEta(Eta),
    PolyUniformGamma1(Gamma1),
    Challenge(Params),
    ExpandA(Params),
    PackT1,
    UnpackT1,
    PackT0,
    UnpackT0,
    PackEta(Eta),
    UnpackEta(Eta),
    PackZ(Gamma1),
    UnpackZ(Gamma1),
    PackW1(Gamma2),
    PackHint(Params),
    UnpackHint(Params),
    Keccak,
    KeccakX4,
    KeccakX4x2,
    Keygen(Params),
    Sign(Params),
    Verify(Params),
    /// Signing with an expanded key whose s1/s2 leave [-eta, eta]: a known difference.
    SignMalformedKey(Params),
}

fn set_no(p: &Params) -> &'static str {
    &p.name[7..]
}

fn g2_no(g: Gamma2) -> &'static str {
    match g {
        Gamma2::QMinus1Over88 => "88",
        Gamma2::QMinus1Over32 => "32",
    }
}

fn g1_no(g: Gamma1) -> &'static str {
    match g {
        Gamma1::Pow17 => "17",
        Gamma1::Pow19 => "19",
    }
}

/// The parameter set whose C symbols implement a parameter value.
fn set_for_g2(g: Gamma2) -> Params {
    if g == Gamma2::QMinus1Over88 {
        ML_DSA_44
    } else {
        ML_DSA_65
    }
}
fn set_for_eta(e: Eta) -> Params {
    if e == Eta::Two { ML_DSA_44 } else { ML_DSA_65 }
}
fn set_for_g1(g: Gamma1) -> Params {
    if g == Gamma1::Pow17 {
        ML_DSA_44
    } else {
        ML_DSA_65
    }
}

impl Check {
    /// Every check, kernels first.
    pub fn all() -> Vec<Check> {
        use Check::*;
        let mut v = vec![Ntt, InvnttTomont, Pointwise];
        v.extend(ALL_PARAMS.map(PointwiseAcc));
        v.extend([Reduce, Caddq, Add, Sub, Shiftl, Power2Round]);
        for g in [Gamma2::QMinus1Over88, Gamma2::QMinus1Over32] {
            v.extend([Decompose(g), MakeHint(g), UseHint(g)]);
        }
        v.extend([
            Chknorm,
            RejUniform,
            RejEta(Eta::Two),
            RejEta(Eta::Four),
            PolyUniform,
        ]);
        v.extend([PolyUniformEta(Eta::Two), PolyUniformEta(Eta::Four)]);
        v.extend([
            PolyUniformGamma1(Gamma1::Pow17),
            PolyUniformGamma1(Gamma1::Pow19),
        ]);
        v.extend(ALL_PARAMS.map(Challenge));
        v.extend(ALL_PARAMS.map(ExpandA));
        v.extend([PackT1, UnpackT1, PackT0, UnpackT0]);
        for e in [Eta::Two, Eta::Four] {
            v.extend([PackEta(e), UnpackEta(e)]);
        }
        for g in [Gamma1::Pow17, Gamma1::Pow19] {
            v.extend([PackZ(g), UnpackZ(g)]);
        }
        v.extend([PackW1(Gamma2::QMinus1Over88), PackW1(Gamma2::QMinus1Over32)]);
        v.extend(ALL_PARAMS.map(PackHint));
        v.extend(ALL_PARAMS.map(UnpackHint));
        v.extend([Keccak, KeccakX4, KeccakX4x2]);
        for p in ALL_PARAMS {
            v.extend([Keygen(p), Sign(p), Verify(p), SignMalformedKey(p)]);
        }
        v
    }

    /// The check's name, as used on the command line, in reports and as fuzz target name.
    pub fn name(&self) -> String {
        use Check::*;
        match *self {
            Ntt => "ntt".into(),
            InvnttTomont => "invntt_tomont".into(),
            Pointwise => "pointwise_montgomery".into(),
            PointwiseAcc(p) => format!("pointwise_acc_l{}", p.l),
            Reduce => "reduce".into(),
            Caddq => "caddq".into(),
            Add => "add".into(),
            Sub => "sub".into(),
            Shiftl => "shiftl".into(),
            Power2Round => "power2round".into(),
            Decompose(g) => format!("decompose_{}", g2_no(g)),
            MakeHint(g) => format!("make_hint_{}", g2_no(g)),
            UseHint(g) => format!("use_hint_{}", g2_no(g)),
            Chknorm => "chknorm".into(),
            RejUniform => "rej_uniform".into(),
            RejEta(e) => format!("rej_eta{}", e.value()),
            PolyUniform => "poly_uniform".into(),
            PolyUniformEta(e) => format!("poly_uniform_eta{}", e.value()),
            PolyUniformGamma1(g) => format!("poly_uniform_gamma1_{}", g1_no(g)),
            Challenge(p) => format!("challenge_{}", set_no(&p)),
            ExpandA(p) => format!("expand_a_{}", set_no(&p)),
            PackT1 => "pack_t1".into(),
            UnpackT1 => "unpack_t1".into(),
            PackT0 => "pack_t0".into(),
            UnpackT0 => "unpack_t0".into(),
            PackEta(e) => format!("pack_eta{}", e.value()),
            UnpackEta(e) => format!("unpack_eta{}", e.value()),
            PackZ(g) => format!("pack_z{}", g1_no(g)),
            UnpackZ(g) => format!("unpack_z{}", g1_no(g)),
            PackW1(g) => format!("pack_w1_{}", g2_no(g)),
            PackHint(p) => format!("pack_hint_{}", set_no(&p)),
            UnpackHint(p) => format!("unpack_hint_{}", set_no(&p)),
            Keccak => "keccak_f1600".into(),
            KeccakX4 => "keccak_f1600_x4".into(),
            KeccakX4x2 => "keccak_f1600_x4x2".into(),
            Keygen(p) => format!("keygen_{}", set_no(&p)),
            Sign(p) => format!("sign_{}", set_no(&p)),
            Verify(p) => format!("verify_{}", set_no(&p)),
            SignMalformedKey(p) => format!("sign_malformed_sk_{}", set_no(&p)),
        }
    }

    /// Looks a check up by name.
    pub fn from_name(name: &str) -> Option<Check> {
        Check::all().into_iter().find(|c| c.name() == name)
    }

    /// End-to-end (whole-scheme) rather than kernel.
    pub fn is_end_to_end(&self) -> bool {
        matches!(
            self,
            Check::Keygen(_) | Check::Sign(_) | Check::Verify(_) | Check::SignMalformedKey(_)
        )
    }

    /// The parameter set whose values (and C symbols) this check uses.
    pub fn params(&self) -> Params {
        use Check::*;
        match *self {
            PointwiseAcc(p) | Challenge(p) | ExpandA(p) | PackHint(p) | UnpackHint(p)
            | Keygen(p) | Sign(p) | Verify(p) | SignMalformedKey(p) => p,
            Decompose(g) | MakeHint(g) | UseHint(g) | PackW1(g) => set_for_g2(g),
            RejEta(e) | PolyUniformEta(e) | PackEta(e) | UnpackEta(e) => set_for_eta(e),
            PolyUniformGamma1(g) | PackZ(g) | UnpackZ(g) => set_for_g1(g),
            _ => ML_DSA_65,
        }
    }

    /// Whether any of `sets` uses this check (parameter-free kernels: always).
    pub fn used_by(&self, sets: &[Params]) -> bool {
        use Check::*;
        sets.iter().any(|s| match *self {
            PointwiseAcc(p) | Challenge(p) | ExpandA(p) | PackHint(p) | UnpackHint(p)
            | Keygen(p) | Sign(p) | Verify(p) | SignMalformedKey(p) => p == *s,
            Decompose(g) | MakeHint(g) | UseHint(g) | PackW1(g) => s.gamma2 == g,
            RejEta(e) | PolyUniformEta(e) | PackEta(e) | UnpackEta(e) => s.eta == e,
            PolyUniformGamma1(g) | PackZ(g) | UnpackZ(g) => s.gamma1 == g,
            _ => true,
        })
    }

    /// The library contract this kernel check draws its inputs from, if any.
    pub fn contract(&self) -> Option<contract::Contract> {
        use Check::*;
        Some(match *self {
            Ntt => contract::NTT,
            InvnttTomont => contract::INVNTT_TOMONT,
            Pointwise => contract::POINTWISE,
            PointwiseAcc(_) => contract::POINTWISE_ACC,
            Reduce => contract::REDUCE,
            Caddq => contract::CADDQ,
            Add => contract::ADD,
            Sub => contract::SUB,
            Shiftl => contract::SHIFTL,
            Power2Round => contract::POWER2ROUND,
            Decompose(g) => contract::decompose(g),
            MakeHint(g) => contract::make_hint(g),
            UseHint(g) => contract::use_hint(g),
            Chknorm => contract::CHKNORM,
            RejUniform => contract::REJ_UNIFORM,
            RejEta(e) => contract::rej_eta(e),
            PackT1 => contract::PACK_T1,
            UnpackT1 => contract::UNPACK_T1,
            PackT0 => contract::PACK_T0,
            UnpackT0 => contract::UNPACK_T0,
            PackEta(e) => contract::pack_eta(e),
            PackZ(g) | UnpackZ(g) => contract::pack_z(g),
            PackW1(g) => contract::pack_w1(g),
            _ => return None,
        })
    }

    /// How outputs are compared.
    pub fn compare(&self) -> Compare {
        self.contract().map_or(Compare::Exact, |c| c.compare)
    }

    /// One line for `mldsa-diff list`: inputs, outputs, comparison.
    pub fn describe(&self) -> String {
        use Check::*;
        let p = self.params();
        let b = |x: Bounds| format!("[{}, {}]", x.lo, x.hi);
        let by_contract = |c: contract::Contract| {
            let ins: Vec<String> = c
                .input
                .iter()
                .filter(|x| **x != contract::ANY)
                .map(|x| b(*x))
                .collect();
            let outs: Vec<String> = c
                .output
                .iter()
                .filter(|x| **x != contract::ANY)
                .map(|x| b(*x))
                .collect();
            format!(
                "in {} -> out {}; compare {:?}",
                ins.join(", "),
                if outs.is_empty() {
                    "bytes/bool".into()
                } else {
                    outs.join(", ")
                },
                c.compare
            )
        };
        match *self {
            RejUniform => "bytes (whole 3-byte groups, <= 840) -> values in [0, q) and their count; exact".into(),
            RejEta(e) => format!("bytes (<= 272) -> values in [-{0}, {0}] and their count; exact", e.value()),
            UnpackEta(e) => format!("{} bytes -> coefficients and in-range verdict; exact", e.poly_eta_bytes()),
            PolyUniform => "rho (32) || nonce (2) -> RejNTTPoly, [0, q); exact".into(),
            PolyUniformEta(e) => format!("rho' (64) || nonce (2) -> RejBoundedPoly, [-{0}, {0}]; exact", e.value()),
            PolyUniformGamma1(g) => format!("rho'' (64) || nonce (2) -> ExpandMask poly, (-{0}, {0}]; exact", g.value()),
            Challenge(_) => format!("c~ ({} bytes) -> SampleInBall, tau = {}; exact", p.ctilde_bytes(), p.tau),
            ExpandA(_) => format!("rho (32) -> A-hat, {} x {} polys in [0, q); exact in canonical NTT order", p.k, p.l),
            PackHint(_) => format!("{} polys of 0/1, at most {} ones -> {} bytes; exact", p.k, p.omega, p.omega + p.k),
            UnpackHint(_) => format!("{} bytes -> accept/reject (FIPS 204 Alg. 21) and h; exact", p.omega + p.k),
            Keccak => "200-byte state -> Keccak-f[1600]; exact".into(),
            KeccakX4 => "four interleaved states -> Keccak-f[1600] x4; exact".into(),
            KeccakX4x2 => {
                "two sets of four interleaved states -> Keccak-f[1600] x4 on each (a backend \
                 may run them interleaved); exact"
                    .into()
            }
            Keygen(_) => "xi (32) -> pk || sk; byte-identical".into(),
            Sign(_) => "sk, msg, ctx (0..=255), rnd (hedged or zero) -> signature; byte-identical".into(),
            Verify(_) => "pk, msg, ctx, signature (valid or mutated) -> accept/reject; agreement".into(),
            SignMalformedKey(_) => {
                "sk with an s1/s2 coefficient outside [-eta, eta] -> Rust rejects (SecretKeyOutOfRange), \
                 C signs (it does not range-check keys): that exact difference is asserted"
                    .into()
            }
            Chknorm => format!("{}, bound in [0, (q-1)/8] -> bool; exact", by_contract(contract::CHKNORM).split(" ->").next().unwrap_or("")),
            _ => self.contract().map(by_contract).unwrap_or_default(),
        }
    }

    /// How many polynomial inputs drawn from the contract this check takes.
    pub fn poly_inputs(&self) -> usize {
        use Check::*;
        match *self {
            Ntt | InvnttTomont | Reduce | Caddq | Shiftl | Power2Round | Decompose(_) | PackT1
            | PackT0 | PackEta(_) | PackZ(_) | PackW1(_) | Chknorm => 1,
            Pointwise | Add | Sub | MakeHint(_) | UseHint(_) => 2,
            PointwiseAcc(p) => 2 * p.l,
            _ => 0,
        }
    }

    /// The portable kernel whose planted bug (feature `mldsa/planted-bugs`,
    /// `MLDSA_PLANTED_BUG`) this check's fuzz target is measured against.
    pub fn planted_bug(&self) -> &'static str {
        use Check::*;
        match *self {
            Ntt => "ntt",
            InvnttTomont => "invntt_tomont",
            Pointwise => "pointwise_montgomery",
            PointwiseAcc(_) => "pointwise_acc_montgomery",
            Reduce => "reduce",
            Caddq => "caddq",
            Add => "add",
            Sub => "sub",
            Shiftl => "shiftl",
            Power2Round => "power2round",
            Decompose(_) => "decompose",
            MakeHint(_) => "make_hint",
            UseHint(_) => "use_hint",
            Chknorm => "chknorm",
            RejUniform | ExpandA(_) => "rej_uniform",
            // poly_uniform is SHAKE128 then rejection; a rejection bug that needs an output
            // group equal to q sits behind the hash (about one input in 30,000 hits it), so
            // its target is measured against the Keccak bug (rej_uniform's own target and
            // expand_a's find the rejection bug in seconds).
            PolyUniform => "keccak",
            RejEta(_) | PolyUniformEta(_) => "rej_eta",
            PolyUniformGamma1(_) | UnpackZ(_) => "unpack_z",
            Challenge(_) | Keccak | KeccakX4 | KeccakX4x2 => "keccak",
            PackT1 => "pack_t1",
            UnpackT1 => "unpack_t1",
            PackT0 | Keygen(_) => "pack_t0",
            UnpackT0 => "unpack_t0",
            PackEta(_) => "pack_eta",
            UnpackEta(_) => "unpack_eta",
            PackZ(_) | Sign(_) => "pack_z",
            PackW1(_) => "pack_w1",
            PackHint(_) => "pack_hint",
            UnpackHint(_) | Verify(_) => "unpack_hint",
            SignMalformedKey(_) => "unpack_eta_range",
        }
    }

    /// How many deterministic edge cases come before the random ones.
    pub fn edge_cases(&self) -> usize {
        if self.poly_inputs() > 0 {
            EDGE_PATTERNS
        } else {
            3
        }
    }
}

/// Bytes serialised as hex in reports.
mod hexbytes {
    use serde::{Deserialize, Deserializer, Serializer};
    pub(super) fn serialize<S: Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&hex::encode(b))
    }
    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s = String::deserialize(d)?;
        hex::decode(s).map_err(serde::de::Error::custom)
    }
}

/// One input. Kernel checks use `polys`, `bytes` and `scalar`; end-to-end checks use the
/// named byte fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Case {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polys: Vec<Vec<i32>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hexbytes")]
    pub bytes: Vec<u8>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub scalar: i64,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hexbytes")]
    pub pk: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hexbytes")]
    pub sk: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hexbytes")]
    pub msg: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hexbytes")]
    pub ctx: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hexbytes")]
    pub rnd: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "hexbytes")]
    pub sig: Vec<u8>,
    /// For verify cases: what was done to the valid signature (informational).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

fn is_zero(x: &i64) -> bool {
    *x == 0
}

// ---------------------------------------------------------------------------------------
// Generation

/// The `index` that makes [`generate`] draw everything, including the choice of edge case,
/// from its source.
pub const FUZZ: usize = usize::MAX;

const POSITIONS: [usize; 16] = [
    0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 129, 191, 254, 255,
];
/// all-base, all-lo, all-hi, lo/hi alternating both ways, single hi and single lo at each
/// position class, and a ramp.
pub const EDGE_PATTERNS: usize = 5 + 2 * POSITIONS.len() + 1;

fn edge_poly(b: Bounds, pattern: usize) -> Vec<i32> {
    let base = if b.contains(0) { 0 } else { b.lo };
    let mut v = vec![base; N];
    match pattern {
        0 => {}
        1 => v.fill(b.lo),
        2 => v.fill(b.hi),
        3 | 4 => v
            .iter_mut()
            .enumerate()
            .for_each(|(i, x)| *x = if (i + pattern) % 2 == 0 { b.lo } else { b.hi }),
        p if p < 5 + POSITIONS.len() => v[POSITIONS[p - 5]] = b.hi,
        p if p < 5 + 2 * POSITIONS.len() => v[POSITIONS[p - 5 - POSITIONS.len()]] = b.lo,
        _ => {
            let span = i64::from(b.hi) - i64::from(b.lo);
            v.iter_mut()
                .enumerate()
                .for_each(|(i, x)| *x = (i64::from(b.lo) + span * i as i64 / 255) as i32);
        }
    }
    v
}

fn random_poly(src: &mut impl Source, b: Bounds) -> Result<Vec<i32>, Exhausted> {
    (0..N)
        .map(|_| src.int_in(b.lo.into(), b.hi.into()).map(|x| x as i32))
        .collect()
}

/// A coefficient near a multiple of `step` offset by +-`half` (rounding boundaries),
/// clamped into `b`.
fn near_boundary(src: &mut impl Source, b: Bounds, step: i64, half: i64) -> Result<i32, Exhausted> {
    let k = src.int_in(0, i64::from(Q) / step + 1)?;
    let off = src.pick(&[
        -half - 1,
        -half,
        -half + 1,
        half - 1,
        half,
        half + 1,
        -1,
        0,
        1,
    ])?;
    Ok((k * step + off).clamp(b.lo.into(), b.hi.into()) as i32)
}

/// Random polynomial whose coefficients hit rounding boundaries half of the time.
fn boundary_poly(
    src: &mut impl Source,
    b: Bounds,
    step: i64,
    half: i64,
) -> Result<Vec<i32>, Exhausted> {
    (0..N)
        .map(|_| {
            if src.chance(1, 2)? {
                near_boundary(src, b, step, half)
            } else {
                src.int_in(b.lo.into(), b.hi.into()).map(|x| x as i32)
            }
        })
        .collect()
}

/// Builds input number `index` of `check`: the first [`Check::edge_cases`] are fixed edge
/// cases, the rest come from `src`. Fuzz inputs pass [`FUZZ`]: then the first choice drawn
/// from `src` selects an edge case or a random one, so a fuzzer (and a seed corpus) reaches
/// both.
pub fn generate(check: Check, index: usize, src: &mut impl Source) -> Result<Case, Exhausted> {
    use Check::*;
    let index = if index == FUZZ {
        src.int_in(0, check.edge_cases() as i64)? as usize
    } else {
        index
    };
    let edge = index < check.edge_cases();
    let mut case = Case::default();
    let poly_count = check.poly_inputs();
    if poly_count > 0 {
        let c = check.contract().expect("polynomial kernels have contracts");
        let bounds = match check {
            // The second input of make_hint/use_hint has its own bounds; L-fold uses one.
            MakeHint(_) | UseHint(_) => vec![c.input[0], c.input[1]],
            _ => vec![c.input[0]; poly_count],
        };
        for b in bounds {
            let poly = if edge {
                edge_poly(b, index)
            } else {
                match check {
                    Decompose(g) | UseHint(g) if b.hi >= Q - 1 => {
                        boundary_poly(src, b, 2 * i64::from(g.value()), i64::from(g.value()))?
                    }
                    MakeHint(g) if b.lo < 0 => {
                        boundary_poly(src, b, 2 * i64::from(g.value()), i64::from(g.value()))?
                    }
                    Power2Round => boundary_poly(src, b, 1 << 13, 1 << 12)?,
                    _ => random_poly(src, b)?,
                }
            };
            case.polys.push(poly);
        }
        if check == Chknorm {
            // A bound, and coefficients mostly just inside it with the odd one on it.
            let bound = if edge {
                [
                    0,
                    1,
                    95_232 - 78,
                    261_888 - 196,
                    (1 << 17) - 78,
                    (1 << 19) - 196,
                    (Q - 1) / 8,
                ][index % 7]
            } else {
                src.int_in(0, i64::from((Q - 1) / 8))? as i32
            };
            case.scalar = bound.into();
            if !edge {
                let inner = Bounds::centered((bound - 1).max(0));
                case.polys[0] = random_poly(src, inner)?;
                if src.chance(1, 2)? {
                    let i = src.int_in(0, N as i64 - 1)? as usize;
                    case.polys[0][i] = src.pick(&[bound, -bound, bound - 1, 1 - bound])?;
                }
            }
        }
        return Ok(case);
    }
    match check {
        RejUniform => {
            let len = if edge || src.chance(1, 2)? {
                840
            } else {
                3 * src.int_in(0, 280)? as usize
            };
            let mut buf = vec![0u8; len];
            match (edge, index) {
                (true, 0) => {}
                (true, 1) => buf.fill(0xff),
                (true, _) => buf
                    .iter_mut()
                    .enumerate()
                    .for_each(|(i, x)| *x = (i * 37) as u8),
                _ => {
                    src.fill(&mut buf)?;
                    for t in buf.chunks_exact_mut(3) {
                        if src.chance(1, 8)? {
                            let v = if src.chance(1, 2)? {
                                src.int_in(i64::from(Q) - 2, i64::from(Q) + 2)? as u32
                            } else {
                                src.int_in(i64::from(Q) - 3, (1 << 24) - 1)? as u32
                            };
                            t.copy_from_slice(&v.to_le_bytes()[..3]);
                        }
                    }
                }
            }
            case.bytes = buf;
        }
        RejEta(e) => {
            let c_len = if e == Eta::Two { 136 } else { 272 };
            let len = if edge || src.chance(1, 2)? {
                c_len
            } else {
                src.int_in(0, 272)? as usize
            };
            case.bytes = if edge {
                vec![[0x00, 0xff, 0x9f][index]; len]
            } else {
                src.bytes(len)?
            };
        }
        PolyUniform => {
            case.bytes = if edge {
                vec![index as u8; 34]
            } else {
                src.bytes(34)?
            }
        }
        PolyUniformEta(_) | PolyUniformGamma1(_) => {
            case.bytes = if edge {
                vec![index as u8; 66]
            } else {
                src.bytes(66)?
            }
        }
        Challenge(p) => {
            case.bytes = if edge {
                vec![[0, 0xff, 0x5a][index]; p.ctilde_bytes()]
            } else {
                src.bytes(p.ctilde_bytes())?
            }
        }
        ExpandA(_) => {
            case.bytes = if edge {
                vec![[0, 0xff, 0x5a][index]; 32]
            } else {
                src.bytes(32)?
            }
        }
        UnpackT1 | UnpackT0 | UnpackEta(_) | UnpackZ(_) => {
            let len = match check {
                UnpackT1 => 320,
                UnpackT0 => 416,
                UnpackEta(e) => e.poly_eta_bytes(),
                UnpackZ(g) => g.poly_z_bytes(),
                _ => unreachable!("matched above"),
            };
            case.bytes = if edge {
                vec![[0x00, 0xff, 0x55][index]; len]
            } else if let (UnpackEta(e), true) = (check, src.chance(3, 4)?) {
                // Mostly valid encodings, so implementations without a range check compare too.
                let mut a = mldsa::poly::Poly::ZERO;
                for c in a.coeffs.iter_mut() {
                    *c = src.int_in(-i64::from(e.value()), e.value().into())? as i32;
                }
                let mut b = vec![0u8; len];
                mldsa::backend::Backend::pack_eta(mldsa::backend::Portable, e, &mut b, &a);
                b
            } else {
                src.bytes(len)?
            };
        }
        PackHint(p) => {
            let ones = if edge {
                [0, p.omega, 1][index]
            } else {
                src.int_in(0, p.omega as i64)? as usize
            };
            case.polys = random_hint(src, &p, ones, edge)?;
        }
        UnpackHint(p) => case.bytes = hint_bytes(src, &p, edge, index)?,
        Keccak => {
            case.bytes = if edge {
                vec![[0, 0xff, 0x01][index]; 200]
            } else {
                src.bytes(200)?
            }
        }
        KeccakX4 => {
            case.bytes = if edge {
                vec![[0, 0xff, 0x01][index]; 800]
            } else {
                src.bytes(800)?
            }
        }
        KeccakX4x2 => {
            case.bytes = if edge {
                vec![[0, 0xff, 0x01][index]; 1600]
            } else {
                src.bytes(1600)?
            }
        }
        Keygen(_) => {
            case.bytes = if edge {
                vec![[0, 0xff, 0x5a][index]; 32]
            } else {
                src.bytes(32)?
            }
        }
        Sign(p) | Verify(p) | SignMalformedKey(p) => {
            crate::e2e::generate(check, &p, edge, index, src, &mut case)?
        }
        _ => unreachable!("polynomial kernels handled above"),
    }
    Ok(case)
}

/// k polynomials with `ones` ones in total at distinct random positions.
fn random_hint(
    src: &mut impl Source,
    p: &Params,
    ones: usize,
    edge: bool,
) -> Result<Vec<Vec<i32>>, Exhausted> {
    let mut h = vec![vec![0i32; N]; p.k];
    let mut placed = 0;
    while placed < ones {
        let (i, j) = if edge {
            (placed % p.k, (placed * 53) % N)
        } else {
            (
                src.int_in(0, p.k as i64 - 1)? as usize,
                src.int_in(0, N as i64 - 1)? as usize,
            )
        };
        if h[i][j] == 0 {
            h[i][j] = 1;
            placed += 1;
        }
    }
    Ok(h)
}

/// A hint encoding: valid, valid with one byte changed, or random bytes.
fn hint_bytes(
    src: &mut impl Source,
    p: &Params,
    edge: bool,
    index: usize,
) -> Result<Vec<u8>, Exhausted> {
    let len = p.omega + p.k;
    if edge {
        return Ok(match index {
            0 => vec![0; len],
            1 => vec![0xff; len],
            _ => {
                let mut v = vec![0; len];
                v[p.omega..].fill(p.omega as u8);
                v
            }
        });
    }
    if src.chance(1, 4)? {
        return src.bytes(len);
    }
    let ones = src.int_in(0, p.omega as i64)? as usize;
    let h = random_hint(src, p, ones, false)?;
    let mut out = vec![0u8; len];
    let mut idx = 0;
    for (i, poly) in h.iter().enumerate() {
        for (j, &c) in poly.iter().enumerate() {
            if c != 0 {
                out[idx] = j as u8;
                idx += 1;
            }
        }
        out[p.omega + i] = idx as u8;
    }
    if src.chance(1, 2)? {
        let at = src.int_in(0, len as i64 - 1)? as usize;
        out[at] = src.int_in(0, 255)? as u8;
    }
    Ok(out)
}

/// Every parameter set, for `--params` parsing.
pub fn parse_params(list: &str) -> Result<Vec<Params>, String> {
    list.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            mldsa::params::params_by_name(s.trim())
                .ok_or_else(|| format!("unknown parameter set {s:?} (use 44, 65, 87)"))
        })
        .collect()
}

/// Sets in FIPS order.
pub const SETS: [Params; 3] = [ML_DSA_44, ML_DSA_65, ML_DSA_87];
