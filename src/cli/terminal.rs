//! Text from files and models made safe to print: a file name or a model's answer that
//! carries terminal escape sequences (ESC `[`…, OSC 8 links, a title change, a cleared
//! screen) or bidirectional overrides is shown with those characters spelled out as
//! `\u{1b}` instead of being obeyed by the terminal. JSON output needs none of this:
//! serde escapes control characters itself.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether stderr is a terminal that may be given colour codes: not when it is a file or
/// a pipe, and not when `NO_COLOR` is set (<https://no-color.org>).
pub fn colours_on_stderr() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Characters a terminal acts on rather than shows: C0 and C1 controls and DEL, and the
/// bidirectional marks that can make text read differently from what it is.
fn obeyed(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn spelled_out(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| obeyed(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !obeyed(c) || keep(c) {
            out.push(c);
            continue;
        }
        let _ = match c {
            '\n' => out.write_str("\\n"),
            '\r' => out.write_str("\\r"),
            '\t' => out.write_str("\\t"),
            other => write!(out, "{}", other.escape_unicode()),
        };
    }
    Cow::Owned(out)
}

/// One line's worth (a file or document name): every control spelled out, line breaks
/// too, so that a name cannot pose as another line of output.
pub fn line(text: &str) -> Cow<'_, str> {
    spelled_out(text, |_| false)
}

/// Running text (an answer, a summary, a message of several lines): as [`line`], but
/// line breaks and tabs stay.
pub fn text(text: &str) -> Cow<'_, str> {
    spelled_out(text, |c| c == '\n' || c == '\t')
}

/// `println!` for text that may quote a file, a document or a model.
macro_rules! say {
    ($($arg:tt)*) => {
        println!("{}", $crate::cli::terminal::text(&format!($($arg)*)))
    };
}

/// `eprintln!` for text that may quote a file, a document or a model.
macro_rules! warn_line {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::cli::terminal::text(&format!($($arg)*)))
    };
}

pub(crate) use {say, warn_line};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_in_a_name_are_spelled_out() {
        let name = "report\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m\nfake line.pdf";
        let shown = line(name);
        assert!(!shown.chars().any(|c| c.is_control()), "{shown:?}");
        assert_eq!(
            shown,
            "report\\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\u{9b}31m\\nfake line.pdf"
        );
    }

    #[test]
    fn running_text_keeps_its_lines_and_loses_its_escapes() {
        assert_eq!(
            text("a\tb\nc\u{1b}[31mred\u{202e}txt"),
            "a\tb\nc\\u{1b}[31mred\\u{202e}txt"
        );
    }

    #[test]
    fn ordinary_text_in_any_script_is_left_as_it_is() {
        for plain in [
            "Годовой отчёт 2023.pdf",
            "informe anual — 10-K.pdf",
            "数据.pdf",
        ] {
            assert!(matches!(line(plain), Cow::Borrowed(_)), "{plain}");
        }
    }
}
