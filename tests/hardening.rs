//! A hostile run's findings (issue 46), one test each: a key a server echoes, a disk
//! that fills mid-ingest, a model server that never answers or never stops, empty
//! questions, and the small ones (stale writers, colour codes, the describer recorded,
//! file modes).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use common::openai_double::{self, Behaviour};
use common::{fixture, text};
use pagetree::ingest::{Progress, Stage};

/// The API key every test here hands the model: what must never show.
const KEY: &str = "sk-test-Zq81hV0cR4nd0mK3yNeverShown";

/// Runs the CLI on `library` with `OPENAI_API_KEY` set to [`KEY`], off the runtime so
/// that the test's model double keeps serving.
async fn cli(library: &Path, args: &[&str]) -> Output {
    let library = library.to_path_buf();
    let args: Vec<String> = args.iter().map(|arg| arg.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_pagetree"))
            .arg("--library")
            .arg(&library)
            .args(&args)
            .env_remove("PAGETREE_LLM_URL")
            .env_remove("PAGETREE_LOG")
            .env("OPENAI_API_KEY", KEY)
            .output()
            .expect("the pagetree binary runs")
    })
    .await
    .expect("the CLI ran")
}

fn url(address: std::net::SocketAddr) -> String {
    format!("http://{address}/v1")
}

fn said(output: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr)
    )
}

/// Every document of `library` as `docs --json` shows it.
async fn docs(library: &Path) -> Vec<serde_json::Value> {
    let output = cli(library, &["docs", "--json"]).await;
    assert!(output.status.success(), "{}", said(&output));
    serde_json::from_slice(&output.stdout).expect("docs --json is JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_a_server_echoes_is_printed_logged_and_stored_nowhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = dir.path().join("library");

    // A catalog written before keys were hidden holds one in a warning and a failed run.
    drop(common::open_library(&library).await);
    let catalog = pagetree::Library::open_catalog(&library)
        .await
        .expect("a new catalog");
    let leaked = format!("HTTP 401: Incorrect API key provided: Bearer {KEY}");
    sqlx::query(
        "INSERT INTO documents (content_hash, name, file_name, path, status, warnings, error) \
         VALUES ('old', 'old', 'old.pdf', '/nowhere/old.pdf', 'failed', ?, ?)",
    )
    .bind(&leaked)
    .bind(&leaked)
    .execute(catalog.pool())
    .await
    .expect("an old row");
    sqlx::query(
        "INSERT INTO runs (kind, question, settings, selected, pages, trace, status, error) \
         VALUES ('ask', 'old question', '{}', '[]', '[]', '[]', 'failed', ?)",
    )
    .bind(&leaked)
    .execute(catalog.pool())
    .await
    .expect("an old run");
    drop(catalog);

    // OpenAI's own wording for a wrong key quotes it; a proxy may echo its headers.
    let refusing = openai_double::start(Behaviour::Raw(
        401,
        format!(r#"{{"error":{{"message":"Incorrect API key provided: Bearer {KEY}","type":"invalid_request_error"}}}}"#),
    ))
    .await;
    let echoing = openai_double::start(Behaviour::EchoHeaders(500)).await;

    let multipage = fixture("multipage.pdf").display().to_string();
    let ingest = cli(
        &library,
        &["-v", "--llm-url", &url(refusing), "ingest", &multipage],
    )
    .await;
    let spanish = fixture("spanish.pdf").display().to_string();
    let ingest_echo = cli(
        &library,
        &["-v", "--llm-url", &url(echoing), "ingest", &spanish],
    )
    .await;
    let ask = cli(
        &library,
        &[
            "-v",
            "--llm-url",
            &url(echoing),
            "ask",
            "How does a turbofan work?",
        ],
    )
    .await;
    let ask_refused = cli(
        &library,
        &[
            "--llm-url",
            &url(refusing),
            "ask",
            "How does a turbofan work?",
        ],
    )
    .await;
    for output in [&ingest, &ingest_echo, &ask, &ask_refused] {
        let shown = said(output);
        assert!(!shown.contains(KEY), "the key is printed:\n{shown}");
        assert!(
            !shown.contains("Zq81hV0"),
            "part of the key is printed:\n{shown}"
        );
    }
    // The server's words are still there, with the key hidden.
    assert!(
        text(&ingest.stderr).contains("Incorrect API key provided: Bearer ***"),
        "{}",
        said(&ingest)
    );
    assert!(
        text(&ask.stderr).contains("upstream refused") && text(&ask.stderr).contains("***"),
        "{}",
        said(&ask)
    );
    assert!(!ask.status.success(), "{}", said(&ask));

    let history = cli(&library, &["history", "export", "--format", "json"]).await;
    let listing = cli(&library, &["docs", "--json"]).await;
    for output in [&history, &listing] {
        assert!(output.status.success(), "{}", said(output));
        let shown = said(output);
        assert!(!shown.contains(KEY), "the key is stored:\n{shown}");
        assert!(
            !shown.contains("Zq81hV0"),
            "part of the key is stored:\n{shown}"
        );
    }
    let listed = text(&listing.stdout);
    assert!(
        listed.contains("Bearer ***"),
        "the old row was scrubbed, not dropped: {listed}"
    );
    let catalog = pagetree::Library::open_catalog(&library)
        .await
        .expect("catalog");
    let dump: Vec<String> = sqlx::query_scalar(
        "SELECT coalesce(warnings, '') || coalesce(error, '') FROM documents \
         UNION ALL SELECT coalesce(error, '') FROM runs",
    )
    .fetch_all(catalog.pool())
    .await
    .expect("rows");
    assert!(dump.iter().all(|row| !row.contains("Zq81hV0")), "{dump:?}");
}

/// Fills the disk holding the library once the document's points are written and
/// before the index saves them: the engine's flush is what runs out of room.
struct FillsTheDisk {
    filler: PathBuf,
    filled: std::sync::atomic::AtomicBool,
}

impl Progress for FillsTheDisk {
    fn stage(&self, _: &str, stage: Stage, done: usize, total: usize) {
        if stage != Stage::Indexing || done < total || total == 0 {
            return;
        }
        if self.filled.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        fill(&self.filler);
    }
}

/// Writes `path` until the disk refuses another byte.
fn fill(path: &Path) {
    use std::io::Write;
    let mut file = std::fs::File::create(path).expect("filler");
    for size in [1 << 20, 4096, 512, 1] {
        let block = vec![0u8; size];
        while file.write_all(&block).is_ok() && file.flush().is_ok() {}
    }
}

/// A tmpfs of `megabytes` mounted on a new folder, unmounted when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(megabytes: u32) -> Result<Self, String> {
        let dir = tempfile::tempdir().map_err(|err| err.to_string())?;
        let output = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={megabytes}m,mode=0700"),
                "tmpfs",
            ])
            .arg(dir.path())
            .output()
            .map_err(|err| format!("mount cannot run: {err}"))?;
        if !output.status.success() {
            return Err(format!(
                "mount -t tmpfs failed: {}",
                text(&output.stderr).trim()
            ));
        }
        Ok(Self { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disk_that_fills_mid_ingest_is_an_error_and_the_document_is_recorded_failed() {
    let tmpfs = match Tmpfs::mount(160) {
        Ok(tmpfs) => tmpfs,
        Err(why) => {
            eprintln!(
                "SKIPPED: a full disk needs a small tmpfs, and this machine gives none ({why})"
            );
            return;
        }
    };
    eprintln!("running on a 160 MB tmpfs at {}", tmpfs.path().display());
    let root = tmpfs.path().join("library");
    let filler = tmpfs.path().join("filler");
    let library = common::open_library(&root).await;
    let progress = FillsTheDisk {
        filler: filler.clone(),
        filled: Default::default(),
    };
    let err = library
        .ingest(&fixture("multipage.pdf"), &progress)
        .await
        .expect_err("no room to save the index");
    assert!(
        progress.filled.load(std::sync::atomic::Ordering::SeqCst),
        "the disk was filled"
    );
    let message = err.to_string();
    assert!(
        matches!(err, pagetree::Error::Disk(_)),
        "a full disk is said as such: {message}"
    );
    assert!(
        message.contains("PageTree needs about") && message.contains("MB"),
        "the message says how much room is needed: {message}"
    );
    let documents = library.documents().await.expect("listed");
    assert_eq!(documents.len(), 1, "{documents:?}");
    assert_eq!(
        documents[0].status,
        pagetree::catalog::DocumentStatus::Failed,
        "recorded failed, not left ingesting: {documents:?}"
    );
    assert_eq!(documents[0].error.as_deref(), Some(message.as_str()));
    // Closing the index on a full disk fails to save too: an error, not a panic.
    drop(library);

    std::fs::remove_file(&filler).expect("room again");
    let library = common::open_library(&root).await;
    let (document, _, _) = common::added(common::ingest_fixture(&library, "multipage.pdf").await);
    assert_eq!(document.status, pagetree::catalog::DocumentStatus::Ready);
    let hits = library
        .search_recorded(
            "turbofan thrust",
            &pagetree::search::Strategy::Flat { k: 3 },
            &Default::default(),
        )
        .await
        .expect("searchable");
    assert!(!hits.selected.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_server_that_fails_is_given_up_on_for_the_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (silent, silent_probe) = openai_double::start_probed(Behaviour::Hang).await;
    let (endless, endless_probe) =
        openai_double::start_probed(Behaviour::SlowStream(Duration::from_millis(500))).await;
    let multipage = fixture("multipage.pdf").display().to_string();
    let spanish = fixture("spanish.pdf").display().to_string();
    let cyrillic = fixture("cyrillic.pdf").display().to_string();

    // A server that accepts and never answers, with the default timeout: the first
    // request waits it out, and everything after is described offline at once.
    let library = dir.path().join("silent");
    let ingest = cli(
        &library,
        &["--llm-url", &url(silent), "ingest", &multipage, &spanish],
    )
    .await;
    let shown = said(&ingest);
    assert_eq!(
        ingest.status.code(),
        Some(3),
        "fell back, and says so:\n{shown}"
    );
    assert!(shown.contains("2 added"), "{shown}");
    assert!(
        shown.contains("the language model was given up on for this run")
            && shown.contains("did not answer within"),
        "{shown}"
    );
    assert_eq!(
        silent_probe
            .requests
            .load(std::sync::atomic::Ordering::SeqCst),
        2,
        "one request waited out and one look at the model list, none after them:\n{shown}"
    );
    for document in docs(&library).await {
        assert_eq!(document["status"], "ready", "{document}");
        assert_eq!(document["describer"], "extractive", "{document}");
    }

    // A server that sends its answer a token at a time and never finishes, again with
    // the default timeouts.
    let library = dir.path().join("endless");
    let ingest = cli(&library, &["--llm-url", &url(endless), "ingest", &cyrillic]).await;
    let shown = said(&ingest);
    assert_eq!(ingest.status.code(), Some(3), "{shown}");
    assert!(shown.contains("given up on"), "{shown}");
    let listed = docs(&library).await;
    assert_eq!(listed[0]["describer"], "extractive", "{listed:?}");
    assert_eq!(
        endless_probe
            .requests
            .load(std::sync::atomic::Ordering::SeqCst),
        1,
        "{shown}"
    );

    // `ask` counts what it tried: a server that is not there once, one that fails
    // for a passing reason three times.
    let ask = cli(&library, &["--llm-url", &url(silent), "ask", "Что это?"]).await;
    let shown = said(&ask);
    assert!(!ask.status.success(), "{shown}");
    assert!(shown.contains("did not answer within 10 s"), "{shown}");
    assert!(shown.contains("(tried once, "), "{shown}");
    let busy = openai_double::start(Behaviour::Raw(
        503,
        r#"{"error":{"message":"model is loading"}}"#.into(),
    ))
    .await;
    let ask = cli(&library, &["--llm-url", &url(busy), "ask", "Что это?"]).await;
    let shown = said(&ask);
    assert!(!ask.status.success(), "{shown}");
    assert!(
        shown.contains("model is loading (tried 3 times over"),
        "{shown}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_questions_are_refused_and_kept_nowhere() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    {
        let library = common::open_library(&root).await;
        common::ingest_fixture(&library, "multipage.pdf").await;
        for question in ["", "   ", "\n\t"] {
            let flat = pagetree::search::Strategy::Flat { k: 3 };
            let settings = Default::default();
            for err in [
                library
                    .search_recorded(question, &flat, &settings)
                    .await
                    .map(|_| ())
                    .expect_err("search refused"),
                library
                    .compare(question, std::slice::from_ref(&flat), &settings)
                    .await
                    .map(|_| ())
                    .expect_err("compare refused"),
                library
                    .ask(
                        question,
                        &flat,
                        &settings,
                        None,
                        Default::default(),
                        &mut |_: &str| {},
                    )
                    .await
                    .map(|_| ())
                    .expect_err("ask refused"),
            ] {
                assert!(err.to_string().contains("the question is empty"), "{err}");
            }
        }
    }
    for args in [
        &["search", ""][..],
        &["search", "   "],
        &["compare", " "],
        &["ask", ""],
    ] {
        let output = cli(&root, args).await;
        let shown = said(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}:\n{shown}");
        assert!(
            text(&output.stderr).contains("error: the question is empty"),
            "{args:?}:\n{shown}"
        );
    }
    let history = cli(&root, &["history", "--json"]).await;
    assert!(history.status.success(), "{}", said(&history));
    let runs: Vec<serde_json::Value> = serde_json::from_slice(&history.stdout).expect("JSON");
    assert!(runs.is_empty(), "nothing was written to history: {runs:?}");
    let library = common::open_library(&root).await;
    let conversations: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM conversations")
        .fetch_one(library.catalog().pool())
        .await
        .expect("count");
    assert_eq!(conversations, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_writers_colours_describers_and_file_modes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    let answering = openai_double::start(Behaviour::Content(
        r#"{"description":"A page about turbofans.","keywords":["turbofan"]}"#.into(),
    ))
    .await;
    let multipage = fixture("multipage.pdf").display().to_string();
    let ingest = cli(
        &root,
        &["-v", "--llm-url", &url(answering), "ingest", &multipage],
    )
    .await;
    assert!(ingest.status.success(), "{}", said(&ingest));
    // stderr is a pipe here: log lines come without colour codes.
    assert!(!text(&ingest.stderr).is_empty(), "{}", said(&ingest));
    assert!(
        !text(&ingest.stderr).contains('\u{1b}'),
        "colour codes in a pipe:\n{}",
        said(&ingest)
    );
    let listed = docs(&root).await;
    assert_eq!(listed[0]["describer"], "llm", "{listed:?}");

    // Every file the library holds is the user's alone, the index's included.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut seen = 0;
        for entry in walkdir::WalkDir::new(&root) {
            let entry = entry.expect("walk");
            let mode = entry.metadata().expect("metadata").permissions().mode() & 0o777;
            seen += 1;
            assert_eq!(mode & 0o077, 0, "{} is {mode:o}", entry.path().display());
        }
        assert!(seen > 10, "the index was walked too ({seen} entries)");
    }

    // A document whose writer was killed shows as interrupted, not as being added.
    let catalog = pagetree::Library::open_catalog(&root)
        .await
        .expect("catalog");
    let gone = {
        let mut child = Command::new("true").spawn().expect("a process");
        let pid = child.id();
        child.wait().expect("it ends");
        format!("{pid}:1")
    };
    sqlx::query(
        "INSERT INTO documents (content_hash, name, file_name, path, status, ingest_owner) \
         VALUES ('half', 'half', 'half.pdf', '/nowhere/half.pdf', 'ingesting', ?)",
    )
    .bind(&gone)
    .execute(catalog.pool())
    .await
    .expect("a half-written row");
    let listed = docs(&root).await;
    let half = listed
        .iter()
        .find(|document| document["name"] == "half")
        .expect("listed");
    assert_eq!(half["status"], "interrupted", "{half}");
    let plain = cli(&root, &["docs"]).await;
    assert!(
        text(&plain.stdout).contains("interrupted"),
        "{}",
        said(&plain)
    );
}
