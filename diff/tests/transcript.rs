//! Every Rust backend on this machine reproduces the committed transcript digest
//! (diff/transcript.expected), check by check.

use mldsa::BackendKind;
use mldsa_diff::transcript::{self, DEFAULT_SEED, Transcript};

#[test]
fn every_backend_reproduces_the_committed_transcript() {
    let expected =
        Transcript::parse(transcript::EXPECTED).expect("diff/transcript.expected parses");
    assert_eq!(expected.seed, DEFAULT_SEED);
    assert_eq!(
        expected.checks.len(),
        mldsa_diff::Check::all().len(),
        "one digest per check"
    );
    let mut ran = Vec::new();
    for kind in BackendKind::available() {
        let t = transcript::run(DEFAULT_SEED, kind).expect("transcript runs");
        assert_eq!(
            t.first_moved(&expected),
            None,
            "{kind}: a check's outputs moved (see `mldsa-diff transcript --backend {kind}`)"
        );
        assert_eq!(t.total, expected.total, "{kind}: total digest");
        ran.push(kind.name());
    }
    println!("transcript reproduced on: {}", ran.join(", "));
}

#[test]
fn the_text_form_round_trips() {
    let expected = Transcript::parse(transcript::EXPECTED).unwrap();
    assert_eq!(Transcript::parse(&expected.to_text()).unwrap(), expected);
    assert!(Transcript::parse("ntt 1 abc\n").is_err());
}
