#![no_main]
mldsa_fuzz::target!("use_hint_88");
