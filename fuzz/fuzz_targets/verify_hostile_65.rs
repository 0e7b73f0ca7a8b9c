#![no_main]
mldsa_fuzz::target!("verify_hostile_65");
