//! The one integration-test binary of grundy-web (one link step): the JSON
//! API in `api.rs`, its words (moves as the command line words them, bad
//! entries named as JSON names them) in `wording.rs`, the server against
//! abusive clients in `hardening.rs`, and the HTTP client they use in
//! `client.rs`.

mod api;
mod client;
mod hardening;
mod wording;
