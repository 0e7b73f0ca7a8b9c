#![no_main]
mldsa_fuzz::target!("api_sign_87");
