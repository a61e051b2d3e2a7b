//! Dense vectors from a local ONNX sentence model (fastembed over a dynamically loaded
//! ONNX Runtime) and BM25 sparse vectors (Qdrant's own tokenizer and stemmers).

use std::path::Path;
use std::sync::Mutex;

use fastembed::{
    InitOptionsUserDefined, Pooling, TextEmbedding, TokenizerFiles, UserDefinedEmbeddingModel,
};
use qdrant_edge::bm25_embed::{EdgeBm25, EdgeBm25Config};
use qdrant_edge::SparseVector;

use crate::assets::Assets;

pub mod windows;

use windows::WindowSplitter;

/// The window of all-MiniLM-L6-v2; longer inputs are cut by the tokenizer.
pub const MAX_TOKENS: usize = 256;
/// ONNX Runtime's arena grows with the batch: on 3M_2018_10K (160 pages) batch 32 peaked
/// at 1.53 GB and ran at 9.5 pages/s, batch 8 at 545 MB and 10.3 pages/s.
const EMBED_BATCH: usize = 8;

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("ONNX Runtime could not be loaded from {path}: {detail}")]
    Runtime { path: String, detail: String },
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
    model: Mutex<TextEmbedding>,
    splitter: WindowSplitter,
    dimension: usize,
}

impl DenseEmbedder {
    pub fn load(assets: &Assets) -> Result<Self, EmbedError> {
        load_onnxruntime(&assets.onnxruntime_library)?;
        let dir = &assets.model_dir;
        let model_error = |detail: String| EmbedError::Model {
            dir: dir.display().to_string(),
            detail,
        };
        let read = |name: &str| {
            std::fs::read(dir.join(name)).map_err(|e| model_error(format!("{name}: {e}")))
        };
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
        let options = InitOptionsUserDefined::new().with_max_length(MAX_TOKENS);
        let mut model = TextEmbedding::try_new_from_user_defined(model, options)
            .map_err(|e| model_error(e.to_string()))?;
        let probe = model
            .embed(["dimension probe"], None)
            .map_err(|e| model_error(e.to_string()))?;
        let dimension = probe.first().map(Vec::len).unwrap_or(0);
        if dimension == 0 {
            return Err(model_error("the model returned an empty vector".into()));
        }
        Ok(Self {
            model: Mutex::new(model),
            splitter,
            dimension,
        })
    }

    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Cuts a page into the windows its vectors are made from.
    pub fn splitter(&self) -> &WindowSplitter {
        &self.splitter
    }

    /// The vectors of texts cut into windows: one L2-normalised vector per window, in
    /// the same groups. The windows of many texts go to the model together, so that
    /// its batches stay full.
    pub fn embed_grouped(&self, groups: &[Vec<String>]) -> Result<Vec<Vec<Vec<f32>>>, EmbedError> {
        let flat: Vec<String> = groups.iter().flatten().cloned().collect();
        let mut vectors = self.embed(&flat)?.into_iter();
        let grouped = groups
            .iter()
            .map(|group| vectors.by_ref().take(group.len()).collect::<Vec<_>>())
            .collect::<Vec<_>>();
        if grouped.iter().zip(groups).any(|(v, g)| v.len() != g.len()) {
            return Err(EmbedError::Inference(
                "the model returned fewer vectors than texts".into(),
            ));
        }
        Ok(grouped)
    }

    /// L2-normalised sentence vectors, one per text.
    pub fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut model = self
            .model
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

    pub fn embed_document(&self, text: &str) -> SparseVector {
        self.bm25.embed_document(text)
    }

    pub fn embed_query(&self, text: &str) -> SparseVector {
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
