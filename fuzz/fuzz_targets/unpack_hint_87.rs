#![no_main]
mldsa_fuzz::target!("unpack_hint_87");
