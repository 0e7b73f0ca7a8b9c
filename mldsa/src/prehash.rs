//! The twelve pre-hash functions of HashML-DSA (FIPS 204 Section 5.4, Alg. 4/5) with their
//! DER-encoded object identifiers.

use sha2::Digest;
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// Longest digest any pre-hash produces (SHA-512, SHA3-512, SHAKE-256).
pub const MAX_DIGEST: usize = 64;

/// A pre-hash function PH for HashML-DSA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum PreHash {
    Sha2_224,
    Sha2_256,
    Sha2_384,
    Sha2_512,
    Sha2_512_224,
    Sha2_512_256,
    Sha3_224,
    Sha3_256,
    Sha3_384,
    Sha3_512,
    /// SHAKE128 with 256 bits of output.
    Shake128,
    /// SHAKE256 with 512 bits of output.
    Shake256,
}

impl PreHash {
    /// All twelve, in OID order of the last byte.
    pub const ALL: [PreHash; 12] = [
        PreHash::Sha2_256,
        PreHash::Sha2_384,
        PreHash::Sha2_512,
        PreHash::Sha2_224,
        PreHash::Sha2_512_224,
        PreHash::Sha2_512_256,
        PreHash::Sha3_224,
        PreHash::Sha3_256,
        PreHash::Sha3_384,
        PreHash::Sha3_512,
        PreHash::Shake128,
        PreHash::Shake256,
    ];

    /// The NIST name used by ACVP ("SHA2-256", "SHA3-512", "SHAKE-128", ...).
    pub const fn name(self) -> &'static str {
        match self {
            PreHash::Sha2_224 => "SHA2-224",
            PreHash::Sha2_256 => "SHA2-256",
            PreHash::Sha2_384 => "SHA2-384",
            PreHash::Sha2_512 => "SHA2-512",
            PreHash::Sha2_512_224 => "SHA2-512/224",
            PreHash::Sha2_512_256 => "SHA2-512/256",
            PreHash::Sha3_224 => "SHA3-224",
            PreHash::Sha3_256 => "SHA3-256",
            PreHash::Sha3_384 => "SHA3-384",
            PreHash::Sha3_512 => "SHA3-512",
            PreHash::Shake128 => "SHAKE-128",
            PreHash::Shake256 => "SHAKE-256",
        }
    }

    /// Looks a function up by its NIST name.
    pub fn from_name(name: &str) -> Option<PreHash> {
        PreHash::ALL.into_iter().find(|h| h.name() == name)
    }

    /// The DER encoding of the function's OID, 2.16.840.1.101.3.4.2.x.
    pub const fn oid(self) -> [u8; 11] {
        let last = match self {
            PreHash::Sha2_256 => 0x01,
            PreHash::Sha2_384 => 0x02,
            PreHash::Sha2_512 => 0x03,
            PreHash::Sha2_224 => 0x04,
            PreHash::Sha2_512_224 => 0x05,
            PreHash::Sha2_512_256 => 0x06,
            PreHash::Sha3_224 => 0x07,
            PreHash::Sha3_256 => 0x08,
            PreHash::Sha3_384 => 0x09,
            PreHash::Sha3_512 => 0x0a,
            PreHash::Shake128 => 0x0b,
            PreHash::Shake256 => 0x0c,
        };
        [
            0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, last,
        ]
    }

    /// Length of PH(M) in bytes.
    pub const fn digest_len(self) -> usize {
        match self {
            PreHash::Sha2_224 | PreHash::Sha2_512_224 | PreHash::Sha3_224 => 28,
            PreHash::Sha2_256 | PreHash::Sha2_512_256 | PreHash::Sha3_256 | PreHash::Shake128 => 32,
            PreHash::Sha2_384 | PreHash::Sha3_384 => 48,
            PreHash::Sha2_512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }

    /// PH(M): the digest in the first [`Self::digest_len`] bytes of the result.
    pub fn digest(self, msg: &[u8]) -> [u8; MAX_DIGEST] {
        fn put(out: &mut [u8; MAX_DIGEST], d: &[u8]) {
            out[..d.len()].copy_from_slice(d);
        }
        let mut out = [0u8; MAX_DIGEST];
        match self {
            PreHash::Sha2_224 => put(&mut out, &sha2::Sha224::digest(msg)),
            PreHash::Sha2_256 => put(&mut out, &sha2::Sha256::digest(msg)),
            PreHash::Sha2_384 => put(&mut out, &sha2::Sha384::digest(msg)),
            PreHash::Sha2_512 => put(&mut out, &sha2::Sha512::digest(msg)),
            PreHash::Sha2_512_224 => put(&mut out, &sha2::Sha512_224::digest(msg)),
            PreHash::Sha2_512_256 => put(&mut out, &sha2::Sha512_256::digest(msg)),
            PreHash::Sha3_224 => put(&mut out, &sha3::Sha3_224::digest(msg)),
            PreHash::Sha3_256 => put(&mut out, &sha3::Sha3_256::digest(msg)),
            PreHash::Sha3_384 => put(&mut out, &sha3::Sha3_384::digest(msg)),
            PreHash::Sha3_512 => put(&mut out, &sha3::Sha3_512::digest(msg)),
            PreHash::Shake128 => {
                let mut h = sha3::Shake128::default();
                h.update(msg);
                h.finalize_xof().read(&mut out[..32]);
            }
            PreHash::Shake256 => {
                let mut h = sha3::Shake256::default();
                h.update(msg);
                h.finalize_xof().read(&mut out[..64]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_oids_distinct() {
        for h in PreHash::ALL {
            assert_eq!(PreHash::from_name(h.name()), Some(h));
        }
        let mut lasts: Vec<u8> = PreHash::ALL.iter().map(|h| h.oid()[10]).collect();
        lasts.sort_unstable();
        assert_eq!(lasts, (1..=12).collect::<Vec<u8>>());
    }

    #[test]
    fn sha256_of_abc() {
        // FIPS 180-2 Appendix B.1.
        let d = PreHash::Sha2_256.digest(b"abc");
        assert_eq!(
            hex::encode(&d[..32]),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
