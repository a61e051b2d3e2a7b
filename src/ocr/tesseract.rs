//! Tesseract's own command: asked once which languages it has, then run once per page
//! with the page's image on its standard input and TSV on its standard output.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use super::scan::GrayImage;
use super::tsv::{self, PixelWord};
use super::OcrError;

/// Names the Tesseract program to use instead of `tesseract` on the PATH.
pub const PROGRAM_VARIABLE: &str = "PAGETREE_TESSERACT";
const DEFAULT_PROGRAM: &str = "tesseract";
/// What a person runs to get Tesseract and the languages PageTree reads.
pub const INSTALL_HINT: &str =
    "sudo apt install tesseract-ocr tesseract-ocr-eng tesseract-ocr-rus tesseract-ocr-spa";
/// One page that takes longer than this is stuck, not slow: a 300 dpi A4 page takes
/// one to three seconds on one core.
const PAGE_DEADLINE: Duration = Duration::from_secs(180);
/// Asking for the languages takes milliseconds; more means the program is not Tesseract.
const PROBE_DEADLINE: Duration = Duration::from_secs(30);
/// OCR runs behind embedding and everything else the machine does.
const NICENESS: libc::c_int = 10;

/// A Tesseract program that answered, with the languages it has.
#[derive(Debug, Clone, PartialEq)]
pub struct Tesseract {
    program: PathBuf,
    languages: Vec<String>,
}

impl Tesseract {
    /// The program `PAGETREE_TESSERACT` names, or `tesseract` on the PATH.
    pub fn program() -> PathBuf {
        std::env::var_os(PROGRAM_VARIABLE)
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_PROGRAM))
    }

    /// Asks `program` which languages it has (`--list-langs`).
    pub fn probe(program: &Path) -> Result<Self, OcrError> {
        let output = run(program, &["--list-langs"], None, PROBE_DEADLINE)?;
        let languages = parse_languages(&String::from_utf8_lossy(&output));
        if languages.is_empty() {
            return Err(OcrError::NoLanguages {
                program: program.to_path_buf(),
            });
        }
        Ok(Self {
            program: program.to_path_buf(),
            languages,
        })
    }

    /// The language models installed (`eng`, `rus`, …), `osd` left out.
    pub fn languages(&self) -> &[String] {
        &self.languages
    }

    pub fn has_language(&self, code: &str) -> bool {
        self.languages.iter().any(|have| have == code)
    }

    /// Reads one page image with `languages` (Tesseract's `eng+rus` form).
    pub(crate) fn read(
        &self,
        image: &GrayImage,
        languages: &str,
    ) -> Result<Vec<PixelWord>, OcrError> {
        let output = run(
            &self.program,
            &["stdin", "stdout", "-l", languages, "tsv"],
            Some(image.to_pgm()),
            PAGE_DEADLINE,
        )?;
        Ok(tsv::parse_words(&String::from_utf8_lossy(&output)))
    }
}

/// `--list-langs` prints a heading line, then one language a line.
fn parse_languages(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter(|line| !line.contains(' ') && !line.trim().is_empty())
        .map(|line| line.trim().to_string())
        .filter(|code| code != "osd")
        .collect()
}

/// Runs `program` with `args`, feeding it `input`, and returns what it wrote, or why it
/// could not; it is killed after `deadline`.
fn run(
    program: &Path,
    args: &[&str],
    input: Option<Vec<u8>>,
    deadline: Duration,
) -> Result<Vec<u8>, OcrError> {
    let mut command = Command::new(program);
    command
        .args(args)
        // One thread a process: pages are read side by side instead, one per core.
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    lower_priority(&mut command);
    let mut child = command.spawn().map_err(|source| OcrError::Unavailable {
        program: program.to_path_buf(),
        detail: source.to_string(),
    })?;
    let stdin = child.stdin.take();
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let child = Arc::new(Mutex::new(child));
    let (finished, watch) = mpsc::channel::<()>();
    let watchdog = {
        let child = Arc::clone(&child);
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = watch.recv_timeout(deadline) {
                let _ = lock(&child).kill();
                true
            } else {
                false
            }
        })
    };
    let writer = stdin.zip(input).map(|(mut stdin, bytes)| {
        // A program that stops reading early closes the pipe; what it says is in its
        // exit status and its messages.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        })
    });
    let errors = std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(stderr) = stderr.as_mut() {
            let _ = stderr.read_to_end(&mut text);
        }
        text
    });
    let mut output = Vec::new();
    let read = stdout
        .as_mut()
        .map(|stdout| stdout.read_to_end(&mut output));
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let messages = errors.join().unwrap_or_default();
    let status = lock(&child).wait();
    let _ = finished.send(());
    let timed_out = watchdog.join().unwrap_or(false);
    if timed_out {
        return Err(OcrError::TimedOut {
            seconds: deadline.as_secs(),
        });
    }
    let status = status.map_err(|source| OcrError::Failed {
        detail: source.to_string(),
    })?;
    if let Some(Err(source)) = read {
        return Err(OcrError::Failed {
            detail: source.to_string(),
        });
    }
    if !status.success() {
        let said = String::from_utf8_lossy(&messages);
        let last = said.lines().rev().find(|line| !line.trim().is_empty());
        return Err(OcrError::Failed {
            detail: format!("{status}: {}", last.unwrap_or("no message")),
        });
    }
    Ok(output)
}

fn lock(child: &Mutex<Child>) -> std::sync::MutexGuard<'_, Child> {
    child
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(unix)]
fn lower_priority(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec only async-signal-safe calls are allowed;
    // setpriority is a plain system call, and its failure is ignored.
    unsafe {
        command.pre_exec(|| {
            libc::setpriority(libc::PRIO_PROCESS, 0, NICENESS);
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn lower_priority(_command: &mut Command) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_languages_without_the_heading_or_osd() {
        let listing =
            "List of available languages in \"/usr/share/tesseract-ocr/5/tessdata/\" (4):\neng\nosd\nrus\nspa\n";
        assert_eq!(parse_languages(listing), ["eng", "rus", "spa"]);
    }

    #[test]
    fn a_missing_program_is_unavailable() {
        let err = Tesseract::probe(Path::new("/nonexistent/tesseract")).expect_err("missing");
        assert!(matches!(err, OcrError::Unavailable { .. }), "{err}");
        assert!(err.to_string().contains("/nonexistent/tesseract"), "{err}");
    }

    #[test]
    fn a_program_that_fails_says_what_it_said() {
        let err = run(
            Path::new("sh"),
            &["-c", "echo first >&2; echo 'the last word' >&2; exit 3"],
            Some(b"ignored".to_vec()),
            Duration::from_secs(10),
        )
        .expect_err("fails");
        let text = err.to_string();
        assert!(text.contains("the last word"), "{text}");
    }

    #[test]
    fn a_program_that_hangs_is_stopped() {
        let err = run(
            Path::new("sh"),
            &["-c", "exec sleep 30"],
            None,
            Duration::from_millis(300),
        )
        .expect_err("stopped");
        assert!(matches!(err, OcrError::TimedOut { .. }), "{err}");
    }
}
