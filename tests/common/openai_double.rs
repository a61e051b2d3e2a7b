//! A test double for an OpenAI-compatible server: it answers every request with one
//! fixed HTTP response (or never answers), so tests can play a broken model server.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

pub enum Behaviour {
    /// A 200 chat completion whose message content is this text.
    Content(String),
    /// This status and raw body.
    Raw(u16, String),
    /// Read the request, then say nothing until the client gives up.
    Hang,
}

/// Starts the double on a free loopback port; it runs until the test's runtime ends.
pub async fn start(behaviour: Behaviour) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    let behaviour = std::sync::Arc::new(behaviour);
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let behaviour = behaviour.clone();
            tokio::spawn(async move {
                read_request(&mut socket).await;
                let (status, body) = match &*behaviour {
                    Behaviour::Hang => {
                        tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
                        return;
                    }
                    Behaviour::Raw(status, body) => (*status, body.clone()),
                    Behaviour::Content(content) => (200, completion(content)),
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
    address
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

async fn read_request(socket: &mut tokio::net::TcpStream) {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let Ok(read) = socket.read(&mut chunk).await else {
            return;
        };
        if read == 0 {
            return;
        }
        buffer.extend_from_slice(&chunk[..read]);
        if let Some(end) = find(&buffer, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buffer[..end]).to_lowercase();
            let length = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|value| value.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if buffer.len() >= end + 4 + length {
                return;
            }
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
