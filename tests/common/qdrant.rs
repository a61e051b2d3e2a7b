//! A real Qdrant server for the remote-store tests, named by `PAGETREE_TEST_QDRANT_URL`
//! (its gRPC address), and a TCP proxy to put in front of it.
//!
//! `TcpProxy` is a test double for the network, not for Qdrant: every byte it passes
//! comes from and goes to the real server; it can only delay them or cut the line.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

pub const URL_VARIABLE: &str = "PAGETREE_TEST_QDRANT_URL";
/// The server's API key, when it was started with one.
pub const KEY_VARIABLE: &str = "PAGETREE_TEST_QDRANT_API_KEY";

pub fn server_key() -> Option<String> {
    std::env::var(KEY_VARIABLE)
        .ok()
        .filter(|key| !key.trim().is_empty())
}

/// The server's URL. The tests that call this are `#[ignore]`d; run without the
/// variable, they fail and say what to set.
pub fn server_url() -> String {
    match std::env::var(URL_VARIABLE) {
        Ok(url) if !url.trim().is_empty() => url.trim().to_string(),
        _ => panic!(
            "set {URL_VARIABLE} to a Qdrant server's gRPC address (e.g. http://127.0.0.1:6334) to run this test"
        ),
    }
}

/// `host:port` of an `http://host:port` URL.
fn authority(url: &str) -> String {
    let rest = url.split("://").nth(1).unwrap_or(url);
    rest.trim_end_matches('/').to_string()
}

pub struct TcpProxy {
    pub url: String,
    up: Arc<AtomicBool>,
    delay_ms: Arc<AtomicU64>,
    connections: Arc<Mutex<Vec<JoinHandle<()>>>>,
    accept: JoinHandle<()>,
}

impl TcpProxy {
    pub async fn start(server_url: &str) -> Self {
        let upstream = authority(server_url);
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("proxy port");
        let address: SocketAddr = listener.local_addr().expect("proxy address");
        let up = Arc::new(AtomicBool::new(true));
        let delay_ms = Arc::new(AtomicU64::new(0));
        let connections: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let accept = {
            let (up, delay_ms, connections) = (
                Arc::clone(&up),
                Arc::clone(&delay_ms),
                Arc::clone(&connections),
            );
            tokio::spawn(async move {
                while let Ok((client, _)) = listener.accept().await {
                    if !up.load(Ordering::SeqCst) {
                        drop(client);
                        continue;
                    }
                    let Ok(server) = TcpStream::connect(&upstream).await else {
                        continue;
                    };
                    let delay_ms = Arc::clone(&delay_ms);
                    let handle = tokio::spawn(pipe(client, server, delay_ms));
                    connections.lock().expect("connections").push(handle);
                }
            })
        };
        Self {
            url: format!("http://{address}"),
            up,
            delay_ms,
            connections,
            accept,
        }
    }

    /// Drops every open connection and refuses new ones until [`restore`].
    pub fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        for handle in self.connections.lock().expect("connections").drain(..) {
            handle.abort();
        }
    }

    pub fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }

    /// Holds every chunk of bytes this long before passing it on.
    pub fn slow_down(&self, delay: Duration) {
        self.delay_ms.store(
            u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
            Ordering::SeqCst,
        );
    }
}

impl Drop for TcpProxy {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}

async fn pipe(client: TcpStream, server: TcpStream, delay_ms: Arc<AtomicU64>) {
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let upstream = copy(client_read, server_write, Arc::clone(&delay_ms));
    let downstream = copy(server_read, client_write, delay_ms);
    tokio::select! {
        _ = upstream => {}
        _ = downstream => {}
    }
}

async fn copy(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    delay_ms: Arc<AtomicU64>,
) {
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let read = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        let delay = delay_ms.load(Ordering::SeqCst);
        if delay > 0 {
            tokio::time::sleep(Duration::from_millis(delay)).await;
        }
        if to.write_all(&buffer[..read]).await.is_err() {
            return;
        }
    }
}
