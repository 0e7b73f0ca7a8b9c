#![no_main]
mldsa_fuzz::target!("sign_rare_65");
