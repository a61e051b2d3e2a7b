//! Language models on this machine: OpenAI-compatible servers already running on their
//! usual ports (Ollama, llama.cpp's `llama-server`, LM Studio), found and listed
//! ([`detect`]), and a model file (.gguf) served by a `llama-server` PageTree starts and
//! stops itself ([`server`]).

pub mod detect;
pub mod server;

pub use detect::{
    context_window, detect_local_servers, learn_context_window, DetectError, LocalServer,
    LocalServerKind,
};
pub use server::{LocalModelServer, LocalServerError, ServerOptions};
