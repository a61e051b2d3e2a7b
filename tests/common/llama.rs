//! Starts a real llama-server (llama.cpp's OpenAI-compatible server) with the small
//! SmolLM2 model that scripts/setup.sh installs. scripts/build-llama-server.sh builds it.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct LlamaServer {
    child: Child,
    pub base_url: String,
}

impl Drop for LlamaServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn binary() -> PathBuf {
    if let Some(path) = std::env::var_os("PAGETREE_LLAMA_SERVER") {
        return PathBuf::from(path);
    }
    let cache = std::env::var_os("PAGETREE_CACHE")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/pagetree"))
        })
        .expect("a home folder");
    cache.join("bin/llama-server")
}

pub fn model() -> PathBuf {
    let assets = pagetree::assets::Assets::locate(None, None)
        .expect("assets are installed (scripts/setup.sh)");
    let root = assets
        .pdfium_library
        .parent()
        .and_then(|p| p.parent())
        .expect("assets root")
        .to_path_buf();
    root.join("llm/SmolLM2-135M-Instruct.Q4_1.gguf")
}

impl LlamaServer {
    pub fn start() -> Self {
        let binary = binary();
        assert!(
            binary.exists(),
            "{} is missing: run scripts/build-llama-server.sh (the LLM tests need a real server)",
            binary.display()
        );
        let model = model();
        assert!(
            model.exists(),
            "{} is missing: run scripts/setup.sh",
            model.display()
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(&binary)
            .arg("-m")
            .arg(&model)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--ctx-size",
                "4096",
                "--parallel",
                "2",
                "--threads",
                "2",
                "--alias",
                "smollm2",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("llama-server starts");
        let server = Self {
            child,
            base_url: format!("http://127.0.0.1:{port}/v1"),
        };
        server.wait_until_healthy(port);
        server
    }

    fn wait_until_healthy(&self, port: u16) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while Instant::now() < deadline {
            if let Ok(response) = health(port) {
                if response.contains(" 200 ") {
                    return;
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        panic!("llama-server did not become healthy within 120 s");
    }
}

fn health(port: u16) -> std::io::Result<String> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(2)))?;
    stream.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    Ok(response)
}
