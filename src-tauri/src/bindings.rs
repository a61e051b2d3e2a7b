//! The TypeScript types of everything the app and its UI send each other (command
//! arguments and results, event payloads), generated from the Rust types into
//! `ui/src/bindings.ts` so that the two cannot drift apart. The test fails when that
//! file is not what the types make today; to rewrite it:
//!
//! ```sh
//! PAGETREE_WRITE_BINDINGS=1 cargo test -p pagetree-app bindings
//! ```

#[cfg(test)]
mod tests {
    use std::path::Path;

    use ts_rs::{Config, TS};

    const HEADER: &str =
        "// Generated from the Rust types by src-tauri/src/bindings.rs: do not edit.\n\
// PAGETREE_WRITE_BINDINGS=1 cargo test -p pagetree-app bindings rewrites it.\n";

    /// Every type the UI reads or sends, dependencies included, in one file.
    fn declarations() -> String {
        // serde_json writes 64-bit integers as plain JSON numbers, which JSON.parse
        // reads as `number`, never as `bigint` (ids stay far below 2^53).
        let cfg = Config::new().with_large_int("number");
        let mut out = String::from(HEADER);
        macro_rules! declare {
            ($($ty:ty),* $(,)?) => {$(
                out.push('\n');
                if let Some(docs) = <$ty as TS>::docs() {
                    out.push_str(&docs);
                }
                out.push_str("export ");
                out.push_str(&<$ty as TS>::decl(&cfg));
                out.push('\n');
            )*};
        }
        use pagetree::{card, catalog, chat, embed, history, ingest, search, statements, store};
        declare!(
            catalog::DocumentStatus,
            card::DocumentKind,
            card::CardField,
            card::CardSource,
            card::DocumentCard,
            catalog::DocumentRecord,
            catalog::PageLabel,
            pagetree::tree::Node,
            crate::commands::library::DocumentTree,
            search::Strategy,
            store::FusionMethod,
            store::Fusion,
            search::SectionScoring,
            search::SearchSettings,
            store::ScoredNode,
            search::TraceStep,
            search::SelectedNode,
            search::ContextPage,
            search::Context,
            statements::FinancialStatement,
            search::SearchResult,
            card::question::QuestionAnalysis,
            crate::commands::search::CompareResult,
            search::OutlineNode,
            search::OutlineDocument,
            history::GoldPage,
            chat::citations::Citation,
            chat::citations::CheckedAnswer,
            chat::layout::BoxRect,
            chat::layout::PassageBoxes,
            chat::extractive::Passage,
            chat::numbers::NumberCheck,
            chat::ask::AskOutcome,
            history::AnswerRecord,
            history::RunKind,
            history::RunRecord,
            crate::app_settings::QdrantMode,
            store::remote::ClusterSettings,
            crate::app_settings::StrategyDefaults,
            embed::DenseModel,
            crate::app_settings::AppSettings,
            crate::key_warnings::KeyWarnings,
            crate::llm::ConnectionTest,
            pagetree::local_llm::LocalServerKind,
            pagetree::local_llm::LocalServer,
            crate::local_model::LocalModelState,
            crate::local_model::LocalModelStatus,
            pagetree::assets::PinnedAsset,
            crate::about::About,
            ingest::Stage,
            crate::ingest_queue::IngestProgress<'static>,
            crate::ingest_queue::IngestFinished,
            crate::ingest_queue::QueuedFile,
            crate::ingest_queue::IngestQueued,
            crate::commands::search::AskToken<'static>,
            crate::Dropped,
            crate::Drag,
            crate::downloads::Saved,
        );
        out
    }

    #[test]
    fn ui_bindings_are_current() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings.ts");
        let generated = declarations();
        if std::env::var_os("PAGETREE_WRITE_BINDINGS").is_some() {
            std::fs::write(&path, &generated).expect("write ui/src/bindings.ts");
            return;
        }
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            current == generated,
            "ui/src/bindings.ts is not what the Rust types make today; rewrite it with \
             `PAGETREE_WRITE_BINDINGS=1 cargo test -p pagetree-app bindings`"
        );
    }
}
