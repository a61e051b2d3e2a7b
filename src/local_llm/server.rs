//! A model file (.gguf) served by llama.cpp's `llama-server`, started by PageTree on
//! 127.0.0.1 on a free port and stopped with it: when the [`LocalModelServer`] is
//! dropped or stopped, and, should PageTree itself die, by the kernel (the server asks
//! to be killed when its parent goes). Its output goes to the log.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::llm::LlmSettings;

/// The binary PageTree runs: `PAGETREE_LLAMA_SERVER`, else `bin/llama-server` among the
/// assets (the package carries it there), else the one `scripts/build-llama-server.sh`
/// caches.
pub const BINARY_ENV: &str = "PAGETREE_LLAMA_SERVER";
const BINARY_IN_ASSETS: &str = "bin/llama-server";

/// Tokens of context asked of the server for one answer. The app's answers send the
/// pages found within the token budget, the conversation so far and up to 700 tokens of
/// answer; a dozen filing pages came to some 13,600 tokens, so 16,384 it is. The server
/// holds no more than its model was trained with (8,192 for SmolLM2), and the pages sent
/// are cut to what it reports (see [`LlmSettings::context_tokens`]).
pub const DEFAULT_CONTEXT_TOKENS: u32 = 16_384;

/// How long loading a model may take: a few seconds for a small one, a minute or more
/// for several gigabytes read from a slow disk.
pub const DEFAULT_STARTUP_TIMEOUT: Duration = Duration::from_secs(180);

/// Lines of the server's output kept to say why it stopped.
const TAIL_LINES: usize = 30;

/// Free ports are found by binding and letting go; another process may take one in
/// between, so a server that could not bind is started again on another, this often.
const PORT_ATTEMPTS: usize = 3;

#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// The .gguf model file.
    pub model: PathBuf,
    /// The `llama-server` to run; found as [`BINARY_ENV`] says when None.
    pub binary: Option<PathBuf>,
    /// The assets folder the app was given (its `bin/` is searched first).
    pub assets_dir: Option<PathBuf>,
    pub context_tokens: u32,
    pub startup_timeout: Duration,
}

impl ServerOptions {
    pub fn new(model: impl Into<PathBuf>) -> Self {
        Self {
            model: model.into(),
            binary: None,
            assets_dir: None,
            context_tokens: DEFAULT_CONTEXT_TOKENS,
            startup_timeout: DEFAULT_STARTUP_TIMEOUT,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LocalServerError {
    #[error("the model file {} does not exist", path.display())]
    ModelMissing { path: PathBuf },
    #[error("the model file {} cannot be read: {source}", path.display())]
    ModelUnreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a GGUF model file (a .gguf file starts with the bytes GGUF); llama.cpp runs GGUF models only", path.display())]
    NotGguf { path: PathBuf },
    #[error(
        "llama.cpp's llama-server was not found (looked in: {looked_in}); set {BINARY_ENV} to \
         it, or run scripts/build-llama-server.sh from the PageTree sources"
    )]
    BinaryMissing { looked_in: String },
    #[error("llama-server ({}) could not be started: {source}", binary.display())]
    Spawn {
        binary: PathBuf,
        source: std::io::Error,
    },
    #[error("no free port on 127.0.0.1 for llama-server: {0}")]
    NoPort(std::io::Error),
    #[error("llama-server stopped ({status}) before it was ready for {}; its last words: {tail}", model.display())]
    Exited {
        model: PathBuf,
        status: String,
        tail: String,
    },
    #[error("llama-server was not ready for {} within {seconds} s (it was stopped); its last words: {tail}", model.display())]
    NotReady {
        model: PathBuf,
        seconds: u64,
        tail: String,
    },
}

/// A running `llama-server` serving one model file; stopped when dropped.
pub struct LocalModelServer {
    model: PathBuf,
    name: String,
    port: u16,
    pid: u32,
    context_tokens: u32,
    process: Arc<Process>,
    watcher: Option<std::thread::JoinHandle<()>>,
}

/// What the server's thread and its owner share.
struct Process {
    child: Mutex<Option<Child>>,
    exited: Mutex<Option<ExitStatus>>,
    tail: Mutex<VecDeque<String>>,
}

impl Process {
    fn exited(&self) -> Option<ExitStatus> {
        *lock(&self.exited)
    }

    fn tail(&self) -> String {
        let tail = lock(&self.tail);
        let lines: Vec<&str> = tail
            .iter()
            .rev()
            .take(6)
            .rev()
            .map(String::as_str)
            .collect();
        if lines.is_empty() {
            "(nothing)".to_string()
        } else {
            lines.join(" | ")
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl LocalModelServer {
    /// Checks the model file, starts `llama-server` with it on a free port of
    /// 127.0.0.1 and waits until it answers `/health`, at most `startup_timeout`.
    pub async fn start(options: ServerOptions) -> Result<Self, LocalServerError> {
        check_model_file(&options.model)?;
        let binary = match &options.binary {
            Some(binary) => binary.clone(),
            None => locate_binary(options.assets_dir.as_deref())?,
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            match Self::start_once(&binary, &options).await {
                Err(LocalServerError::Exited { tail, .. })
                    if attempt < PORT_ATTEMPTS && tail.contains("bind") =>
                {
                    tracing::info!(%tail, "llama-server could not take its port; trying another");
                }
                other => return other,
            }
        }
    }

    async fn start_once(binary: &Path, options: &ServerOptions) -> Result<Self, LocalServerError> {
        let port = free_port().map_err(LocalServerError::NoPort)?;
        let name = model_name(&options.model);
        let mut command = Command::new(binary);
        command
            .arg("--model")
            .arg(&options.model)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--ctx-size", &options.context_tokens.to_string()])
            // One answer at a time, each with the whole context.
            .args(["--parallel", "1"])
            .args(["--alias", &name])
            .arg("--no-webui")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
        unsafe {
            command.pre_exec(|| {
                // Killed with the thread that started it, which lives as long as the
                // server or PageTree: a PageTree that dies leaves no server behind.
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let process = Arc::new(Process {
            child: Mutex::new(None),
            exited: Mutex::new(None),
            tail: Mutex::new(VecDeque::new()),
        });
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let watcher = {
            let process = process.clone();
            let for_thread = binary.to_path_buf();
            std::thread::Builder::new()
                .name(format!("llama-server:{port}"))
                .spawn(move || watch(command, for_thread, process, started_tx))
                .map_err(|source| LocalServerError::Spawn {
                    binary: binary.to_path_buf(),
                    source,
                })?
        };
        let pid = match started_rx.recv() {
            Ok(Ok(pid)) => pid,
            Ok(Err(err)) => {
                let _ = watcher.join();
                return Err(err);
            }
            Err(_) => {
                let _ = watcher.join();
                return Err(LocalServerError::Spawn {
                    binary: binary.to_path_buf(),
                    source: std::io::Error::other("the thread that starts it ended"),
                });
            }
        };
        tracing::info!(pid, port, model = %options.model.display(), "llama-server started");
        let mut server = Self {
            model: options.model.clone(),
            name,
            port,
            pid,
            context_tokens: options.context_tokens,
            process,
            watcher: Some(watcher),
        };
        server.wait_until_ready(options.startup_timeout).await?;
        // llama-server holds no more than the model was trained with, whatever it was
        // asked for: the window answers are fitted to is the one it reports.
        if let Some(window) = server.reported_context().await {
            server.context_tokens = window;
        }
        tracing::info!(
            pid,
            port,
            context_tokens = server.context_tokens,
            "llama-server ready"
        );
        Ok(server)
    }

    /// Polls `/health` until the model is loaded; the server is stopped (by drop) when
    /// it exits first or takes too long.
    async fn wait_until_ready(&self, timeout: Duration) -> Result<(), LocalServerError> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(2))
            .no_proxy()
            .build()
            .map_err(|err| LocalServerError::Spawn {
                binary: PathBuf::from("llama-server"),
                source: std::io::Error::other(err),
            })?;
        let health = format!("http://127.0.0.1:{}/health", self.port);
        let started = Instant::now();
        loop {
            if let Some(status) = self.process.exited() {
                return Err(LocalServerError::Exited {
                    model: self.model.clone(),
                    status: status.to_string(),
                    tail: self.process.tail(),
                });
            }
            if let Ok(response) = http.get(&health).send().await {
                if response.status().is_success() {
                    return Ok(());
                }
            }
            if started.elapsed() >= timeout {
                return Err(LocalServerError::NotReady {
                    model: self.model.clone(),
                    seconds: timeout.as_secs(),
                    tail: self.process.tail(),
                });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The context of one answer, as the server's `/props` reports it.
    async fn reported_context(&self) -> Option<u32> {
        let props: serde_json::Value = reqwest::Client::builder()
            .timeout(Duration::from_secs(5))
            .no_proxy()
            .build()
            .ok()?
            .get(format!("http://127.0.0.1:{}/props", self.port))
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        let window = props
            .get("default_generation_settings")?
            .get("n_ctx")?
            .as_u64()?;
        u32::try_from(window).ok().filter(|&window| window > 0)
    }

    /// e.g. `http://127.0.0.1:41234/v1`
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// The name the server answers to: the model file's name without `.gguf`.
    pub fn model_name(&self) -> &str {
        &self.name
    }

    pub fn model_file(&self) -> &Path {
        &self.model
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn pid(&self) -> u32 {
        self.pid
    }

    pub fn context_tokens(&self) -> u32 {
        self.context_tokens
    }

    /// Whether the server is still running.
    pub fn is_running(&self) -> bool {
        self.process.exited().is_none()
    }

    /// Settings that send PageTree's requests to this server, with its context size.
    pub fn llm_settings(&self) -> LlmSettings {
        let mut settings = LlmSettings::new(self.base_url(), self.name.clone());
        settings.context_tokens = Some(self.context_tokens as usize);
        settings
    }

    /// Stops the server and waits until it is gone.
    pub fn stop(mut self) {
        self.kill();
    }

    fn kill(&mut self) {
        if let Some(child) = lock(&self.process.child).as_mut() {
            // Killing a process already waited for sends nothing (std checks), so a
            // recycled pid is never hit.
            if let Err(err) = child.kill() {
                tracing::debug!(error = %err, "llama-server was already gone");
            }
        }
        if let Some(watcher) = self.watcher.take() {
            let _ = watcher.join();
        }
        tracing::info!(pid = self.pid, "llama-server stopped");
    }
}

impl Drop for LocalModelServer {
    fn drop(&mut self) {
        if self.watcher.is_some() {
            self.kill();
        }
    }
}

impl std::fmt::Debug for LocalModelServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalModelServer")
            .field("model", &self.model)
            .field("port", &self.port)
            .field("pid", &self.pid)
            .finish_non_exhaustive()
    }
}

/// Starts the server, reports its pid (or why not), logs its output until it closes,
/// then waits for it. This thread is the server's parent for the kernel: it lives until
/// the server has exited.
fn watch(
    mut command: Command,
    binary: PathBuf,
    process: Arc<Process>,
    started: std::sync::mpsc::Sender<Result<u32, LocalServerError>>,
) {
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(source) => {
            let _ = started.send(Err(LocalServerError::Spawn { binary, source }));
            return;
        }
    };
    let stderr = child.stderr.take();
    let pid = child.id();
    *lock(&process.child) = Some(child);
    let _ = started.send(Ok(pid));
    if let Some(stderr) = stderr {
        log_lines(stderr, pid, &process);
    }
    // The output closed: the server is ending (or was killed). Reaped under the lock, so
    // that a kill never races the reaping, and polled, so that a kill is never kept
    // waiting by a server that closed its output and lives on.
    loop {
        let polled = match lock(&process.child).as_mut() {
            Some(child) => child.try_wait(),
            None => return,
        };
        match polled {
            Ok(Some(status)) => {
                tracing::info!(pid, %status, "llama-server exited");
                *lock(&process.exited) = Some(status);
                return;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(err) => {
                tracing::warn!(pid, error = %err, "llama-server could not be waited for");
                return;
            }
        }
    }
}

/// The server's output, line by line, to the log; the last lines kept for errors.
fn log_lines(stderr: impl Read, pid: u32, process: &Process) {
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        let line = line.trim_end().to_string();
        if line.is_empty() {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        if lower.contains("error") || lower.contains("failed") {
            tracing::warn!(target: "llama_server", pid, "{line}");
        } else {
            tracing::debug!(target: "llama_server", pid, "{line}");
        }
        let mut tail = lock(&process.tail);
        if tail.len() == TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

/// A file that exists and starts with the GGUF magic bytes.
pub fn check_model_file(path: &Path) -> Result<(), LocalServerError> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Err(LocalServerError::ModelMissing {
                path: path.to_path_buf(),
            })
        }
        Err(source) => {
            return Err(LocalServerError::ModelUnreadable {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let unreadable = |source| LocalServerError::ModelUnreadable {
        path: path.to_path_buf(),
        source,
    };
    if !file.metadata().map_err(unreadable)?.is_file() {
        return Err(LocalServerError::NotGguf {
            path: path.to_path_buf(),
        });
    }
    let mut magic = [0u8; 4];
    match file.read_exact(&mut magic) {
        Ok(()) if &magic == b"GGUF" => Ok(()),
        Ok(()) => Err(LocalServerError::NotGguf {
            path: path.to_path_buf(),
        }),
        Err(err) if err.kind() == std::io::ErrorKind::UnexpectedEof => {
            Err(LocalServerError::NotGguf {
                path: path.to_path_buf(),
            })
        }
        Err(source) => Err(unreadable(source)),
    }
}

/// Where `llama-server` is: [`BINARY_ENV`], `bin/llama-server` in the assets folders,
/// then the build script's cache.
pub fn locate_binary(assets_dir: Option<&Path>) -> Result<PathBuf, LocalServerError> {
    let mut candidates = Vec::new();
    if let Some(path) = std::env::var_os(BINARY_ENV).filter(|path| !path.is_empty()) {
        candidates.push(PathBuf::from(path));
    }
    candidates.extend(
        crate::assets::candidate_roots(assets_dir)
            .into_iter()
            .map(|root| root.join(BINARY_IN_ASSETS)),
    );
    let cache = std::env::var_os("PAGETREE_CACHE")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| directories::BaseDirs::new().map(|dirs| dirs.cache_dir().join("pagetree")));
    if let Some(cache) = cache {
        candidates.push(cache.join("bin").join("llama-server"));
    }
    candidates
        .iter()
        .find(|path| path.is_file())
        .cloned()
        .ok_or_else(|| LocalServerError::BinaryMissing {
            looked_in: candidates
                .iter()
                .map(|path| path.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The name a model is asked for by: its file name without `.gguf`.
fn model_name(path: &Path) -> String {
    let file = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "local-model".to_string());
    // A comma would split it into several aliases.
    file.strip_suffix(".gguf")
        .or_else(|| file.strip_suffix(".GGUF"))
        .unwrap_or(&file)
        .replace(',', "_")
}

fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_is_named_after_its_file() {
        assert_eq!(
            model_name(Path::new("/m/SmolLM2-135M-Instruct.Q4_1.gguf")),
            "SmolLM2-135M-Instruct.Q4_1"
        );
        assert_eq!(model_name(Path::new("/m/model.bin")), "model.bin");
        assert_eq!(model_name(Path::new("/m/a,b.gguf")), "a_b");
    }

    #[test]
    fn only_a_gguf_file_is_taken() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = dir.path().join("none.gguf");
        assert!(matches!(
            check_model_file(&missing),
            Err(LocalServerError::ModelMissing { .. })
        ));
        let short = dir.path().join("short.gguf");
        std::fs::write(&short, b"GG").expect("written");
        assert!(matches!(
            check_model_file(&short),
            Err(LocalServerError::NotGguf { .. })
        ));
        assert!(matches!(
            check_model_file(dir.path()),
            Err(LocalServerError::NotGguf { .. })
        ));
        let good = dir.path().join("good.gguf");
        std::fs::write(&good, b"GGUF\x03\0\0\0").expect("written");
        check_model_file(&good).expect("a GGUF header");
    }
}
