//! ML-DSA parameter sets (FIPS 204, Section 4, Table 1 and Table 2).

/// Polynomial degree n.
pub const N: usize = 256;
/// The modulus q = 2^23 - 2^13 + 1.
pub const Q: i32 = 8_380_417;
/// Number of dropped bits from t (d).
pub const D: u32 = 13;
/// Largest k over all parameter sets (ML-DSA-87).
pub const K_MAX: usize = 8;
/// Largest l over all parameter sets (ML-DSA-87).
pub const L_MAX: usize = 7;
/// Length of the seeds rho and K, and of xi and rnd.
pub const SEED_BYTES: usize = 32;
/// Length of rho' and of tr and mu.
pub const CRH_BYTES: usize = 64;
/// Bytes of one packed t1 polynomial (10 bits per coefficient).
pub const POLY_T1_BYTES: usize = 320;
/// Bytes of one packed t0 polynomial (13 bits per coefficient).
pub const POLY_T0_BYTES: usize = 416;

/// The low-order rounding range gamma2 (two choices in FIPS 204).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gamma2 {
    /// gamma2 = (q-1)/88 = 95232 (ML-DSA-44).
    QMinus1Over88,
    /// gamma2 = (q-1)/32 = 261888 (ML-DSA-65, ML-DSA-87).
    QMinus1Over32,
}

// m as written in FIPS 204.
#[allow(
    clippy::integer_division_remainder_used,
    reason = "compile-time check of constants"
)]
const _: () = {
    assert!(Gamma2::QMinus1Over88.m() == (Q - 1) / (2 * Gamma2::QMinus1Over88.value()));
    assert!(Gamma2::QMinus1Over32.m() == (Q - 1) / (2 * Gamma2::QMinus1Over32.value()));
};

impl Gamma2 {
    /// The numeric value of gamma2.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "the constants (q - 1) / 88 and (q - 1) / 32, folded at compile time"
    )]
    pub const fn value(self) -> i32 {
        match self {
            Gamma2::QMinus1Over88 => (Q - 1) / 88,
            Gamma2::QMinus1Over32 => (Q - 1) / 32,
        }
    }
    /// m = (q-1)/(2*gamma2): high bits lie in [0, m).
    pub const fn m(self) -> i32 {
        // A match, not the division: decompose calls this on the signing path, where gamma2
        // may be known only at run time, and a division would then be a divide instruction.
        // The constants are checked against the division at compile time (below the enum).
        match self {
            Gamma2::QMinus1Over88 => 44,
            Gamma2::QMinus1Over32 => 16,
        }
    }
    /// Bits per coefficient of a packed w1 polynomial: bitlen(m - 1).
    pub const fn w1_bits(self) -> usize {
        match self {
            Gamma2::QMinus1Over88 => 6,
            Gamma2::QMinus1Over32 => 4,
        }
    }
    /// Bytes of one packed w1 polynomial.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "a public length: the constant N times a public bit width, divided by the constant 8 (a shift)"
    )]
    pub const fn poly_w1_bytes(self) -> usize {
        N * self.w1_bits() / 8
    }
}

/// The coefficient range of y and z, gamma1 (a power of two).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gamma1 {
    /// gamma1 = 2^17 (ML-DSA-44).
    Pow17,
    /// gamma1 = 2^19 (ML-DSA-65, ML-DSA-87).
    Pow19,
}

impl Gamma1 {
    /// The numeric value of gamma1.
    pub const fn value(self) -> i32 {
        match self {
            Gamma1::Pow17 => 1 << 17,
            Gamma1::Pow19 => 1 << 19,
        }
    }
    /// Bits per packed z coefficient: 1 + bitlen(gamma1 - 1).
    pub const fn z_bits(self) -> usize {
        match self {
            Gamma1::Pow17 => 18,
            Gamma1::Pow19 => 20,
        }
    }
    /// Bytes of one packed z polynomial.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "a public length: the constant N times a public bit width, divided by the constant 8 (a shift)"
    )]
    pub const fn poly_z_bytes(self) -> usize {
        N * self.z_bits() / 8
    }
}

/// The secret coefficient range eta.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eta {
    /// eta = 2 (ML-DSA-44, ML-DSA-87).
    Two,
    /// eta = 4 (ML-DSA-65).
    Four,
}

impl Eta {
    /// The numeric value of eta.
    pub const fn value(self) -> i32 {
        match self {
            Eta::Two => 2,
            Eta::Four => 4,
        }
    }
    /// Bits per packed s1/s2 coefficient: bitlen(2*eta).
    pub const fn bits(self) -> usize {
        match self {
            Eta::Two => 3,
            Eta::Four => 4,
        }
    }
    /// Bytes of one packed s1/s2 polynomial.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "a public length: the constant N times a public bit width, divided by the constant 8 (a shift)"
    )]
    pub const fn poly_eta_bytes(self) -> usize {
        N * self.bits() / 8
    }
}

/// The numbers that define one ML-DSA parameter set (FIPS 204 Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// "ML-DSA-44", "ML-DSA-65" or "ML-DSA-87".
    pub name: &'static str,
    /// Rows of A (length of s2, t, w, h).
    pub k: usize,
    /// Columns of A (length of s1, y, z).
    pub l: usize,
    /// Secret coefficient range.
    pub eta: Eta,
    /// Number of +-1 coefficients in the challenge c.
    pub tau: usize,
    /// beta = tau * eta.
    pub beta: i32,
    /// Coefficient range of y.
    pub gamma1: Gamma1,
    /// Low-order rounding range.
    pub gamma2: Gamma2,
    /// Maximum number of ones in the hint h.
    pub omega: usize,
    /// Collision strength lambda in bits; c~ has lambda/4 bytes.
    pub lambda: usize,
}

impl Params {
    /// Length of the commitment hash c~ (lambda/4 bytes).
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "a public length: the public lambda divided by the constant 4 (a shift)"
    )]
    pub const fn ctilde_bytes(&self) -> usize {
        self.lambda / 4
    }
    /// Length of an encoded public key: 32 + 320k.
    pub const fn pk_bytes(&self) -> usize {
        SEED_BYTES + self.k * POLY_T1_BYTES
    }
    /// Length of an encoded (expanded) secret key.
    pub const fn sk_bytes(&self) -> usize {
        2 * SEED_BYTES
            + CRH_BYTES
            + (self.k + self.l) * self.eta.poly_eta_bytes()
            + self.k * POLY_T0_BYTES
    }
    /// Length of an encoded signature.
    pub const fn sig_bytes(&self) -> usize {
        self.ctilde_bytes() + self.l * self.gamma1.poly_z_bytes() + self.omega + self.k
    }
    /// Length of w1Encode(w1).
    pub const fn w1_packed_bytes(&self) -> usize {
        self.k * self.gamma2.poly_w1_bytes()
    }
}

/// ML-DSA-44 (NIST security category 2).
pub const ML_DSA_44: Params = Params {
    name: "ML-DSA-44",
    k: 4,
    l: 4,
    eta: Eta::Two,
    tau: 39,
    beta: 78,
    gamma1: Gamma1::Pow17,
    gamma2: Gamma2::QMinus1Over88,
    omega: 80,
    lambda: 128,
};

/// ML-DSA-65 (NIST security category 3).
pub const ML_DSA_65: Params = Params {
    name: "ML-DSA-65",
    k: 6,
    l: 5,
    eta: Eta::Four,
    tau: 49,
    beta: 196,
    gamma1: Gamma1::Pow19,
    gamma2: Gamma2::QMinus1Over32,
    omega: 55,
    lambda: 192,
};

/// ML-DSA-87 (NIST security category 5).
pub const ML_DSA_87: Params = Params {
    name: "ML-DSA-87",
    k: 8,
    l: 7,
    eta: Eta::Two,
    tau: 60,
    beta: 120,
    gamma1: Gamma1::Pow19,
    gamma2: Gamma2::QMinus1Over32,
    omega: 75,
    lambda: 256,
};

/// All three parameter sets, in order.
pub const ALL_PARAMS: [Params; 3] = [ML_DSA_44, ML_DSA_65, ML_DSA_87];

/// Looks a parameter set up by its number (44, 65, 87) or full name ("ML-DSA-65").
pub fn params_by_name(name: &str) -> Option<Params> {
    let short = name.strip_prefix("ML-DSA-").unwrap_or(name);
    ALL_PARAMS
        .into_iter()
        .find(|p| p.name.ends_with(short) && short.len() == 2)
}

/// A fixed-size byte array used for encodings whose length depends on the parameter set.
pub trait ByteArray:
    Copy
    + AsRef<[u8]>
    + AsMut<[u8]>
    + zeroize::Zeroize
    + core::fmt::Debug
    + PartialEq
    + Eq
    + Send
    + Sync
    + 'static
{
    /// The all-zero array.
    fn zeroed() -> Self;
}

impl<const M: usize> ByteArray for [u8; M] {
    fn zeroed() -> Self {
        [0u8; M]
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A parameter set as a type, so keys and signatures of different sets cannot be mixed up.
pub trait ParameterSet:
    sealed::Sealed + Copy + Default + core::fmt::Debug + PartialEq + Eq + Send + Sync + 'static
{
    /// The parameter values.
    const PARAMS: Params;
    /// `[u8; pk_bytes]`.
    type VerifyingKeyBytes: ByteArray;
    /// `[u8; sk_bytes]`.
    type SigningKeyBytes: ByteArray;
    /// `[u8; sig_bytes]`.
    type SignatureBytes: ByteArray;
}

macro_rules! parameter_set {
    ($(#[$doc:meta])* $name:ident, $params:expr, $pk:literal, $sk:literal, $sig:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl ParameterSet for $name {
            const PARAMS: Params = $params;
            type VerifyingKeyBytes = [u8; $pk];
            type SigningKeyBytes = [u8; $sk];
            type SignatureBytes = [u8; $sig];
        }
        const _: () = {
            assert!($params.pk_bytes() == $pk);
            assert!($params.sk_bytes() == $sk);
            assert!($params.sig_bytes() == $sig);
        };
    };
}

parameter_set!(
    /// The ML-DSA-44 parameter set as a type.
    MlDsa44, ML_DSA_44, 1312, 2560, 2420
);
parameter_set!(
    /// The ML-DSA-65 parameter set as a type.
    MlDsa65, ML_DSA_65, 1952, 4032, 3309
);
parameter_set!(
    /// The ML-DSA-87 parameter set as a type.
    MlDsa87, ML_DSA_87, 2592, 4896, 4627
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beta_is_tau_times_eta() {
        for p in ALL_PARAMS {
            assert_eq!(p.beta, p.tau as i32 * p.eta.value(), "{}", p.name);
            assert!(p.k <= K_MAX && p.l <= L_MAX);
        }
    }

    #[test]
    fn lookup_by_name() {
        assert_eq!(params_by_name("65"), Some(ML_DSA_65));
        assert_eq!(params_by_name("ML-DSA-87"), Some(ML_DSA_87));
        assert_eq!(params_by_name("ML-DSA-4"), None);
        assert_eq!(params_by_name("5"), None);
    }
}
