//! Dense vectors from a local sentence model — all-MiniLM-L6-v2 or any ONNX model
//! (fastembed over a dynamically loaded ONNX Runtime), multilingual-e5-small (its own C
//! engine), or the two together — and BM25 sparse vectors (Qdrant's own tokenizer and
//! stemmers).

use std::path::Path;
use std::sync::{Arc, Mutex};

use fastembed::{
    InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel,
};
use qdrant_edge::bm25_embed::{EdgeBm25, EdgeBm25Config};
use qdrant_edge::SparseVector;

use crate::assets::Assets;

pub mod e5;
pub mod pair;
pub mod windows;

use e5::{E5Engine, TextRole};
use windows::WindowSplitter;

/// The model that makes a library's dense vectors. A library keeps the model it was
/// made with: vectors of two models cannot be compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum DenseModel {
    /// all-MiniLM-L6-v2, or the ONNX model in the folder a run names: English only,
    /// 256 tokens.
    #[serde(rename = "minilm")]
    MiniLm,
    /// multilingual-e5-small, 4-bit: about a hundred languages, 512 tokens (a page that
    /// fits is read whole, a longer one by its first 128, see [`e5::PAGE_WINDOW_TOKENS`]).
    #[serde(rename = "e5-small")]
    E5Small,
    /// Both: each passage's vector is e5's and MiniLM's side by side, and an English
    /// question weighs MiniLM's similarity in (see [`pair`]); a question in another
    /// language is ranked by e5 alone.
    #[serde(rename = "e5-small+minilm")]
    E5SmallMiniLm,
}

impl DenseModel {
    pub const ALL: [DenseModel; 3] = [
        DenseModel::MiniLm,
        DenseModel::E5Small,
        DenseModel::E5SmallMiniLm,
    ];

    /// The name a person types (`--model e5-small`) and settings store.
    pub fn id(self) -> &'static str {
        match self {
            DenseModel::MiniLm => "minilm",
            DenseModel::E5Small => "e5-small",
            DenseModel::E5SmallMiniLm => "e5-small+minilm",
        }
    }

    /// The model's own name.
    pub fn label(self) -> &'static str {
        match self {
            DenseModel::MiniLm => "all-MiniLM-L6-v2",
            DenseModel::E5Small => "multilingual-e5-small",
            DenseModel::E5SmallMiniLm => "multilingual-e5-small + all-MiniLM-L6-v2",
        }
    }
}

impl std::fmt::Display for DenseModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

impl std::str::FromStr for DenseModel {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase();
        DenseModel::ALL
            .into_iter()
            .find(|model| model.id() == wanted || model.label().to_ascii_lowercase() == wanted)
            .ok_or_else(|| {
                format!(
                    "unknown embedding model `{text}`; the models are {}",
                    DenseModel::ALL.map(DenseModel::id).join(", ")
                )
            })
    }
}

/// The window of all-MiniLM-L6-v2; longer inputs are cut by the tokenizer.
pub(crate) const MAX_TOKENS: usize = 256;
/// ONNX Runtime's arena grows with the batch: a larger batch took several times the
/// memory and ran no faster.
const EMBED_BATCH: usize = 8;

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("ONNX Runtime could not be loaded from {path}: {detail}")]
    Runtime { path: String, detail: String },
    /// The e5 engine setup.sh compiled will not load here: another machine's build, a
    /// newer C library's, or a damaged file.
    #[error(
        "the multilingual-e5-small engine could not be loaded from {path}: {detail}. \
         `bash scripts/setup.sh` builds it again for this machine"
    )]
    Engine { path: String, detail: String },
    #[error(transparent)]
    Missing(#[from] crate::assets::AssetError),
    #[error("the embedding model in {dir} could not be loaded: {detail}")]
    Model { dir: String, detail: String },
    #[error("embedding failed: {0}")]
    Inference(String),
    #[error("the embedding model's tokenizer failed: {0}")]
    Tokenizer(String),
    #[error("the BM25 settings are not usable: {0}")]
    Bm25(String),
}

pub struct DenseEmbedder {
    backend: Backend,
    splitter: WindowSplitter,
    dimension: usize,
    model: DenseModel,
}

enum Backend {
    Onnx(Box<Mutex<TextEmbedding>>),
    E5(Arc<E5Engine>),
    Pair {
        e5: Arc<E5Engine>,
        minilm: Box<Mutex<TextEmbedding>>,
        minilm_dimension: usize,
    },
}

/// What one node's dense vectors are made from: the windows the model reads, one vector
/// each, and the whole text (the card's short form and the page), which MiniLM reads to
/// its own window when it is half of a pair.
#[derive(Debug, Clone, PartialEq)]
pub struct DenseTexts {
    pub windows: Vec<String>,
    pub whole: String,
}

/// Whether a question can be read by all-MiniLM-L6-v2: English only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionLanguage {
    English,
    Other,
}

impl QuestionLanguage {
    /// From the BM25 stemmer language a question was detected in.
    pub fn of_stemmer(language: &str) -> Self {
        if language.eq_ignore_ascii_case("english") {
            QuestionLanguage::English
        } else {
            QuestionLanguage::Other
        }
    }
}

impl DenseEmbedder {
    pub fn load(assets: &Assets, model: DenseModel) -> Result<Self, EmbedError> {
        match model {
            DenseModel::MiniLm => Self::load_onnx(assets),
            DenseModel::E5Small => Self::load_e5(assets),
            DenseModel::E5SmallMiniLm => Self::load_pair(assets),
        }
    }

    /// e5 and MiniLM side by side. MiniLM's ONNX Runtime threads do not spin after a
    /// run: spinning, they held the cores the e5 engine needed next, and a question took
    /// twice as long.
    fn load_pair(assets: &Assets) -> Result<Self, EmbedError> {
        let files = assets.e5()?;
        let engine = Arc::new(E5Engine::load(&files.library, &files.model)?);
        let (minilm, _, minilm_dimension) = load_minilm(assets, false)?;
        Ok(Self {
            dimension: engine.dimension() + minilm_dimension,
            splitter: WindowSplitter::for_e5(Arc::clone(&engine)),
            backend: Backend::Pair {
                e5: engine,
                minilm: Box::new(Mutex::new(minilm)),
                minilm_dimension,
            },
            model: DenseModel::E5SmallMiniLm,
        })
    }

    fn load_e5(assets: &Assets) -> Result<Self, EmbedError> {
        let files = assets.e5()?;
        let engine = Arc::new(E5Engine::load(&files.library, &files.model)?);
        Ok(Self {
            dimension: engine.dimension(),
            splitter: WindowSplitter::for_e5(Arc::clone(&engine)),
            backend: Backend::E5(engine),
            model: DenseModel::E5Small,
        })
    }

    fn load_onnx(assets: &Assets) -> Result<Self, EmbedError> {
        let (model, splitter, dimension) = load_minilm(assets, true)?;
        Ok(Self {
            backend: Backend::Onnx(Box::new(Mutex::new(model))),
            splitter,
            dimension,
            model: DenseModel::MiniLm,
        })
    }

    pub fn model(&self) -> DenseModel {
        self.model
    }

    pub(crate) fn dimension(&self) -> usize {
        self.dimension
    }

    /// Cuts a page into the windows its vectors are made from.
    pub(crate) fn splitter(&self) -> &WindowSplitter {
        &self.splitter
    }

    /// The vectors of texts cut into windows: one L2-normalised vector per window, in
    /// the same groups. The windows of many texts go to the model together, so that
    /// its batches stay full.
    pub(crate) fn embed_grouped(
        &self,
        groups: &[DenseTexts],
    ) -> Result<Vec<Vec<Vec<f32>>>, EmbedError> {
        let flat: Vec<String> = groups.iter().flat_map(|g| g.windows.clone()).collect();
        let (vectors, wholes) = match &self.backend {
            Backend::Pair { e5, minilm, .. } => {
                let wholes: Vec<String> = groups.iter().map(|g| g.whole.clone()).collect();
                let (vectors, wholes) = side_by_side(
                    || e5.embed(&flat, TextRole::Passage),
                    || embed_onnx(minilm, &wholes),
                )?;
                (vectors, Some(wholes))
            }
            _ => (self.embed(&flat, TextRole::Passage)?, None),
        };
        let mut vectors = vectors.into_iter();
        let mut grouped = groups
            .iter()
            .map(|group| {
                vectors
                    .by_ref()
                    .take(group.windows.len())
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        if grouped
            .iter()
            .zip(groups)
            .any(|(v, g)| v.len() != g.windows.len())
            || wholes.as_ref().is_some_and(|w| w.len() != groups.len())
        {
            return Err(EmbedError::Inference(
                "the model returned fewer vectors than texts".into(),
            ));
        }
        if let Some(wholes) = wholes {
            for (windows, whole) in grouped.iter_mut().zip(&wholes) {
                for window in windows.iter_mut() {
                    *window = pair::passage(window, whole);
                }
            }
        }
        Ok(grouped)
    }

    /// A question's vector. With e5 and MiniLM together, MiniLM's half counts for an
    /// English question only (see [`pair::question`]); the two models run at once.
    pub fn embed_question(
        &self,
        question: &str,
        language: QuestionLanguage,
    ) -> Result<Vec<f32>, EmbedError> {
        let texts = [question.to_string()];
        let first = |vectors: Vec<Vec<f32>>| vectors.into_iter().next().unwrap_or_default();
        match &self.backend {
            Backend::Pair {
                e5,
                minilm,
                minilm_dimension,
            } => {
                let (e5_vector, minilm_vector) = side_by_side(
                    || e5.embed(&texts, TextRole::Query),
                    || match language {
                        QuestionLanguage::English => embed_onnx(minilm, &texts).map(Some),
                        QuestionLanguage::Other => Ok(None),
                    },
                )?;
                let minilm_vector = minilm_vector.map(first);
                Ok(pair::question(
                    &first(e5_vector),
                    minilm_vector.as_deref(),
                    *minilm_dimension,
                ))
            }
            _ => self.embed(&texts, TextRole::Query).map(first),
        }
    }

    /// L2-normalised sentence vectors, one per text.
    fn embed(&self, texts: &[String], role: TextRole) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        match &self.backend {
            Backend::E5(engine) => engine.embed(texts, role),
            Backend::Onnx(model) => embed_onnx(model, texts),
            Backend::Pair { .. } => Err(EmbedError::Inference(
                "a pair of models embeds through embed_grouped or embed_question".into(),
            )),
        }
    }
}

/// Runs two embeddings at once (the e5 engine on its own thread, MiniLM on this one).
fn side_by_side<A: Send, B>(
    first: impl FnOnce() -> Result<A, EmbedError> + Send,
    second: impl FnOnce() -> Result<B, EmbedError>,
) -> Result<(A, B), EmbedError> {
    std::thread::scope(|scope| {
        let first = scope.spawn(first);
        let second = second();
        let first = first
            .join()
            .map_err(|_| EmbedError::Inference("an embedding thread panicked".into()))?;
        Ok((first?, second?))
    })
}

/// L2-normalised vectors from the ONNX model, one per text.
fn embed_onnx(model: &Mutex<TextEmbedding>, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
    if texts.is_empty() {
        return Ok(Vec::new());
    }
    let mut model = model
        .lock()
        .map_err(|_| EmbedError::Inference("the embedding model lock was poisoned".into()))?;
    let mut vectors = model
        .embed(texts, Some(EMBED_BATCH))
        .map_err(|e| EmbedError::Inference(e.to_string()))?;
    for vector in &mut vectors {
        normalise(vector);
    }
    Ok(vectors)
}

/// all-MiniLM-L6-v2 (or the ONNX model of the model folder), its window splitter and its
/// dimension. `spin`: whether ONNX Runtime's threads keep spinning after a run, which
/// is fastest when nothing else needs the cores.
fn load_minilm(
    assets: &Assets,
    spin: bool,
) -> Result<(TextEmbedding, WindowSplitter, usize), EmbedError> {
    load_onnxruntime(&assets.onnxruntime_library)?;
    let dir = &assets.model_dir;
    let model_error = |detail: String| EmbedError::Model {
        dir: dir.display().to_string(),
        detail,
    };
    let read =
        |name: &str| std::fs::read(dir.join(name)).map_err(|e| model_error(format!("{name}: {e}")));
    let tokenizer_json = read("tokenizer.json")?;
    let splitter = WindowSplitter::new(&tokenizer_json, MAX_TOKENS)?;
    let tokenizer_files = TokenizerFiles {
        tokenizer_file: tokenizer_json,
        config_file: read("config.json")?,
        special_tokens_map_file: read("special_tokens_map.json")?,
        tokenizer_config_file: read("tokenizer_config.json")?,
    };
    let model = UserDefinedEmbeddingModel::new(read("model.onnx")?, tokenizer_files)
        .with_pooling(Pooling::Mean);
    let mut options = InitOptionsUserDefined::new().with_max_length(MAX_TOKENS);
    if !spin {
        options = options.with_session_config("session.intra_op.allow_spinning", "0");
    }
    let mut model = TextEmbedding::try_new_from_user_defined(model, options)
        .map_err(|e| model_error(e.to_string()))?;
    let probe = model
        .embed(["dimension probe"], None)
        .map_err(|e| model_error(e.to_string()))?;
    let dimension = probe.first().map(Vec::len).unwrap_or(0);
    if dimension == 0 {
        return Err(model_error("the model returned an empty vector".into()));
    }
    Ok((model, splitter, dimension))
}

fn load_onnxruntime(library: &Path) -> Result<(), EmbedError> {
    ort::init_from(library)
        .map(|_| ())
        .map_err(|err| EmbedError::Runtime {
            path: library.display().to_string(),
            detail: err.to_string(),
        })
}

fn normalise(vector: &mut [f32]) {
    let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        vector.iter_mut().for_each(|x| *x /= norm);
    }
}

/// BM25 term weights; the IDF half of BM25 is applied by Qdrant at query time
/// (the sparse vector's IDF modifier), so document vectors carry term frequencies only.
pub struct SparseEmbedder {
    bm25: EdgeBm25,
}

impl SparseEmbedder {
    /// `language` is a Qdrant stemmer/stopword language such as "english", "russian" or "spanish".
    pub fn new(language: &str) -> Result<Self, EmbedError> {
        let config = EdgeBm25Config {
            language: Some(language.to_string()),
            ..Default::default()
        };
        let bm25 = EdgeBm25::new(config).map_err(|e| EmbedError::Bm25(e.to_string()))?;
        Ok(Self { bm25 })
    }

    pub(crate) fn embed_document(&self, text: &str) -> SparseVector {
        self.bm25.embed_document(text)
    }

    pub(crate) fn embed_query(&self, text: &str) -> SparseVector {
        self.bm25.embed_query(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bm25_stems_english_and_rejects_unknown_languages() {
        let english = SparseEmbedder::new("english").expect("english is supported");
        let plural = english.embed_query("eruptions");
        let singular = english.embed_query("eruption");
        assert_eq!(plural.indices, singular.indices);
        assert!(SparseEmbedder::new("klingon").is_err());
    }

    #[test]
    fn file_names_split_into_words_a_question_can_match() {
        let english = SparseEmbedder::new("english").expect("english");
        let file = english.embed_document("3M_2018_10K.pdf");
        for word in ["3M", "2018", "10K"] {
            let query = english.embed_query(word);
            assert!(
                query.indices.iter().all(|i| file.indices.contains(i)),
                "{word}"
            );
        }
    }

    #[test]
    fn bm25_handles_russian() {
        let russian = SparseEmbedder::new("russian").expect("russian is supported");
        let document = russian.embed_document("Озеро Байкал самое глубокое озеро");
        assert!(!document.indices.is_empty());
    }

    #[test]
    fn normalise_gives_unit_length() {
        let mut v = vec![3.0, 4.0];
        normalise(&mut v);
        assert!((v[0] - 0.6).abs() < 1e-6 && (v[1] - 0.8).abs() < 1e-6);
    }
}
