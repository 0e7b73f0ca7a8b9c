#!/usr/bin/env python3
"""mldsa-diff oracle adapter for dilithium-py 1.5.1 (protocol mldsa-diff-oracle/1).

dilithium-py is a pure-Python ML-DSA written from the FIPS 204 text. This program speaks
../PROTOCOL.md: it prints one hello line, then answers each JSON request line on stdin
with one JSON line on stdout, and exits at end of input. To plug in an implementation of
your own, copy it: keep hello() and main(), and replace the calls into dilithium_py.

An answer is a result, or a refusal: the library raised while signing ({"refused": its
message}) or while verifying ({"accept": false, "reason": its message}); a verifier never
exits. A request the adapter cannot make sense of (not JSON, an unknown op, set or mode,
a missing field, bad hex) has no answer in the protocol: the problem goes to stderr and
the process exits non-zero, which the harness reports before starting a fresh one.

SHAKE: dilithium-py uses the `xoflib` package when it can import it, and Python's hashlib
otherwise. We keep it on hashlib on purpose (requirements.txt does not bring xoflib in, and
start-up fails if it is there): the other implementations mldsa-diff compares it with use
the Rust `sha3` crate, and hashlib's SHAKE is a different code lineage.
"""

import json
import platform
import sys
from importlib.metadata import version

from dilithium_py.ml_dsa import (
    HASH_ML_DSA_44_WITH_SHA512, HASH_ML_DSA_65_WITH_SHA512, HASH_ML_DSA_87_WITH_SHA512,
    ML_DSA_44, ML_DSA_65, ML_DSA_87)

if "xoflib" in sys.modules:
    sys.exit("dilithium-py oracle: xoflib is installed; uninstall it so that dilithium-py"
             " keeps to hashlib's SHAKE (see the docstring of oracle.py)")

# Measured, not computed at start-up: the mean round trip per request of a driver that
# sent this adapter, over its pipes, 200 ML-DSA-44 "pure" sign requests (random keys,
# messages and rnd) and 900 kernel requests (100 of each kernel offered), on the project's
# machine (2 cores, CPython 3.11.7, another build running). Three runs gave 42-50 ms per
# signature and 0.51-0.60 ms per kernel call (expand_a 2.6 ms, the others 0.13-0.48 ms).
SIGN_US = 45000
KERNEL_US = 550

# For each set, the library's public instances: ML-DSA (pure, mu, internal) and
# HashML-DSA (pre-hash; its parameters differ only in the OID used for key encodings).
SETS = {
    "ML-DSA-44": (ML_DSA_44, HASH_ML_DSA_44_WITH_SHA512),
    "ML-DSA-65": (ML_DSA_65, HASH_ML_DSA_65_WITH_SHA512),
    "ML-DSA-87": (ML_DSA_87, HASH_ML_DSA_87_WITH_SHA512),
}
# The pre-hashes its HashML-DSA takes (hash_ml_dsa.py): the protocol's name -> its name.
PREHASHES = {"SHA2-256": "SHA256", "SHA2-512": "SHA512", "SHAKE-128": "SHAKE128"}
ALL_PREHASHES = ["SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512", "SHA2-512/224",
                 "SHA2-512/256", "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512",
                 "SHAKE-128", "SHAKE-256"]
R = ML_DSA_44.R  # the ring Z_q[X]/(X^256 + 1); its sampling and arithmetic serve every set


def no_randomness(n):
    raise RuntimeError("the adapter gives rnd for every signature")


# dilithium-py draws rnd through an instance's `random_bytes` (os.urandom by default). We
# never let it draw: sign() makes it return the request's rnd for that one call.
for pair in SETS.values():
    for instance in pair:
        instance.random_bytes = no_randomness


def unhex(req, field, length=None):
    value = bytes.fromhex(req[field])
    if length is not None and len(value) != length:
        raise ValueError(f"{field} must be {length} bytes, not {len(value)}")
    return value


def choice(req, field, allowed):
    if req[field] not in allowed:
        raise ValueError(f"{field} must be one of {allowed}")
    return req[field]


def keygen(req):  # ML-DSA.KeyGen_internal (Alg. 6) from xi
    pk, sk = SETS[req["set"]][0].key_derive(unhex(req, "xi", 32))
    return {"pk": pk.hex(), "sk": sk.hex()}


def sign(req):
    ml_dsa, hash_ml_dsa = SETS[req["set"]]
    mode, sk, msg, rnd = req["mode"], unhex(req, "sk"), unhex(req, "msg"), unhex(req, "rnd", 32)
    ctx = unhex(req, "ctx") if mode in ("pure", "prehash") else None
    ph = PREHASHES[req["ph"]] if mode == "prehash" else None
    if mode not in ("pure", "prehash", "mu", "internal"):
        raise ValueError(f"cannot sign in mode {mode!r}")
    # We keep the library's own code paths: its public functions take rnd from
    # `random_bytes`, made to return the given rnd for this call; an all-zero rnd goes
    # through their `deterministic=True` branch instead, as a user would ask for it.
    deterministic = rnd == bytes(32)
    signer = hash_ml_dsa if mode == "prehash" else ml_dsa
    signer.random_bytes = lambda n: rnd
    try:
        if mode == "pure":  # ML-DSA.Sign (Alg. 2)
            sig = ml_dsa.sign(sk, msg, ctx, deterministic)
        elif mode == "prehash":  # HashML-DSA.Sign (Alg. 4)
            sig = hash_ml_dsa._sign_with_pre_hash(sk, msg, ph, ctx, deterministic)
        elif mode == "mu":  # Alg. 7 from line 7, with mu = msg
            sig = ml_dsa.sign_external_mu(sk, msg, deterministic)
        else:  # ML-DSA.Sign_internal (Alg. 7), M' = msg: no public function
            sig = ml_dsa._sign_internal(sk, msg, rnd)
    except Exception as e:  # the library refuses: a context over 255 bytes, a bad key, ...
        return {"refused": f"{type(e).__name__}: {e}"}
    finally:
        signer.random_bytes = no_randomness
    return {"sig": sig.hex()}


def verify(req):
    ml_dsa, hash_ml_dsa = SETS[req["set"]]
    mode, pk, msg, sig = req["mode"], unhex(req, "pk"), unhex(req, "msg"), unhex(req, "sig")
    ctx = unhex(req, "ctx") if mode in ("pure", "prehash") else None
    ph = PREHASHES[req["ph"]] if mode == "prehash" else None
    if mode not in ("pure", "prehash", "internal"):
        raise ValueError(f"cannot verify in mode {mode!r}")
    try:
        if mode == "pure":  # ML-DSA.Verify (Alg. 3)
            ok = ml_dsa.verify(pk, msg, sig, ctx)
        elif mode == "prehash":  # HashML-DSA.Verify (Alg. 5)
            ok = hash_ml_dsa._verify_with_pre_hash(pk, msg, sig, ph, ctx)
        else:  # ML-DSA.Verify_internal (Alg. 8), M' = msg: no public function
            ok = ml_dsa._verify_internal(pk, msg, sig)
    except Exception as e:  # a pk of the wrong length, a context over 255 bytes, ...
        return {"accept": False, "reason": f"{type(e).__name__}: {e}"}
    return {"accept": ok is True}


# Kernels: each is one call into dilithium-py's own polynomial code, and each was checked
# against an independent FIPS 204 computation on random and edge inputs before being
# offered. Output is the library's `.coeffs` as they are: in [0, q) where the protocol
# says so, centred (r0, signs, bounded samples) where FIPS 204 returns signed integers.


def poly(req, field="poly"):
    coeffs = req[field]
    if not (isinstance(coeffs, list) and len(coeffs) == 256
            and all(isinstance(c, int) for c in coeffs)):
        raise ValueError(f"{field} is not a list of 256 integers")
    return R(coeffs)


def k_ntt(req):  # Alg. 41; result in [0, q), in FIPS 204's bit-reversed order
    return {"poly": poly(req).to_ntt().coeffs}


def k_power2round(req):  # Alg. 35 with d = 13
    r1, r0 = poly(req).power_2_round(ML_DSA_44.d)
    return {"polys": [r1.coeffs, r0.coeffs]}


def k_decompose(req):  # Alg. 36; the library's argument is alpha = 2 * gamma2
    r1, r0 = poly(req).decompose(2 * choice(req, "gamma2", [95232, 261888]))
    return {"polys": [r1.coeffs, r0.coeffs]}


def k_use_hint(req):  # Alg. 40; a method of the hint polynomial, taking r and alpha
    alpha = 2 * choice(req, "gamma2", [95232, 261888])
    return {"poly": poly(req, "hint").use_hint(poly(req), alpha).coeffs}


def k_sample_in_ball(req):  # Alg. 29, on all of ctilde
    ml_dsa = SETS[req["set"]][0]
    ctilde = unhex(req, "ctilde", ml_dsa.c_tilde_bytes)
    return {"poly": R.sample_in_ball(ctilde, ml_dsa.tau).coeffs}


def k_expand_a(req):  # Alg. 32: A[r][s] = RejNTTPoly(rho || s || r)
    ml_dsa = SETS[req["set"]][0]
    a_hat = ml_dsa._expand_matrix_from_seed(unhex(req, "rho", 32))
    return {"polys": [a_hat[r, s].coeffs for r in range(ml_dsa.k) for s in range(ml_dsa.l)]}


def k_rej_ntt_poly(req):  # Alg. 30; the library takes (rho, r, s) and hashes rho || s || r
    seed = unhex(req, "seed", 34)
    return {"poly": R.rejection_sample_ntt_poly(seed[:32], seed[33], seed[32]).coeffs}


def k_rej_bounded_poly(req):  # Alg. 31; the library takes (rho', nonce) and hashes rho' || nonce
    seed, eta = unhex(req, "seed", 66), choice(req, "eta", [2, 4])
    nonce = int.from_bytes(seed[64:], "little")
    return {"poly": R.rejection_bounded_poly(seed[:64], nonce, eta).coeffs}


def k_expand_mask_poly(req):  # Alg. 34, one polynomial: the library hashes rho'' || kappa + r
    seed, gamma1 = unhex(req, "seed", 66), choice(req, "gamma1", [1 << 17, 1 << 19])
    kappa = int.from_bytes(seed[64:], "little")
    return {"poly": R.sample_mask_polynomial(seed[:64], 0, kappa, gamma1).coeffs}


KERNELS = {"ntt": k_ntt, "power2round": k_power2round, "decompose": k_decompose,
           "use_hint": k_use_hint, "sample_in_ball": k_sample_in_ball, "expand_a": k_expand_a,
           "rej_ntt_poly": k_rej_ntt_poly, "rej_bounded_poly": k_rej_bounded_poly,
           "expand_mask_poly": k_expand_mask_poly}
OPS = {"keygen": keygen, "sign": sign, "verify": verify, **KERNELS}


def hello():
    supported = list(PREHASHES)
    no_digest = "its HashML-DSA hashes the message itself; no function takes PH(M)"
    not_offered = {
        "verify mu": "no verification from mu: its Verify_internal always hashes tr || M'",
        "sign prehashed": no_digest,
        "verify prehashed": no_digest,
    }
    for name in ALL_PREHASHES:
        if name not in PREHASHES:
            not_offered[f"prehash {name}"] = \
                "its HashML-DSA takes SHA2-256, SHA2-512 and SHAKE-128 only"
    return {
        "protocol": "mldsa-diff-oracle/1",
        "name": "dilithium-py",
        "version": f"dilithium-py {version('dilithium-py')} on"
                   f" {platform.python_implementation()} {platform.python_version()}",
        "sign_us": SIGN_US,
        "kernel_us": KERNEL_US,
        "offers": {
            "keygen": True,
            "sign": {"key": "expanded", "rnd": "given",
                     "modes": ["pure", "prehash", "mu", "internal"], "prehashes": supported},
            "verify": {"modes": ["pure", "prehash", "internal"], "prehashes": supported},
            "kernels": list(KERNELS),
        },
        "not_offered": not_offered,
    }


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    send(hello())
    for line in sys.stdin:
        try:
            req = json.loads(line)
            answer = {"id": req["id"], **OPS[req["op"]](req)}
        except Exception as e:  # a request we cannot answer: a fault (see the docstring)
            detail = f"missing field or unknown name {e}" if isinstance(e, KeyError) else e
            sys.exit(f"dilithium-py oracle: cannot answer {line.strip()[:200]!r}:"
                     f" {type(e).__name__}: {detail}")
        send(answer)


if __name__ == "__main__":
    main()
