// Command oracle-go is mldsa-diff's adapter for Go's standard-library crypto/mldsa: it speaks
// the oracle protocol of ../PROTOCOL.md (one JSON request per line on stdin, one answer per
// line on stdout) through the package's public API only.
//
// What that API allows decides what is offered:
//   - keys are made from the 32-byte seed xi (NewPrivateKey); no expanded secret key goes in
//     or out, so there is no keygen, and signing uses the xi the harness sends with sk;
//   - the randomized Sign draws rnd from the library's own DRBG (its io.Reader is ignored),
//     so only SignDeterministic (rnd = 32 zero bytes) is offered;
//   - signing takes a message and context (pure) or an external mu (crypto.MLDSAMu);
//   - Verify takes a message and context (pure) only.
package main

import (
	"bufio"
	"bytes"
	"crypto"
	"crypto/mldsa"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
)

// signUS is the time one ML-DSA-44 signature takes through this adapter, in microseconds.
// Measured on the project's 2-core machine (AMD EPYC, other builds running): a Python driver
// sent 2,000 deterministic pure-mode requests one at a time (ML-DSA-44, each its own xi, a
// 32-byte message), wall time / 2,000 = 720 to 880 us over five runs, about 200 us of it the
// key derived from xi (a Go benchmark of the library alone: 650 to 730 us, 450 for Sign only).
const signUS = 800

var sets = map[string]mldsa.Parameters{
	"ML-DSA-44": mldsa.MLDSA44(),
	"ML-DSA-65": mldsa.MLDSA65(),
	"ML-DSA-87": mldsa.MLDSA87(),
}

func hello() any {
	return map[string]any{
		"protocol": "mldsa-diff-oracle/1",
		"name":     "go",
		"version":  "Go crypto/mldsa, " + runtime.Version(),
		"sign_us":  signUS,
		"offers": map[string]any{
			"sign":   map[string]any{"key": "seed", "rnd": "zero", "modes": []string{"pure", "mu"}},
			"verify": map[string]any{"modes": []string{"pure"}},
		},
		"not_offered": map[string]string{
			"keygen":            "its API exports the seed and the public key, not the expanded secret key",
			"sign key expanded": "its private keys are made from the 32-byte seed only (NewPrivateKey)",
			"sign rnd given":    "its randomized Sign draws rnd from the library's own DRBG (the io.Reader is ignored); only SignDeterministic (rnd = 0) is reproducible",
			"sign prehash":      "it has no HashML-DSA (Options carries a context only)",
			"sign prehashed":    "it has no HashML-DSA (Options carries a context only)",
			"sign internal":     "its API has no Sign_internal of M' (external mu via crypto.MLDSAMu is the lowest level)",
			"verify mu":         "its Verify takes a message and a context only; verification from mu is internal to the library",
			"verify prehash":    "it has no HashML-DSA (Options carries a context only)",
			"verify prehashed":  "it has no HashML-DSA (Options carries a context only)",
			"verify internal":   "its API has no Verify_internal of M'",
			"kernels":           "its arithmetic and samplers are in crypto/internal/fips140/mldsa, which cannot be imported",
		},
	}
}

// request holds every field a request may have; a nil pointer is a field that was not sent.
type request struct {
	ID   *int64  `json:"id"`
	Op   *string `json:"op"`
	Set  *string `json:"set"`
	Mode *string `json:"mode"`
	SK   *string `json:"sk"`
	Xi   *string `json:"xi"`
	PK   *string `json:"pk"`
	Msg  *string `json:"msg"`
	Ctx  *string `json:"ctx"`
	Rnd  *string `json:"rnd"`
	Sig  *string `json:"sig"`
}

type signAnswer struct {
	ID      int64  `json:"id"`
	Sig     string `json:"sig,omitempty"`
	Refused string `json:"refused,omitempty"`
}

type verifyAnswer struct {
	ID     int64  `json:"id"`
	Accept bool   `json:"accept"`
	Reason string `json:"reason,omitempty"`
}

// fail ends the process on a request the protocol does not allow: the harness reports it as
// a fault, with the end of stderr, and starts a fresh process.
func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "oracle-go: "+format+"\n", args...)
	os.Exit(2)
}

func str(name string, v *string) string {
	if v == nil {
		fail("request lacks the field %q", name)
	}
	return *v
}

func bytesOf(name string, v *string) []byte {
	b, err := hex.DecodeString(str(name, v))
	if err != nil {
		fail("field %q is not hexadecimal: %v", name, err)
	}
	return b
}

func params(r *request) mldsa.Parameters {
	p, ok := sets[str("set", r.Set)]
	if !ok {
		fail("unknown set %q", *r.Set)
	}
	return p
}

func sign(r *request) signAnswer {
	p := params(r)
	mode := str("mode", r.Mode)
	str("sk", r.SK) // sent, but not used: the key is derived from xi, as the hello says
	if r.Xi == nil {
		fail("sign request without xi: this adapter signs only with a key it derives from xi")
	}
	xi := bytesOf("xi", r.Xi)
	if rnd := bytesOf("rnd", r.Rnd); !bytes.Equal(rnd, make([]byte, 32)) {
		fail("sign request with rnd %x: this adapter signs deterministically only (rnd = 32 zero bytes)", rnd)
	}
	msg := bytesOf("msg", r.Msg)
	var opts crypto.SignerOpts
	switch mode {
	case "pure":
		opts = &mldsa.Options{Context: string(bytesOf("ctx", r.Ctx))}
	case "mu":
		opts = crypto.MLDSAMu // msg is mu; the library refuses any length but 64
	default:
		fail("sign mode %q is not offered", mode)
	}
	sk, err := mldsa.NewPrivateKey(p, xi)
	if err != nil {
		return signAnswer{ID: *r.ID, Refused: err.Error()}
	}
	sig, err := sk.SignDeterministic(msg, opts)
	if err != nil {
		return signAnswer{ID: *r.ID, Refused: err.Error()}
	}
	return signAnswer{ID: *r.ID, Sig: hex.EncodeToString(sig)}
}

// verify never fails on what it is given to check (lengths, context, key, signature): the
// library's error is the reason of a rejection.
func verify(r *request) verifyAnswer {
	p := params(r)
	if mode := str("mode", r.Mode); mode != "pure" {
		fail("verify mode %q is not offered", mode)
	}
	pkBytes, msg := bytesOf("pk", r.PK), bytesOf("msg", r.Msg)
	ctx, sig := bytesOf("ctx", r.Ctx), bytesOf("sig", r.Sig)
	pk, err := mldsa.NewPublicKey(p, pkBytes)
	if err != nil {
		return verifyAnswer{ID: *r.ID, Reason: "public key: " + err.Error()}
	}
	if err := mldsa.Verify(pk, msg, sig, &mldsa.Options{Context: string(ctx)}); err != nil {
		return verifyAnswer{ID: *r.ID, Reason: err.Error()}
	}
	return verifyAnswer{ID: *r.ID, Accept: true}
}

func answer(line []byte) any {
	var r request
	if err := json.Unmarshal(line, &r); err != nil {
		fail("request is not a JSON object of the protocol: %v", err)
	}
	if r.ID == nil {
		fail("request lacks the field \"id\"")
	}
	switch op := str("op", r.Op); op {
	case "sign":
		return sign(&r)
	case "verify":
		return verify(&r)
	default:
		fail("operation %q is not offered", op)
		return nil
	}
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20) // requests reach ~150 KB; ReadBytes has no limit
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := json.NewEncoder(out) // one object per line: Encode ends each with "\n"
	write := func(v any) {
		if err := enc.Encode(v); err != nil {
			fail("cannot encode an answer: %v", err)
		}
		if err := out.Flush(); err != nil {
			fail("cannot write to stdout: %v", err)
		}
	}
	write(hello())
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			write(answer(line))
		}
		if err == io.EOF {
			return // stdin closed: the harness is done
		}
		if err != nil {
			fail("cannot read stdin: %v", err)
		}
	}
}
