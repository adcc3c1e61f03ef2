//! Each client's turns at the small lane: at most
//! [`Config::probes_per_client`](crate::Config::probes_per_client) of one
//! client's requests wait for the small lane or run in it at once; its
//! others wait here, behind them. The small lane's own queue is first in,
//! first out, and every search new to the server is probed there first
//! (the crate comment), so without turns a burst of new heavy requests
//! from one client would queue its probes ahead of everyone's small
//! searches. With them, another client's small search waits behind at
//! most that many probes of each client, each bounded by the probe
//! budget.
//!
//! A client's semaphore lives in the map while a request holds or awaits
//! one of its permits, and is removed by the last of them, under the
//! map's lock, so the map holds only the clients with requests in flight
//! (bounded by the server's cap on connections).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::error::ApiError;
use crate::server::Client;
use crate::{busy, lock};

/// The turns of every client with a request at the small lane.
pub(crate) struct Turns {
    per_client: usize,
    clients: Mutex<HashMap<Client, Arc<Semaphore>>>,
}

impl Turns {
    pub(crate) fn new(per_client: usize) -> Turns {
        Turns {
            per_client: per_client.max(1),
            clients: Mutex::new(HashMap::new()),
        }
    }

    /// `client`'s turn, waiting until `deadline` at most (503 after).
    pub(crate) async fn wait(
        self: &Arc<Self>,
        client: Client,
        deadline: Instant,
    ) -> Result<Turn, ApiError> {
        let semaphore = lock(&self.clients)
            .entry(client)
            .or_insert_with(|| Arc::new(Semaphore::new(self.per_client)))
            .clone();
        // From here on, dropping `turn` (when the wait times out too)
        // gives the client's entry back.
        let mut turn = Turn {
            turns: self.clone(),
            client,
            permit: None,
            semaphore: Some(semaphore.clone()),
        };
        let permit = tokio::time::timeout_at(deadline, semaphore.acquire_owned())
            .await
            .map_err(|_| busy())?
            .map_err(|_| ApiError::internal("the server is shutting down"))?;
        turn.permit = Some(permit);
        Ok(turn)
    }
}

/// A client's turn (or its wait for one), given back when dropped.
pub(crate) struct Turn {
    turns: Arc<Turns>,
    client: Client,
    permit: Option<OwnedSemaphorePermit>,
    semaphore: Option<Arc<Semaphore>>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut clients = lock(&self.turns.clients);
        // Both references go under the lock, so a request taking the
        // client's semaphore meanwhile either sees it removed or keeps it.
        self.permit = None;
        self.semaphore = None;
        if clients
            .get(&self.client)
            .is_some_and(|semaphore| Arc::strong_count(semaphore) == 1)
        {
            clients.remove(&self.client);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn client(last: u8) -> Client {
        crate::server::client_of(std::net::Ipv4Addr::new(127, 0, 0, last).into())
    }

    #[tokio::test]
    async fn a_client_past_its_turns_waits_and_others_do_not() {
        let turns = Arc::new(Turns::new(2));
        let soon = || Instant::now() + Duration::from_millis(50);
        let first = turns.wait(client(2), soon()).await.unwrap();
        let second = turns.wait(client(2), soon()).await.unwrap();
        // A third of the same client's waits for one of the two to end.
        assert!(turns.wait(client(2), soon()).await.is_err());
        // Another client's does not.
        let other = turns.wait(client(3), soon()).await.unwrap();
        drop(first);
        let third = turns.wait(client(2), soon()).await.unwrap();
        drop((second, third, other));
        // Every entry was given back, the timed-out wait's too.
        assert!(lock(&turns.clients).is_empty());
    }
}
