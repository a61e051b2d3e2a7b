//! Files that are not usable PDFs: one clear line each, a non-zero exit, and the rest
//! of the batch and the library untouched.

mod common;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::{cli, fixture, open_library, text};
use pagetree::library::{Library, OpenOptions};

fn bad_files(dir: &std::path::Path) -> Vec<(std::path::PathBuf, &'static str)> {
    let truncated = dir.join("truncated.pdf");
    let bytes = std::fs::read(fixture("multipage.pdf")).expect("fixture");
    std::fs::write(&truncated, &bytes[..bytes.len() / 3]).expect("write");
    let garbage = dir.join("garbage.pdf");
    let mut corrupt = b"%PDF-1.7\n".to_vec();
    corrupt.extend(std::iter::repeat_n(b'#', 4096));
    std::fs::write(&garbage, corrupt).expect("write");
    let empty = dir.join("empty.pdf");
    std::fs::write(&empty, b"").expect("write");
    let not_pdf = dir.join("notes.pdf");
    std::fs::write(&not_pdf, "just some text, not a PDF\n").expect("write");
    vec![
        (truncated, "damaged or truncated"),
        (garbage, "damaged or truncated"),
        (empty, "empty (0 bytes)"),
        (not_pdf, "not a PDF"),
        (fixture("encrypted.pdf"), "encrypted with a password"),
        (fixture("zero-pages.pdf"), "has no pages"),
        (dir.join("missing.pdf"), "cannot read the file"),
    ]
}

#[test]
fn each_bad_file_gets_one_clear_line_and_the_good_ones_are_added() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = dir.path().join("library");
    let bad = bad_files(dir.path());
    let mut args: Vec<String> = vec!["ingest".into()];
    args.push(fixture("multipage.pdf").display().to_string());
    args.extend(bad.iter().map(|(path, _)| path.display().to_string()));
    args.push(fixture("spanish.pdf").display().to_string());
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = cli(&library, &arg_refs);
    let stderr = text(&output.stderr);
    assert!(
        !output.status.success(),
        "a failed file makes the run fail:\n{stderr}"
    );
    for (path, reason) in &bad {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|line| line.starts_with("failed:") && line.contains(&name))
            .collect();
        assert_eq!(lines.len(), 1, "one line for {name}:\n{stderr}");
        assert!(
            lines[0].contains(reason),
            "{name} should say `{reason}`: {}",
            lines[0]
        );
    }
    assert!(
        stderr.contains("2 added, 0 already in the library, 7 failed"),
        "{stderr}"
    );

    let docs = cli(&library, &["docs", "--json"]);
    let documents: serde_json::Value = serde_json::from_slice(&docs.stdout).expect("json");
    let ready: Vec<&str> = documents
        .as_array()
        .expect("array")
        .iter()
        .filter(|d| d["status"] == "ready")
        .filter_map(|d| d["name"].as_str())
        .collect();
    assert_eq!(ready, vec!["multipage", "spanish"]);
    let tree = cli(&library, &["tree", "multipage", "--json"]);
    assert!(tree.status.success(), "{}", text(&tree.stderr));
}

#[tokio::test]
async fn a_failed_document_keeps_its_reason_and_can_be_retried() {
    let dir = tempfile::tempdir().expect("temp dir");
    let library = open_library(dir.path()).await;
    let err = library
        .ingest(&fixture("encrypted.pdf"), &pagetree::ingest::NoProgress)
        .await
        .expect_err("encrypted");
    assert!(
        err.to_string()
            .starts_with("encrypted.pdf: the PDF is encrypted"),
        "{err}"
    );
    let documents = library.documents().await.expect("docs");
    assert_eq!(documents.len(), 1);
    assert!(documents[0]
        .error
        .as_deref()
        .unwrap_or("")
        .contains("encrypted"));
    // Trying again replaces the failed entry rather than piling up rows.
    let _ = library
        .ingest(&fixture("encrypted.pdf"), &pagetree::ingest::NoProgress)
        .await;
    assert_eq!(library.documents().await.expect("docs").len(), 1);
}

#[tokio::test]
async fn a_second_process_gets_a_clear_message_while_the_library_is_open() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_held, _) = Library::open(dir.path(), OpenOptions::default())
        .await
        .expect("first opener");
    let output = cli(
        dir.path(),
        &["ingest", &fixture("multipage.pdf").display().to_string()],
    );
    let stderr = text(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("is in use by another PageTree process")
            && stderr.contains(&format!("process {}", std::process::id())),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line, not a dump:\n{stderr}");
    // Listing needs no lock and works meanwhile.
    let docs = cli(dir.path(), &["docs"]);
    assert!(docs.status.success(), "{}", text(&docs.stderr));
}

// ------------------------------------------------------------- files that are not files

/// Long enough for the model to load and a fixture to be added on a busy machine; a run
/// that used to hang fails the test here instead of stalling the whole suite.
const RUN_LIMIT: Duration = Duration::from_secs(240);

/// `pagetree --library <library> <args…>` with any arguments (a path need not be UTF-8),
/// killed if it runs past `RUN_LIMIT`. Returns the exit status and stderr.
fn cli_within_limit(library: &Path, args: &[&OsStr]) -> (ExitStatus, String) {
    let logs = tempfile::tempdir().expect("temp dir");
    let stderr_path = logs.path().join("stderr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pagetree"))
        .arg("--library")
        .arg(library)
        .args(args)
        .env_remove("PAGETREE_LLM_URL")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).expect("stderr file"))
        .spawn()
        .expect("the pagetree binary runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
            panic!(
                "`pagetree {}` did not finish in {RUN_LIMIT:?}:\n{stderr}",
                args.iter()
                    .map(|a| a.to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let stderr = std::fs::read(&stderr_path).expect("stderr");
    (status, text(&stderr))
}

fn copy_fixture(name: &str, to: &Path) {
    std::fs::copy(fixture(name), to).expect("copy fixture");
}

fn assert_line(stderr: &str, starts: &str, words: &str) {
    assert!(
        stderr
            .lines()
            .any(|line| line.starts_with(starts) && line.contains(words)),
        "expected a `{starts}` line saying `{words}`:\n{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn a_named_pipe_or_a_device_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("pipes");
    std::fs::create_dir(&folder).expect("mkdir");
    copy_fixture("multipage.pdf", &folder.join("multipage.pdf"));
    let pipe = folder.join("x.pdf");
    let made = Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo failed");
    // The pipe given by name, a device, and the folder holding the pipe.
    let (status, stderr) = cli_within_limit(
        &dir.path().join("library"),
        &[
            OsStr::new("ingest"),
            pipe.as_os_str(),
            OsStr::new("/dev/zero"),
            folder.as_os_str(),
        ],
    );
    assert!(!status.success(), "{stderr}");
    assert_line(
        &stderr,
        "failed: x.pdf:",
        "this is a named pipe (FIFO), not a regular file",
    );
    assert_line(
        &stderr,
        "failed: zero:",
        "this is a device, not a regular file",
    );
    assert_line(
        &stderr,
        &format!("skipped: {}:", pipe.display()),
        "this is a named pipe (FIFO), not a regular file, so it was not added",
    );
    assert!(
        stderr.contains("1 added, 0 already in the library, 2 failed, 1 skipped"),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn links_that_loop_find_each_pdf_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("pdfs");
    let sub = folder.join("sub");
    std::fs::create_dir_all(&sub).expect("mkdir");
    copy_fixture("multipage.pdf", &folder.join("a.pdf"));
    copy_fixture("spanish.pdf", &sub.join("b.pdf"));
    // `ln -s . loop`, and a second way into `sub`.
    std::os::unix::fs::symlink(".", folder.join("loop")).expect("link");
    std::os::unix::fs::symlink("sub", folder.join("alias")).expect("link");
    let (status, stderr) = cli_within_limit(
        &dir.path().join("library"),
        &[OsStr::new("ingest"), folder.as_os_str()],
    );
    assert!(status.success(), "{stderr}");
    assert!(
        stderr.contains("2 added, 0 already in the library, 0 failed ("),
        "each PDF once:\n{stderr}"
    );
    assert!(!stderr.contains("already in the library as"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn an_unreadable_subfolder_is_named() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("pdfs");
    let locked = folder.join("locked");
    std::fs::create_dir_all(&locked).expect("mkdir");
    copy_fixture("multipage.pdf", &folder.join("a.pdf"));
    copy_fixture("spanish.pdf", &locked.join("b.pdf"));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    // Root (and a process with CAP_DAC_READ_SEARCH) reads a folder whatever its mode.
    let privileged = std::fs::read_dir(&locked).is_ok();
    let (status, stderr) = cli_within_limit(
        &dir.path().join("library"),
        &[OsStr::new("ingest"), folder.as_os_str()],
    );
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    if privileged {
        eprintln!(
            "NOTE: this test runs with privileges that read a folder whatever its mode \
             (root?), so chmod 000 cannot make an unreadable folder here; it checks only \
             that both PDFs are added. Run it as an ordinary user to test the message."
        );
        assert!(status.success(), "{stderr}");
        assert!(
            stderr.contains("2 added, 0 already in the library, 0 failed ("),
            "{stderr}"
        );
        return;
    }
    assert!(
        !status.success(),
        "a folder left unread fails the run:\n{stderr}"
    );
    assert_line(
        &stderr,
        &format!("skipped: {}:", locked.display()),
        "could not open this folder (permission denied); the PDFs in it were not added",
    );
    assert!(
        stderr.contains("1 added, 0 already in the library, 0 failed, 1 skipped"),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_folder_named_like_a_pdf_is_called_a_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("x.pdf");
    std::fs::create_dir(&folder).expect("mkdir");
    let (status, stderr) = cli_within_limit(
        &dir.path().join("cli-library"),
        &[OsStr::new("ingest"), folder.as_os_str()],
    );
    assert!(!status.success(), "nothing was added:\n{stderr}");
    assert_line(
        &stderr,
        &format!("skipped: {}:", folder.display()),
        "this folder has no PDF files in it, so nothing was added from it",
    );
    assert!(
        stderr.contains("0 added, 0 already in the library, 0 failed, 1 skipped"),
        "{stderr}"
    );
    // The engine, given the folder as a file (as the app's queue might), says what it is.
    let library = open_library(&dir.path().join("library")).await;
    let err = library
        .ingest(&folder, &pagetree::ingest::NoProgress)
        .await
        .expect_err("a folder is not a PDF");
    assert!(
        err.to_string()
            .starts_with("x.pdf: this is a folder, not a regular file"),
        "{err}"
    );
    assert!(library.documents().await.expect("docs").is_empty());
}

#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_refused_with_a_way_out() {
    use std::os::unix::ffi::OsStringExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("latin1");
    std::fs::create_dir(&folder).expect("mkdir");
    // "café.pdf" in Latin-1: the é is the single byte 0xE9.
    let name = OsString::from_vec(b"caf\xe9.pdf".to_vec());
    let file: PathBuf = folder.join(&name);
    if let Err(err) = std::fs::copy(fixture("multipage.pdf"), &file) {
        eprintln!("NOTE: this file system refuses a non-UTF-8 name ({err}); nothing to test");
        return;
    }
    let library = dir.path().join("library");
    let (status, stderr) = cli_within_limit(&library, &[OsStr::new("ingest"), folder.as_os_str()]);
    assert!(!status.success(), "{stderr}");
    assert_line(
        &stderr,
        "failed: caf\u{FFFD}.pdf:",
        "the file's path is not valid UTF-8 text",
    );
    assert_line(
        &stderr,
        "failed: caf",
        "rename the file, or the folder holding it",
    );
    let docs = cli(&library, &["docs", "--json"]);
    let documents: serde_json::Value = serde_json::from_slice(&docs.stdout).expect("json");
    assert_eq!(
        documents,
        serde_json::json!([]),
        "no entry with a lossy path"
    );
}

/// Every byte of `output` that a terminal would obey rather than show.
fn obeyed_bytes(output: &[u8]) -> Vec<u8> {
    output
        .iter()
        .copied()
        .filter(|&b| b == 0x1b || b == 0x07 || b == 0x9b || b == b'\r')
        .collect()
}

#[test]
fn escape_sequences_in_file_names_are_shown_not_obeyed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("in");
    std::fs::create_dir(&folder).expect("folder");
    // A title change, a cleared screen and red text, in a good PDF's name and a bad one's.
    copy_fixture(
        "multipage.pdf",
        &folder.join("report\u{1b}]0;pwned\u{7}\u{1b}[2J.pdf"),
    );
    std::fs::write(folder.join("bad\u{1b}[31m.pdf"), b"not a pdf").expect("write");
    let library = dir.path().join("library");

    let ingest = cli(
        &library,
        &["ingest", folder.to_str().expect("a UTF-8 path")],
    );
    let docs = cli(&library, &["docs"]);
    let search = cli(
        &library,
        &["search", "turbofan", "--strategy", "flat", "--k", "1"],
    );
    for (what, output) in [("ingest", &ingest), ("docs", &docs), ("search", &search)] {
        for (stream, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
            assert_eq!(
                obeyed_bytes(bytes),
                Vec::<u8>::new(),
                "{what} {stream}:\n{}",
                text(bytes)
            );
        }
    }
    let ingest_err = text(&ingest.stderr);
    assert!(ingest_err.contains("bad\\u{1b}[31m.pdf"), "{ingest_err}");
    let listed = text(&docs.stdout);
    assert!(
        listed.contains("report\\u{1b}]0;pwned\\u{7}\\u{1b}[2J"),
        "{listed}"
    );
}

/// A new library in `root` holding the multipage fixture.
async fn library_with_one_document(root: &Path) -> Library {
    let library = open_library(root).await;
    library
        .ingest(&fixture("multipage.pdf"), &pagetree::ingest::NoProgress)
        .await
        .expect("ingests");
    library
}

#[cfg(unix)]
#[tokio::test]
async fn a_new_library_is_private_to_its_user() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| {
        let mode = std::fs::metadata(path)
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()))
            .permissions()
            .mode();
        format!("{:o}", mode & 0o777)
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    let _open = library_with_one_document(&root).await;
    assert_eq!(mode(&root), "700", "the library folder");
    let mut catalog_files = 0;
    for entry in std::fs::read_dir(&root).expect("the library folder lists") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        if name.is_some_and(|n| n.starts_with("catalog.sqlite")) {
            catalog_files += 1;
            assert_eq!(mode(&path), "600", "{}", path.display());
        }
    }
    assert!(catalog_files >= 1, "the catalog is there");
}

#[cfg(unix)]
#[tokio::test]
async fn a_library_made_before_private_files_is_made_private_when_opened() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    let library = library_with_one_document(&root).await;
    drop(library);
    let copies = root.join(pagetree::library::OPAQUE_COPIES_DIR);
    std::fs::create_dir_all(&copies).expect("copies");
    std::fs::write(copies.join("doc-1.pdf"), b"%PDF-").expect("a copy");
    let mine = root.join("notes.txt");
    std::fs::write(&mine, b"the user's own").expect("a file of the user's");

    // As an older version left them: every folder 0755, every file 0644.
    let mut everything = vec![root.clone()];
    let mut index = 0;
    while index < everything.len() {
        let path = everything[index].clone();
        index += 1;
        let mode = if path.is_dir() {
            everything.extend(
                std::fs::read_dir(&path)
                    .expect("lists")
                    .map(|entry| entry.expect("an entry").path()),
            );
            0o755
        } else {
            0o644
        };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
    assert!(
        everything
            .iter()
            .any(|p| p.starts_with(root.join("index")) && p.is_file()),
        "the index has files"
    );

    drop(open_library(&root).await);
    for path in &everything {
        let mode = std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777;
        if path == &mine {
            assert_eq!(mode, 0o644, "a file PageTree did not make keeps its mode");
        } else if path.is_dir() {
            assert_eq!(mode, 0o700, "{}", path.display());
        } else {
            assert_eq!(mode, 0o600, "{}", path.display());
        }
    }
}

/// A small tmpfs mounted for one test, unmounted when dropped.
struct SmallDisk {
    mount_point: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a tmpfs of `megabytes`; none, with the reason printed, where this test
    /// may not mount file systems (mounting needs root).
    fn mount(megabytes: u64) -> Option<Self> {
        let mount_point = tempfile::tempdir().expect("temp dir");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={megabytes}m"), "tmpfs"])
            .arg(mount_point.path())
            .output();
        match mounted {
            Ok(output) if output.status.success() => Some(Self { mount_point }),
            Ok(output) => {
                eprintln!(
                    "skipped: cannot mount a {megabytes} MB tmpfs for a full disk: {}",
                    text(&output.stderr).trim()
                );
                None
            }
            Err(err) => {
                eprintln!("skipped: cannot run mount for a full disk: {err}");
                None
            }
        }
    }

    fn path(&self) -> &Path {
        self.mount_point.path()
    }

    /// Fills the disk until `megabytes` are left.
    fn fill_leaving(&self, megabytes: u64) {
        use std::io::Write;
        let mut filler = std::fs::File::create(self.path().join("filler")).expect("filler");
        let block = vec![1u8; 1 << 20];
        while fs4::available_space(self.path()).expect("free space") > (megabytes + 1) << 20 {
            filler.write_all(&block).expect("fills");
        }
        filler.sync_all().expect("synced");
    }

    /// Fills what is left of the disk, to the last byte.
    fn fill_to_the_brim(&self) {
        use std::io::Write;
        let mut brim = std::fs::File::create(self.path().join("brim")).expect("brim");
        let mut block = vec![1u8; 1 << 16];
        while !block.is_empty() {
            if brim.write_all(&block).is_err() {
                block.truncate(block.len() / 2);
            }
        }
        let _ = brim.sync_all();
    }

    fn free_brim(&self) {
        std::fs::remove_file(self.path().join("brim")).expect("frees");
    }

    fn free_filler(&self) {
        std::fs::remove_file(self.path().join("filler")).expect("frees");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        // Lazily: the engine's threads may let go of their files a moment after the
        // library is dropped.
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.mount_point.path())
            .status();
    }
}

/// Asserts that a command on a full disk ended on its own, with the sentence.
fn refused_for_room(output: &std::process::Output, what: &str) {
    use std::os::unix::process::ExitStatusExt;
    let stderr = text(&output.stderr);
    assert_eq!(
        output.status.signal(),
        None,
        "{what} was killed by a signal on a full disk; it printed:\n{stderr}"
    );
    assert!(!output.status.success(), "{what} succeeded on a full disk");
    assert!(
        stderr.contains("the disk holding the library has ")
            && stderr.contains("MB free; PageTree needs about "),
        "{what} did not say why: {stderr}"
    );
}

#[tokio::test]
async fn a_full_disk_stops_commands_with_a_sentence_and_the_library_still_opens() {
    let Some(disk) = SmallDisk::mount(128) else {
        return;
    };
    let root = disk.path().join("library");
    {
        let library = open_library(&root).await;
        library
            .ingest(&fixture("multipage.pdf"), &pagetree::ingest::NoProgress)
            .await
            .expect("adds while there is room");
        // And one that a process that is gone left half-written.
        let interrupted = library
            .catalog()
            .begin_document("hash", "interrupted.pdf", "/interrupted.pdf")
            .await
            .expect("begins");
        sqlx::query("UPDATE documents SET ingest_owner = NULL WHERE id = ?")
            .bind(interrupted.id)
            .execute(library.catalog().pool())
            .await
            .expect("of no live process");
    }
    disk.fill_leaving(4);
    let spanish = fixture("spanish.pdf");
    let spanish_arg = spanish.to_str().expect("a UTF-8 fixture path");
    refused_for_room(&cli(&root, &["ingest", spanish_arg]), "ingest");
    refused_for_room(&cli(&root, &["search", "page"]), "search");
    refused_for_room(&cli(&root, &["delete", "multipage"]), "delete");

    let docs = cli(&root, &["docs"]);
    assert!(docs.status.success(), "docs: {}", text(&docs.stderr));
    assert!(text(&docs.stdout).contains("multipage"));
    let (library, _) = Library::open(&root, OpenOptions::default())
        .await
        .expect("the library opens on the full disk");
    let names: Vec<String> = library
        .documents()
        .await
        .expect("lists")
        .into_iter()
        .map(|document| document.name)
        .collect();
    assert_eq!(names, ["multipage", "interrupted"]);
    let err = library
        .ingest(&spanish, &pagetree::ingest::NoProgress)
        .await
        .expect_err("no room");
    assert!(
        err.to_string()
            .starts_with("the disk holding the library has "),
        "{err}"
    );
    assert_eq!(
        library.documents().await.expect("lists").len(),
        2,
        "nothing half-added"
    );
    drop(library);

    // With no room at all, even reading the library stops with the sentence, not
    // SQLite's "disk I/O error".
    disk.fill_to_the_brim();
    let err = Library::open(&root, OpenOptions::default())
        .await
        .err()
        .expect("no room to open");
    assert!(
        err.to_string()
            .starts_with("the disk holding the library has 0 MB free"),
        "{err}"
    );
    // Listing needs no write where SQLite's files are in place: it lists, or it says
    // the disk is full, never a bare I/O error.
    let docs = cli(&root, &["docs"]);
    if !docs.status.success() {
        refused_for_room(&docs, "docs on a disk with no room");
    }
    refused_for_room(
        &cli(&root, &["search", "page"]),
        "search on a disk with no room",
    );
    disk.free_brim();

    disk.free_filler();
    let (library, recovery) = Library::open(&root, OpenOptions::default())
        .await
        .expect("opens");
    assert_eq!(
        recovery.cleaned,
        ["interrupted"],
        "cleaned up once there is room"
    );
    library
        .ingest(&spanish, &pagetree::ingest::NoProgress)
        .await
        .expect("adds once there is room again");
}
