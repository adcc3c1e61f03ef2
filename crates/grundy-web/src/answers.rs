//! Whole answers of heavy requests, kept between requests.
//!
//! A request the heavy lane answered in full (no budget stopped it) is
//! answered again from here at once, before any lane: a position the page
//! sent a moment ago is not queued behind other clients' searches, nor
//! refused when the heavy lane is full. The kept memos ([`crate::games::memos`])
//! cannot promise that: a memo goes to whichever search borrows it next,
//! and another client's search may hold the one that knows the position.
//!
//! **Why it is right.** An entry is found by the request's game, endpoint
//! and exact body bytes, all compared (the hash only chooses the bucket),
//! and it holds what the server answered that very request in full. A
//! value never changes, so a kept `analyze` answer stays right; a kept
//! `play` answer stays a legal move, proven as it says.
//!
//! **Bounded.** At most `max_bytes` of bodies and answers in all, counted
//! from their lengths; past it, the whole set is dropped (a forgotten
//! answer costs one search more), and an entry larger than a quarter of it
//! is not kept.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use axum::body::Bytes;

/// Whole answers kept, keyed by a hash of the request (see the module doc).
pub(crate) struct Answers {
    inner: Mutex<Inner>,
    max_bytes: usize,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<u64, Entry>,
    bytes: usize,
}

struct Entry {
    game: String,
    play: bool,
    body: Bytes,
    json: String,
}

impl Entry {
    /// The bytes it holds (its strings, its body, and its own size).
    fn bytes(&self) -> usize {
        self.game.len() + self.body.len() + self.json.len() + std::mem::size_of::<Entry>()
    }
}

impl Answers {
    /// A set holding at most `max_bytes` (0 keeps none).
    pub(crate) fn new(max_bytes: usize) -> Answers {
        Answers {
            inner: Mutex::new(Inner::default()),
            max_bytes,
        }
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A map of finished answers is whole even if a holder panicked.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The answer kept for this very request, if any.
    pub(crate) fn get(&self, key: u64, game: &str, play: bool, body: &[u8]) -> Option<String> {
        let inner = self.inner();
        let entry = inner.entries.get(&key)?;
        (entry.game == game && entry.play == play && entry.body[..] == *body)
            .then(|| entry.json.clone())
    }

    /// Keeps `json` as the whole answer of this request.
    pub(crate) fn put(&self, key: u64, game: &str, play: bool, body: Bytes, json: String) {
        let entry = Entry {
            game: game.to_owned(),
            play,
            body,
            json,
        };
        let bytes = entry.bytes();
        if bytes > self.max_bytes / 4 {
            return;
        }
        let mut inner = self.inner();
        if inner.bytes + bytes > self.max_bytes {
            inner.entries.clear();
            inner.bytes = 0;
        }
        if let Some(old) = inner.entries.insert(key, entry) {
            inner.bytes -= old.bytes();
        }
        inner.bytes += bytes;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_found_by_the_whole_request_and_the_bytes_are_bounded() {
        let answers = Answers::new(4096);
        let body = Bytes::from_static(b"{\"board\": [\"11\"]}");
        answers.put(7, "clear", false, body.clone(), "{\"grundy\":2}".into());
        assert_eq!(
            answers.get(7, "clear", false, &body).as_deref(),
            Some("{\"grundy\":2}")
        );
        // Another endpoint, game or body under the same hash: not found.
        assert_eq!(answers.get(7, "clear", true, &body), None);
        assert_eq!(answers.get(7, "split", false, &body), None);
        assert_eq!(
            answers.get(7, "clear", false, b"{\"board\": [\"1\"]}"),
            None
        );
        assert_eq!(answers.get(8, "clear", false, &body), None);
        // Past the bytes, the set starts over; an entry over a quarter of
        // them is not kept.
        for key in 100..200 {
            answers.put(key, "clear", false, body.clone(), "x".repeat(100));
            assert!(answers.inner().bytes <= 4096);
        }
        answers.put(1, "clear", false, body.clone(), "x".repeat(2000));
        assert_eq!(answers.get(1, "clear", false, &body), None);
        let none = Answers::new(0);
        none.put(7, "clear", false, body.clone(), "{}".into());
        assert_eq!(none.get(7, "clear", false, &body), None);
    }
}
