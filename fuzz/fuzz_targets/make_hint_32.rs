#![no_main]
mldsa_fuzz::target!("make_hint_32");
