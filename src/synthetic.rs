//! Synthetic libraries for scale benchmarks: random unit vectors of the model's
//! dimension, BM25-like sparse vectors drawn from a Zipf word distribution, and trees of
//! width 4 over documents of 20–400 pages, written straight into a library. A page's
//! text in the catalog is the words its sparse vector counts, and a question holds its
//! query's words, so that a search ranks documents by their whole text as it does in a
//! real library.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, StandardNormal, Zipf};

use crate::describe::Description;
use crate::error::Result;
use crate::library::Library;
use crate::ocr::PageOcr;
use crate::pdf::PageText;
use crate::store::{IndexedNode, QueryVectors, Sparse};
use crate::tree::{add_parent, leaves, tree_shape};

pub const VOCABULARY: usize = 50_000;
const TERMS_PER_NODE: usize = 40;

pub struct Generator {
    rng: StdRng,
    zipf: Zipf<f64>,
    dimension: usize,
}

impl Generator {
    pub fn new(seed: u64, dimension: usize) -> Result<Self, String> {
        Ok(Self {
            rng: StdRng::seed_from_u64(seed),
            // Word frequencies in text follow Zipf's law with an exponent near 1.
            zipf: Zipf::new(VOCABULARY as f64, 1.07).map_err(|e| e.to_string())?,
            dimension,
        })
    }

    pub fn unit_vector(&mut self) -> Vec<f32> {
        let mut v: Vec<f32> = (0..self.dimension)
            .map(|_| StandardNormal.sample(&mut self.rng))
            .collect();
        let norm = v
            .iter()
            .map(|x| x * x)
            .sum::<f32>()
            .sqrt()
            .max(f32::MIN_POSITIVE);
        v.iter_mut().for_each(|x| *x /= norm);
        v
    }

    pub fn sparse(&mut self, terms: usize) -> Sparse {
        let mut counts: std::collections::BTreeMap<u32, f32> = std::collections::BTreeMap::new();
        for _ in 0..terms {
            let term = self.zipf.sample(&mut self.rng) as u32;
            *counts.entry(term).or_default() += 1.0;
        }
        Sparse {
            indices: counts.keys().copied().collect(),
            values: counts.values().copied().collect(),
        }
    }

    pub fn query(&mut self) -> QueryVectors {
        QueryVectors {
            dense: self.unit_vector(),
            sparse: self.sparse(8),
        }
    }

    /// A query and the question it stands for: the words its sparse vector counts.
    pub fn question(&mut self) -> (String, QueryVectors) {
        let query = self.query();
        (words_of(&query.sparse), query)
    }

    pub fn pages(&mut self) -> usize {
        self.rng.random_range(20..=400)
    }

    /// One document's tree (width 4), every node with random vectors.
    pub fn document(&mut self, doc_id: i64, file_name: &str, pages: usize) -> Vec<IndexedNode> {
        let blank = Description {
            description: String::new(),
            keywords: Vec::new(),
        };
        let mut nodes = leaves(doc_id, file_name, vec![blank; pages]);
        for parents in tree_shape(pages, 4) {
            for children in &parents {
                add_parent(&mut nodes, children, String::new(), None);
            }
        }
        nodes
            .into_iter()
            .map(|node| IndexedNode {
                node,
                dense: vec![self.unit_vector()],
                sparse: self.sparse(TERMS_PER_NODE),
            })
            .collect()
    }

    /// As [`Generator::document`], with continuous sparse weights as BM25's are: raw
    /// term counts tie, and the engine orders equal similarities its own way where a
    /// search orders them by id, so tests that compare the two need no ties.
    #[cfg(test)]
    pub fn document_without_ties(
        &mut self,
        doc_id: i64,
        file_name: &str,
        pages: usize,
    ) -> Vec<IndexedNode> {
        let mut nodes = self.document(doc_id, file_name, pages);
        for node in &mut nodes {
            for (i, value) in node.sparse.values.iter_mut().enumerate() {
                *value *= 1.0 + ((node.node.id as usize * 31 + i) % 997) as f32 / 1000.0;
            }
        }
        nodes
    }
}

/// The words a sparse vector counts, each as often as it counts it: "term17 term17 term4".
fn words_of(sparse: &Sparse) -> String {
    let mut words = Vec::new();
    for (term, count) in sparse.indices.iter().zip(&sparse.values) {
        for _ in 0..count.round().max(1.0) as usize {
            words.push(format!("term{term}"));
        }
    }
    words.join(" ")
}

/// The pages of a synthetic document as the catalog stores them: each leaf's words.
pub fn page_texts(nodes: &[IndexedNode]) -> Vec<PageText> {
    nodes
        .iter()
        .filter(|indexed| indexed.node.is_leaf())
        .map(|indexed| PageText {
            number: indexed.node.page_start,
            text: words_of(&indexed.sparse),
            has_text: true,
            ocr: PageOcr::NotNeeded,
            label: None,
        })
        .collect()
}

/// Nodes written between two optimizations while a synthetic library is built, as a
/// library filled batch by batch is optimized after each batch. The engine's growing
/// segment keeps its sparse index in a form whose writes slow down sharply past about
/// 200k points (from about 1,000 nodes/s to 150); optimizing moves its points into an
/// indexed segment. 1M nodes make 8 such segments, as many as the store keeps before
/// it merges (see `store::edge`).
const OPTIMIZE_EVERY: usize = 125_000;

/// Fills `library` with synthetic documents until it holds at least `target_nodes`
/// nodes, optimizing the index every [`OPTIMIZE_EVERY`] nodes; returns (documents,
/// nodes).
pub async fn populate(
    library: &Library,
    generator: &mut Generator,
    target_nodes: usize,
) -> Result<(usize, usize)> {
    let store = library.store().await?;
    let mut nodes_written = 0;
    let mut since_optimize = 0;
    let mut documents = 0;
    while nodes_written < target_nodes {
        if since_optimize >= OPTIMIZE_EVERY {
            store.optimize().await?;
            since_optimize = 0;
        }
        let pages = generator.pages();
        let name = format!("synthetic-{documents:05}.pdf");
        let record = library
            .catalog()
            .begin_document(&format!("synthetic-{documents}"), &name, &name)
            .await?;
        let nodes = generator.document(record.id, &name, pages);
        let count = nodes.len();
        let texts = page_texts(&nodes);
        store.upsert(nodes).await?;
        library.catalog().save_pages(record.id, &texts, &[]).await?;
        library
            .catalog()
            .set_page_count(record.id, pages as u32)
            .await?;
        library
            .catalog()
            .mark_ready(record.id, count, "synthetic", None)
            .await?;
        nodes_written += count;
        since_optimize += count;
        documents += 1;
    }
    store.flush().await?;
    Ok((documents, nodes_written))
}

/// What `bench-scale` measures on one synthetic library.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ScaleReport {
    pub documents: usize,
    pub nodes: usize,
    /// The folder already held a synthetic library, which was searched as it was
    /// (build and optimize times are then zero).
    pub reused: bool,
    pub build_seconds: f64,
    pub optimize_seconds: f64,
    pub open_seconds: f64,
    pub index_bytes: u64,
    pub peak_memory_bytes: Option<u64>,
    pub queries: usize,
    pub median_query_embedding_ms: f64,
    pub strategies: Vec<ScaleStrategy>,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct ScaleStrategy {
    pub strategy: crate::search::Strategy,
    pub median_ms: f64,
    pub p95_ms: f64,
    /// Median of the whole search call but the query embedding: finding the
    /// searchable documents in the catalog and assembling the context as well.
    pub whole_median_ms: f64,
    pub mean_store_queries: f64,
    pub ratio_to_flat: f64,
}

/// Bytes `path` really takes on disk, recursively: the index preallocates sparse files,
/// so apparent sizes would overstate it several times.
pub fn folder_size(path: &std::path::Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(path) else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok())
        .map(|entry| match entry.metadata() {
            Ok(meta) if meta.is_dir() => folder_size(&entry.path()),
            Ok(meta) => meta.blocks() * 512,
            Err(_) => 0,
        })
        .sum()
}

/// The process's peak resident memory (Linux), from /proc/self/status.
pub fn peak_memory_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Builds a synthetic library of about `nodes` nodes in `root`, reopens it, and times
/// every tree strategy on `queries` random queries (the query embedding is timed apart,
/// on real questions, since random vectors need none).
pub async fn bench_scale(
    root: &std::path::Path,
    options: crate::library::OpenOptions,
    nodes: usize,
    queries: usize,
    seed: u64,
    settings: &crate::search::SearchSettings,
) -> Result<ScaleReport> {
    use crate::search::Strategy;
    use std::time::Instant;

    let (documents, written, reused, build_seconds, optimize_seconds) = {
        let (library, _) = Library::open(root, options.clone()).await?;
        let existing = library.documents().await?;
        if !existing.is_empty() {
            let nodes = existing
                .iter()
                .map(|d| d.node_count.unwrap_or(0) as usize)
                .sum();
            (existing.len(), nodes, true, 0.0, 0.0)
        } else {
            let dimension = library.dense().await?.dimension();
            let mut generator =
                Generator::new(seed, dimension).map_err(crate::library::LibraryError::Settings)?;
            let started = Instant::now();
            let (documents, written) = populate(&library, &mut generator, nodes).await?;
            let build_seconds = started.elapsed().as_secs_f64();
            let started = Instant::now();
            library.store().await?.optimize().await?;
            (
                documents,
                written,
                false,
                build_seconds,
                started.elapsed().as_secs_f64(),
            )
        }
    };

    let started = Instant::now();
    let (library, _) = Library::open(root, options).await?;
    library.store().await?;
    let open_seconds = started.elapsed().as_secs_f64();

    let mut embed_times = Vec::new();
    for question in SAMPLE_QUESTIONS {
        let started = Instant::now();
        library.embed_query(question).await?;
        embed_times.push(started.elapsed().as_secs_f64() * 1e3);
    }

    let dimension = library.dense().await?.dimension();
    let mut generator =
        Generator::new(seed ^ 0x5eed, dimension).map_err(crate::library::LibraryError::Settings)?;
    let questions: Vec<(String, QueryVectors)> =
        (0..queries).map(|_| generator.question()).collect();
    let strategies: Vec<Strategy> = Strategy::all_defaults()
        .into_iter()
        .filter(|s| !s.needs_llm())
        .collect();
    let mut timings: Vec<Timing> = Vec::new();
    for strategy in strategies {
        let mut times = Vec::with_capacity(queries);
        let mut whole_times = Vec::with_capacity(queries);
        let mut store_queries = 0usize;
        for (question, query) in &questions {
            let started = Instant::now();
            let result = library
                .search_with_query(question, query, 0.0, &strategy, settings)
                .await?;
            whole_times.push(started.elapsed().as_secs_f64() * 1e3);
            times.push(result.search_ms);
            store_queries += result.store_queries;
        }
        timings.push(Timing {
            strategy,
            times,
            whole_times,
            mean_store_queries: store_queries as f64 / queries.max(1) as f64,
        });
    }
    let flat_median = timings
        .iter()
        .find(|t| matches!(t.strategy, Strategy::Flat { .. }))
        .map(|t| crate::eval::percentile(&t.times, 0.5))
        .unwrap_or(0.0);
    Ok(ScaleReport {
        documents,
        nodes: written,
        reused,
        build_seconds,
        optimize_seconds,
        open_seconds,
        index_bytes: folder_size(root),
        peak_memory_bytes: peak_memory_bytes(),
        queries,
        median_query_embedding_ms: crate::eval::percentile(&embed_times, 0.5),
        strategies: timings
            .into_iter()
            .map(|timing| {
                let median = crate::eval::percentile(&timing.times, 0.5);
                ScaleStrategy {
                    strategy: timing.strategy,
                    median_ms: median,
                    p95_ms: crate::eval::percentile(&timing.times, 0.95),
                    whole_median_ms: crate::eval::percentile(&timing.whole_times, 0.5),
                    mean_store_queries: timing.mean_store_queries,
                    ratio_to_flat: if flat_median > 0.0 {
                        median / flat_median
                    } else {
                        0.0
                    },
                }
            })
            .collect(),
    })
}

/// One strategy's searches in `bench_scale`.
struct Timing {
    strategy: crate::search::Strategy,
    /// The tree search alone, as `SearchResult::search_ms`.
    times: Vec<f64>,
    /// Everything but the query embedding: the catalog lookups and the context too.
    whole_times: Vec<f64>,
    mean_store_queries: f64,
}

const SAMPLE_QUESTIONS: [&str; 8] = [
    "What was 3M's FY2018 capital expenditure?",
    "How did Boeing's revenue change from 2021 to 2022?",
    "Which region had the highest EBITDAR contribution for MGM during FY2022?",
    "What is the nature and purpose of AMCOR's restructuring liability?",
    "Does Foot Locker's new CEO have previous CEO experience?",
    "What are Netflix's total current liabilities at year end FY2017?",
    "How much does Pfizer expect to pay to spin off Upjohn?",
    "What industry does Amcor primarily operate in?",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{check_invariants, Node};

    #[test]
    fn synthetic_documents_are_valid_trees_with_unit_vectors() {
        let mut generator = Generator::new(1, 16).expect("generator");
        for pages in [1, 2, 5, 37] {
            let indexed = generator.document(3, "s.pdf", pages);
            let nodes: Vec<Node> = indexed.iter().map(|n| n.node.clone()).collect();
            check_invariants(&nodes, pages as u32).expect("a valid tree");
            for node in &indexed {
                let norm: f32 = node.dense[0].iter().map(|x| x * x).sum::<f32>().sqrt();
                assert!((norm - 1.0).abs() < 1e-4);
                assert!(
                    node.sparse.indices.windows(2).all(|w| w[0] < w[1]),
                    "sorted, unique terms"
                );
            }
        }
        assert!((20..=400).contains(&generator.pages()));
    }

    #[test]
    fn every_page_has_the_words_of_its_sparse_vector_and_a_question_those_of_its_query() {
        let mut generator = Generator::new(2, 16).expect("generator");
        let indexed = generator.document(3, "s.pdf", 5);
        let texts = page_texts(&indexed);
        let numbers: Vec<u32> = texts.iter().map(|page| page.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5]);
        for (page, leaf) in texts
            .iter()
            .zip(indexed.iter().filter(|n| n.node.is_leaf()))
        {
            let words = page.text.split(' ').count() as f32;
            assert_eq!(words, leaf.sparse.values.iter().sum::<f32>());
            let first = format!("term{}", leaf.sparse.indices[0]);
            assert!(page.text.split(' ').any(|word| word == first));
        }
        let (question, query) = generator.question();
        let asked: std::collections::BTreeSet<String> =
            question.split(' ').map(str::to_string).collect();
        let counted: std::collections::BTreeSet<String> = query
            .sparse
            .indices
            .iter()
            .map(|term| format!("term{term}"))
            .collect();
        assert_eq!(asked, counted);
    }
}
