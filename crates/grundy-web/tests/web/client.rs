//! A small HTTP/1.1 client on hyper for the API tests and the `load`
//! example (which includes this file): one keep-alive connection to a
//! loopback server, requests sent one after another, a new connection when
//! the server has closed the old one. Plain hyper rather than a client crate
//! such as reqwest, whose URL handling (`url`, `idna` and the ICU tables)
//! cost the workspace's test build about a minute of CPU for requests to
//! 127.0.0.1.

use std::net::SocketAddr;

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
pub use hyper::Method;
use hyper_util::rt::TokioIo;

/// What came back: the status, the `content-type` and the whole body.
pub struct Response {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as text (lossy: the tests compare with ASCII).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// A connection to one server, opened on first use and again after the
/// server closes it.
pub struct Client {
    addr: SocketAddr,
    sender: Option<SendRequest<Full<Bytes>>>,
}

/// Any failure: connecting, sending, or reading the answer.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

impl Client {
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, sender: None }
    }

    async fn sender(&mut self) -> Result<&mut SendRequest<Full<Bytes>>, Error> {
        if let Some(sender) = &mut self.sender {
            if sender.ready().await.is_err() {
                self.sender = None;
            }
        }
        if self.sender.is_none() {
            let stream = tokio::net::TcpStream::connect(self.addr).await?;
            let (sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
            tokio::spawn(connection);
            self.sender = Some(sender);
        }
        Ok(self.sender.as_mut().expect("connected above"))
    }

    /// Sends `method path` with `body` as JSON and reads the whole answer.
    pub async fn send(
        &mut self,
        method: Method,
        path: &str,
        body: Vec<u8>,
    ) -> Result<Response, Error> {
        let request = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header("host", self.addr.to_string())
            .header("content-type", "application/json")
            .body(Full::new(Bytes::from(body)))?;
        let response = self.sender().await?.send_request(request).await;
        let response = match response {
            Ok(response) => response,
            Err(err) => {
                self.sender = None;
                return Err(err.into());
            }
        };
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let body = response.into_body().collect().await?.to_bytes().to_vec();
        Ok(Response {
            status,
            content_type,
            body,
        })
    }
}
