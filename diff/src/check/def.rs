//! What a check is: a [`Def`] (one entry in a family's table, holding everything the harness
//! knows about that check) and, for parameter-dependent checks, a [`Variant`]. The family
//! modules build on it, the registry collects them; it takes only the data model, the
//! interface ([`Oracle`]), input sources and the library's contracts.

use crate::model::{Case, Output};
use crate::oracle::{Oracle, spoiled};
use crate::source::{Drawn, Source};
use mldsa::backend::contract::{self, Compare, Contract};
use mldsa::params::{Eta, Gamma1, Gamma2, ML_DSA_44, ML_DSA_65, Params};

/// The parameter value a check is instantiated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Variant {
    None,
    Set(Params),
    Gamma2(Gamma2),
    Eta(Eta),
    Gamma1(Gamma1),
}

/// Which variants a [`Def`] has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// One check.
    Nothing,
    /// One per parameter set (44, 65, 87).
    Sets,
    /// One per gamma2 ((q-1)/88, (q-1)/32).
    Gamma2s,
    /// One per eta (2, 4).
    Etas,
    /// One per gamma1 (2^17, 2^19).
    Gamma1s,
}

impl Over {
    /// The variants, in FIPS order.
    pub fn variants(self) -> Vec<Variant> {
        match self {
            Over::Nothing => vec![Variant::None],
            Over::Sets => mldsa::params::ALL_PARAMS.map(Variant::Set).to_vec(),
            Over::Gamma2s => [Gamma2::QMinus1Over88, Gamma2::QMinus1Over32]
                .map(Variant::Gamma2)
                .to_vec(),
            Over::Etas => [Eta::Two, Eta::Four].map(Variant::Eta).to_vec(),
            Over::Gamma1s => [Gamma1::Pow17, Gamma1::Pow19].map(Variant::Gamma1).to_vec(),
        }
    }
}

/// The family a check belongs to (its table lives in the module of that name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Arithmetic on polynomials drawn from the kernel contract.
    Arith,
    /// Rejection samplers and the samplers built on SHAKE.
    Sampler,
    Packing,
    /// Keccak-f[1600] permutations.
    Keccak,
    EndToEnd,
}

/// Runs the check on one implementation through the one interface: the input's fields to
/// the operation's arguments, its answer to an [`Output`]; `None` if the input does not
/// have the check's shape or the implementation does not offer the operation for it.
pub type RunFn = fn(&dyn Oracle, Check, &Case) -> Option<Output>;
/// Builds case number `index` (`edge`: one of the fixed edge cases) from `src`.
pub type GenFn = fn(Check, usize, bool, &mut dyn Source) -> Drawn<Case>;

/// Everything the harness knows about one check (or one family of variants of it).
#[derive(Debug)]
pub struct Def {
    /// The name, with `{set}` (44), `{l}` (the set's l), `{g2}` (88/32), `{eta}` (2/4) or
    /// `{g1}` (17/19) standing for the variant.
    pub name: &'static str,
    pub over: Over,
    pub family: Family,
    /// The `mldsa::backend::Backend` methods it exercises (the consistency test checks every
    /// trait method is covered by some check).
    pub kernels: &'static [&'static str],
    /// The library contract its inputs are drawn from and its outputs checked against.
    pub contract: Option<fn(Check) -> Contract>,
    /// One line for `mldsa-diff list` (default: from the contract).
    pub about: Option<fn(Check) -> String>,
    /// The planted bug (feature `mldsa/planted-bugs`) its fuzz target is measured against.
    pub planted: &'static str,
    /// Polynomial inputs drawn from the contract (0 for byte inputs).
    pub poly_inputs: fn(Check) -> usize,
    /// How many fixed edge cases come before the random ones.
    pub edge_cases: usize,
    pub generate: GenFn,
    /// The run, written once against [`Oracle`].
    pub run: RunFn,
    /// The fields of a [`Case`] it reads, and what they must satisfy.
    pub takes: Takes,
    /// What it compares of an answer (and what the transcript hashes of it).
    pub answer: Answer,
}

impl Def {
    /// A check of `family` on `kernels` (its fuzz target measured against `planted`): one
    /// variant, no contract, three edge cases, bytes in, the whole output compared; the
    /// families override the rest.
    pub const fn new(
        name: &'static str,
        family: Family,
        (kernels, planted): (&'static [&'static str], &'static str),
        generate: GenFn,
        run: RunFn,
    ) -> Def {
        Def {
            name,
            over: Over::Nothing,
            family,
            kernels,
            contract: None,
            about: None,
            planted,
            poly_inputs: |_| 0,
            edge_cases: 3,
            generate,
            run,
            takes: BYTES,
            answer: Answer::Output,
        }
    }
}

/// A field of a [`Case`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Slot {
    Polys,
    Bytes,
    Scalar,
    Pk,
    Sk,
    Msg,
    Ctx,
    Rnd,
    Sig,
    Xi,
}

/// Whether a [`Case`] has a field set.
pub type IsSet = fn(&Case) -> bool;

impl Slot {
    /// Every field, with its name in reports and whether a case has it set.
    pub const ALL: [(Slot, &'static str, IsSet); 10] = [
        (Slot::Polys, "polys", |c| !c.polys.is_empty()),
        (Slot::Bytes, "bytes", |c| !c.bytes.is_empty()),
        (Slot::Scalar, "scalar", |c| c.scalar != 0),
        (Slot::Pk, "pk", |c| !c.pk.is_empty()),
        (Slot::Sk, "sk", |c| !c.sk.is_empty()),
        (Slot::Msg, "msg", |c| !c.msg.is_empty()),
        (Slot::Ctx, "ctx", |c| !c.ctx.is_empty()),
        (Slot::Rnd, "rnd", |c| !c.rnd.is_empty()),
        (Slot::Sig, "sig", |c| !c.sig.is_empty()),
        (Slot::Xi, "xi", |c| !c.xi.is_empty()),
    ];
}

/// What a check reads of a [`Case`] (a typed fact of its [`Def`], read by the validation of
/// a loaded input): the fields it takes (every other one must be empty: a report whose input
/// has, say, a public key for a kernel check was not written by this harness), and what its
/// input must satisfy before any implementation sees it beyond the contract's bounds
/// (lengths the C code reads without checking).
#[derive(Clone, Copy, Debug)]
pub struct Takes {
    pub slots: &'static [Slot],
    pub valid: fn(Check, &Case) -> Result<(), String>,
}

impl Takes {
    /// These fields, with no further condition.
    pub const fn just(slots: &'static [Slot]) -> Takes {
        Takes {
            slots,
            valid: |_, _| Ok(()),
        }
    }
}

/// `slots![Pk, Sig]` is `&[Slot::Pk, Slot::Sig]`.
macro_rules! slots {
    ($($slot:ident),*) => {
        &[$($crate::check::def::Slot::$slot),*]
    };
}
pub(crate) use slots;

pub const POLYS: Takes = Takes::just(slots![Polys]);
pub const BYTES: Takes = Takes::just(slots![Bytes]);

/// What a check compares of an answer: a typed fact of its [`Def`], read by the judge, the
/// input validation and the transcript (never decided from the check's name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The whole output: polynomials (as the contract's `Compare` says), bytes, scalar and
    /// verdict.
    Output,
    /// Accept or reject only (verifiers word their errors differently); the transcript
    /// hashes the verdict alone.
    Verdict,
    /// Accept or reject only, but the transcript hashes the whole output, the verdict's
    /// wording included: `verify_hostile_{set}`, whose committed digest was made that way.
    VerdictHashingOutput,
    /// A signer's answer: the exact signature, or a refusal however worded (APIs word their
    /// errors differently: a context over 255 bytes, a key of another length).
    SignatureOrRefusal,
}

/// One check: a [`Def`] for one [`Variant`].
#[derive(Clone, Copy, Debug)]
pub struct Check {
    pub def: &'static Def,
    pub variant: Variant,
}

impl PartialEq for Check {
    fn eq(&self, other: &Self) -> bool {
        core::ptr::eq(self.def, other.def) && self.variant == other.variant
    }
}
impl Eq for Check {}

impl Check {
    /// The check's name, as used on the command line, in reports and as fuzz target name.
    pub fn name(&self) -> String {
        let n = self.def.name;
        match self.variant {
            Variant::None => n.to_string(),
            Variant::Set(p) => n
                .replace("{set}", &p.name[7..])
                .replace("{l}", &p.l.to_string()),
            // `{g2}`: (q-1)/gamma2 = 2m (88, 32); `{g1}`: log2 gamma1 (17, 19).
            Variant::Gamma2(g) => n.replace("{g2}", &(2 * g.m()).to_string()),
            Variant::Eta(e) => n.replace("{eta}", &e.value().to_string()),
            Variant::Gamma1(g) => n.replace("{g1}", &g.value().trailing_zeros().to_string()),
        }
    }

    /// The parameter set whose values (and C symbols) this check uses. For a check over
    /// gamma2s, etas or gamma1s it is the one set with that value, so `params().gamma2` (or
    /// `.eta`, `.gamma1`) is the variant's value; a check over nothing gets ML-DSA-65, whose
    /// values are not its variant's (a run reads such a value only over its own kind).
    pub fn params(&self) -> Params {
        match self.variant {
            Variant::Set(p) => p,
            Variant::Gamma2(Gamma2::QMinus1Over88)
            | Variant::Eta(Eta::Two)
            | Variant::Gamma1(Gamma1::Pow17) => ML_DSA_44,
            _ => ML_DSA_65,
        }
    }

    /// Whether any of `sets` uses this check (parameter-free checks: always).
    pub fn used_by(&self, sets: &[Params]) -> bool {
        sets.iter().any(|s| match self.variant {
            Variant::None => true,
            Variant::Set(p) => p == *s,
            Variant::Gamma2(g) => s.gamma2 == g,
            Variant::Eta(e) => s.eta == e,
            Variant::Gamma1(g) => s.gamma1 == g,
        })
    }

    /// Its answer from `o` (spoiled by one bit where `o` carries the planted oracle fault).
    pub fn run(&self, o: &dyn Oracle, case: &Case) -> Option<Output> {
        let out = (self.def.run)(o, *self, case)?;
        Some(if o.planted() { spoiled(out) } else { out })
    }

    pub fn is_end_to_end(&self) -> bool {
        self.def.family == Family::EndToEnd
    }

    /// The library contract this check draws its inputs from, if any.
    pub fn contract(&self) -> Option<Contract> {
        self.def.contract.map(|c| c(*self))
    }

    pub fn compare(&self) -> Compare {
        self.contract().map_or(Compare::Exact, |c| c.compare)
    }

    /// Whether its polynomials compare modulo q (the judge and the transcript both ask).
    pub fn mod_q(&self) -> bool {
        matches!(self.compare(), Compare::ModQ | Compare::ModQNttOrder)
    }

    pub fn poly_inputs(&self) -> usize {
        (self.def.poly_inputs)(*self)
    }

    /// The contract's bounds of each polynomial input: a second one has bounds of its own
    /// where the contract gives them (make_hint, use_hint), else every one has `input[0]`'s.
    /// Only for a check with polynomial inputs.
    pub fn input_bounds(&self) -> Vec<contract::Bounds> {
        let n = self.poly_inputs();
        let c = self
            .contract()
            .expect("a check with polynomial inputs has a contract");
        let own = n == 2 && c.input[1] != contract::ANY;
        (0..n).map(|i| c.input[if own { i } else { 0 }]).collect()
    }

    pub fn edge_cases(&self) -> usize {
        self.def.edge_cases
    }

    /// One line for `mldsa-diff list`: inputs, outputs, comparison.
    pub fn describe(&self) -> String {
        if let Some(about) = self.def.about {
            return about(*self);
        }
        self.contract().map(describe_contract).unwrap_or_default()
    }
}

/// "in [lo, hi], ... -> out [lo, hi], ...; compare ..." from a contract.
pub fn describe_contract(c: Contract) -> String {
    let b = |x: &contract::Bounds| format!("[{}, {}]", x.lo, x.hi);
    let list = |xs: &[contract::Bounds]| -> Vec<String> {
        xs.iter().filter(|x| **x != contract::ANY).map(b).collect()
    };
    let outs = list(&c.output);
    format!(
        "in {} -> out {}; compare {:?}",
        list(&c.input).join(", "),
        if outs.is_empty() {
            "bytes/bool".into()
        } else {
            outs.join(", ")
        },
        c.compare
    )
}
