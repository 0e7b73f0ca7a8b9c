#![no_main]
mldsa_fuzz::target!("challenge_65");
