//! The engine's errors in the CLI's words: where an error has a remedy, the flag or
//! command that applies it (the app names its Settings instead).

use pagetree::library::LibraryError;

/// `err` as the CLI shows it, with what to run about it when the engine knows a remedy.
pub fn error(err: &pagetree::Error) -> String {
    match remedy(err) {
        Some(remedy) => format!("{err}; {remedy}"),
        None => err.to_string(),
    }
}

/// Like [`error`], for an error of the CLI's own that may wrap an engine error: the
/// whole chain, then the engine's remedy.
pub fn chain(err: &anyhow::Error) -> String {
    let remedy = err
        .chain()
        .find_map(|cause| cause.downcast_ref::<pagetree::Error>())
        .and_then(remedy);
    match remedy {
        Some(remedy) => format!("{err:#}; {remedy}"),
        None => format!("{err:#}"),
    }
}

fn remedy(err: &pagetree::Error) -> Option<String> {
    let pagetree::Error::Library(err) = err else {
        return None;
    };
    Some(match err {
        LibraryError::NoLlm => "set its URL and model (flags --llm-url/--llm-model or PAGETREE_LLM_URL/PAGETREE_LLM_MODEL)".to_string(),
        LibraryError::StoreElsewhere { requested, .. } => {
            format!("to move them there, run `pagetree migrate --to-remote {requested}`")
        }
        LibraryError::ModelChangeRemote(_) => {
            "`pagetree migrate --to-embedded` moves it here, and `reindex --model` changes the model".to_string()
        }
        LibraryError::ModelMismatch { requested, .. } => {
            format!("`pagetree reindex --model {}` does that", requested.id())
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_model_names_the_flags() {
        let said = error(&LibraryError::NoLlm.into());
        assert!(
            said.starts_with("the language model is not configured; "),
            "{said}"
        );
        assert!(said.contains("--llm-url"), "{said}");
    }

    #[test]
    fn a_wrapped_engine_error_keeps_its_context_and_remedy() {
        let err = anyhow::Error::new(pagetree::Error::from(LibraryError::StoreElsewhere {
            current: "this computer".into(),
            requested: "http://qdrant:6334".into(),
        }))
        .context("cannot open the library");
        let said = chain(&err);
        assert!(said.starts_with("cannot open the library: "), "{said}");
        assert!(
            said.ends_with("run `pagetree migrate --to-remote http://qdrant:6334`"),
            "{said}"
        );
    }
}
