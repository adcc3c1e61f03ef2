//! The one integration-test binary of grundy-web (one link step): the JSON
//! API in `api.rs`, the server against abusive clients in `hardening.rs`,
//! and the HTTP client they use in `client.rs`.

mod api;
mod client;
mod hardening;
