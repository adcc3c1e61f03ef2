//! The one integration-test binary of grundy-web (one link step): the JSON
//! API in `api.rs`, the server against abusive clients in `hardening.rs`.

mod api;
mod hardening;
