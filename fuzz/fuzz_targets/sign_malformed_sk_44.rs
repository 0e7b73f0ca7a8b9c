#![no_main]
mldsa_fuzz::target!("sign_malformed_sk_44");
