#![no_main]
mldsa_fuzz::target!("pack_hint_87");
