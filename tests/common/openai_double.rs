//! A test double for an OpenAI-compatible server: it answers every request with one
//! fixed HTTP response (or never answers), so tests can play a broken model server.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

pub enum Behaviour {
    /// A 200 chat completion whose message content is this text.
    Content(String),
    /// This status and raw body.
    Raw(u16, String),
    /// Read the request, then say nothing until the client gives up.
    Hang,
    /// A streamed (server-sent events) answer made of these pieces.
    Stream(Vec<String>),
    /// A stream that sends these pieces and then breaks off without finishing.
    StreamThenDrop(Vec<String>),
    /// A stream whose only delta is a refusal with this text.
    Refusal(String),
    /// This status and a body of this many bytes, sent for as long as the client reads.
    Huge(u16, usize),
    /// A stream of one token every so often that never finishes.
    SlowStream(Duration),
    /// A stream whose first `data:` line never ends.
    EndlessLine,
    /// A stream of these raw `data:` values, then the connection closes.
    Events(Vec<String>),
    /// This status, with the request's own headers quoted in an OpenAI error message
    /// (as a proxy that echoes what it was sent does).
    EchoHeaders(u16),
}

/// What the double saw of the client: the bytes of the big bodies it managed to send,
/// and whether the client closed a connection the double was still writing to.
#[derive(Default)]
pub struct Probe {
    pub sent: AtomicUsize,
    pub closed: AtomicBool,
    /// Requests the double has read.
    pub requests: AtomicUsize,
}

impl Probe {
    pub fn sent(&self) -> usize {
        self.sent.load(Ordering::SeqCst)
    }

    /// Waits (up to `patience`) for the client to close the connection.
    pub async fn closed_within(&self, patience: Duration) -> bool {
        let started = std::time::Instant::now();
        while started.elapsed() < patience {
            if self.closed.load(Ordering::SeqCst) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        false
    }
}

/// Starts the double on a free loopback port; it runs until the test's runtime ends.
pub async fn start(behaviour: Behaviour) -> SocketAddr {
    start_probed(behaviour).await.0
}

/// [`start`], with a probe of what the double could send.
pub async fn start_probed(behaviour: Behaviour) -> (SocketAddr, Arc<Probe>) {
    let probe = Arc::new(Probe::default());
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    let behaviour = Arc::new(behaviour);
    let served = probe.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let behaviour = behaviour.clone();
            let probe = served.clone();
            tokio::spawn(async move {
                let head = read_request(&mut socket).await;
                probe.requests.fetch_add(1, Ordering::SeqCst);
                let (status, body) = match &*behaviour {
                    Behaviour::EchoHeaders(status) => (
                        *status,
                        serde_json::json!({"error": {"message": format!("upstream refused: {head}")}})
                            .to_string(),
                    ),
                    Behaviour::Hang => {
                        tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
                        return;
                    }
                    Behaviour::Raw(status, body) => (*status, body.clone()),
                    Behaviour::Content(content) => (200, completion(content)),
                    Behaviour::Stream(pieces) => {
                        stream(&mut socket, pieces, true).await;
                        return;
                    }
                    Behaviour::StreamThenDrop(pieces) => {
                        stream(&mut socket, pieces, false).await;
                        return;
                    }
                    Behaviour::Refusal(text) => {
                        refuse(&mut socket, text).await;
                        return;
                    }
                    Behaviour::Huge(status, bytes) => {
                        let head = format!(
                            "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {bytes}\r\nconnection: close\r\n\r\n"
                        );
                        if socket.write_all(head.as_bytes()).await.is_ok() {
                            endless(&mut socket, &probe, *bytes).await;
                        }
                        return;
                    }
                    Behaviour::SlowStream(every) => {
                        slow_stream(&mut socket, &probe, *every).await;
                        return;
                    }
                    Behaviour::EndlessLine => {
                        let head = format!("{STREAM_HEAD}data: ");
                        if socket.write_all(head.as_bytes()).await.is_ok() {
                            endless(&mut socket, &probe, usize::MAX).await;
                        }
                        return;
                    }
                    Behaviour::Events(events) => {
                        let mut body = STREAM_HEAD.to_string();
                        for event in events {
                            body.push_str(&format!("data: {event}\n\n"));
                        }
                        let _ = socket.write_all(body.as_bytes()).await;
                        let _ = socket.shutdown().await;
                        return;
                    }
                };
                let response = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    (address, probe)
}

const STREAM_HEAD: &str = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n";

/// Sends up to `bytes` of `x` for as long as the client takes them, counting them.
async fn endless(socket: &mut tokio::net::TcpStream, probe: &Probe, bytes: usize) {
    let block = vec![b'x'; 64 * 1024];
    let mut left = bytes;
    while left > 0 {
        let part = &block[..block.len().min(left)];
        if socket.write_all(part).await.is_err() {
            probe.closed.store(true, Ordering::SeqCst);
            return;
        }
        probe.sent.fetch_add(part.len(), Ordering::SeqCst);
        left -= part.len();
    }
    let _ = socket.shutdown().await;
}

async fn slow_stream(socket: &mut tokio::net::TcpStream, probe: &Probe, every: Duration) {
    if socket.write_all(STREAM_HEAD.as_bytes()).await.is_err() {
        return;
    }
    loop {
        let chunk = serde_json::json!({
            "id": "double-1", "object": "chat.completion.chunk", "created": 0, "model": "double",
            "choices": [{"index": 0, "delta": {"content": "and so on "}, "finish_reason": null}]
        });
        let event = format!("data: {chunk}\n\n");
        if socket.write_all(event.as_bytes()).await.is_err() {
            probe.closed.store(true, Ordering::SeqCst);
            return;
        }
        probe.sent.fetch_add(event.len(), Ordering::SeqCst);
        tokio::time::sleep(every).await;
    }
}

async fn stream(socket: &mut tokio::net::TcpStream, pieces: &[String], finish: bool) {
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n";
    if socket.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    for piece in pieces {
        let chunk = serde_json::json!({
            "id": "double-1", "object": "chat.completion.chunk", "created": 0, "model": "double",
            "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]
        });
        if socket
            .write_all(format!("data: {chunk}\n\n").as_bytes())
            .await
            .is_err()
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    if finish {
        let last = serde_json::json!({
            "id": "double-1", "object": "chat.completion.chunk", "created": 0, "model": "double",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]
        });
        let _ = socket
            .write_all(format!("data: {last}\n\ndata: [DONE]\n\n").as_bytes())
            .await;
    } else {
        // Half an event, then the connection goes away.
        let _ = socket
            .write_all(b"data: {\"id\": \"double-1\", \"choi")
            .await;
    }
    let _ = socket.shutdown().await;
}

async fn refuse(socket: &mut tokio::net::TcpStream, text: &str) {
    let chunk = serde_json::json!({
        "id": "double-1", "object": "chat.completion.chunk", "created": 0, "model": "double",
        "choices": [{"index": 0, "delta": {"refusal": text}, "finish_reason": "stop"}]
    });
    let body = format!("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\ndata: {chunk}\n\ndata: [DONE]\n\n");
    let _ = socket.write_all(body.as_bytes()).await;
    let _ = socket.shutdown().await;
}

pub fn completion(content: &str) -> String {
    serde_json::json!({
        "id": "double-1",
        "object": "chat.completion",
        "created": 0,
        "model": "double",
        "choices": [{
            "index": 0,
            "finish_reason": "stop",
            "message": {"role": "assistant", "content": content}
        }],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    })
    .to_string()
}

/// Reads one request whole; returns its head (request line and headers).
async fn read_request(socket: &mut tokio::net::TcpStream) -> String {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let Ok(read) = socket.read(&mut chunk).await else {
            return String::new();
        };
        if read == 0 {
            return String::new();
        }
        buffer.extend_from_slice(&chunk[..read]);
        if let Some(end) = find(&buffer, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).into_owned();
            let length = head
                .to_lowercase()
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|value| value.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if buffer.len() >= end + 4 + length {
                return head;
            }
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
