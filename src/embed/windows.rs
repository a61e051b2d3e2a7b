//! Cutting a page into the windows the embedding model reads whole. The model sees only
//! its first `MAX_TOKENS` tokens of a text, and most pages of a filing are longer, so a
//! page embedded as one text is known by its first third. Each window repeats the
//! document's identity, so that every window can be told apart from the same passage in
//! another year's filing.

use std::sync::Arc;

use tokenizers::Tokenizer;

use super::e5::{
    E5Engine, TextRole, PAGE_WINDOW_TOKENS as E5_PAGE_WINDOW_TOKENS,
    WINDOW_TOKENS as E5_WINDOW_TOKENS,
};
use super::EmbedError;

/// Tokens the model adds around every text (`[CLS]` and `[SEP]`), plus one of slack for
/// a word the tokenizer splits differently where two pieces of text meet.
const RESERVED_TOKENS: usize = 3;

/// Cuts texts at token boundaries of the embedding model's own tokenizer.
pub struct WindowSplitter {
    counter: Counter,
    window_tokens: usize,
}

/// The model's tokenizer: a Hugging Face `tokenizer.json`, or the e5 engine's own,
/// which counts tokens but gives no offsets.
enum Counter {
    HuggingFace(Box<Tokenizer>),
    E5(Arc<E5Engine>),
}

impl WindowSplitter {
    /// `tokenizer_json` is the model's `tokenizer.json`; `window_tokens` the model's window.
    pub fn new(tokenizer_json: &[u8], window_tokens: usize) -> Result<Self, EmbedError> {
        let mut tokenizer = Tokenizer::from_bytes(tokenizer_json)
            .map_err(|err| EmbedError::Tokenizer(err.to_string()))?;
        tokenizer
            .with_truncation(None)
            .map_err(|err| EmbedError::Tokenizer(err.to_string()))?;
        tokenizer.with_padding(None);
        Ok(Self {
            counter: Counter::HuggingFace(Box::new(tokenizer)),
            window_tokens,
        })
    }

    /// Windows of multilingual-e5-small, counted by its engine.
    pub(crate) fn for_e5(engine: Arc<E5Engine>) -> Self {
        Self {
            counter: Counter::E5(engine),
            window_tokens: E5_PAGE_WINDOW_TOKENS,
        }
    }

    /// The texts to embed for one page: `lead` (the document's identity, see
    /// [`crate::index_text::identity_lead`]) followed by consecutive, disjoint pieces of
    /// `body`, each short enough that the model reads it whole, at most `max_windows` of
    /// them (the rest of a very long page is not embedded). A body that fits gives one
    /// text, the same as embedding it unsplit.
    pub fn windows(
        &self,
        lead: &str,
        body: &str,
        max_windows: usize,
    ) -> Result<Vec<String>, EmbedError> {
        if let Counter::E5(engine) = &self.counter {
            return self.windows_by_count(engine, lead, body, max_windows.max(1));
        }
        let whole = || vec![format!("{lead}{body}")];
        if max_windows <= 1 {
            return Ok(whole());
        }
        let lead_tokens = self.token_count(lead)?;
        let capacity = self
            .window_tokens
            .saturating_sub(RESERVED_TOKENS + lead_tokens)
            .max(1);
        let encoding = self
            .hugging_face()?
            .encode(body, false)
            .map_err(|err| EmbedError::Tokenizer(err.to_string()))?;
        let offsets = encoding.get_offsets();
        if offsets.len() <= capacity {
            return Ok(whole());
        }
        let words = encoding.get_word_ids();
        let mut windows = Vec::new();
        let mut start = 0;
        while start < offsets.len() && windows.len() < max_windows {
            let end = cut_between_words(words, start, (start + capacity).min(offsets.len()));
            if let Some(piece) = body.get(offsets[start].0..offsets[end - 1].1) {
                windows.push(format!("{lead}{}", piece.trim()));
            }
            start = end;
        }
        Ok(if windows.is_empty() { whole() } else { windows })
    }

    /// Windows for a tokenizer that only counts (e5's): a page the model reads whole in
    /// one window is one text; a longer one is cut into windows of the page window's
    /// length (see [`super::e5::PAGE_WINDOW_TOKENS`]), each the longest run of whole
    /// words from where the last ended, found by bisection. One window is cut too, since
    /// the engine would otherwise read a long text as the average of all its windows, at
    /// that many times the cost.
    fn windows_by_count(
        &self,
        engine: &E5Engine,
        lead: &str,
        body: &str,
        max_windows: usize,
    ) -> Result<Vec<String>, EmbedError> {
        let whole = format!("{lead}{body}");
        if engine.token_count(&whole, TextRole::Passage)? <= E5_WINDOW_TOKENS {
            return Ok(vec![whole]);
        }
        let fits = |piece: &str| -> Result<bool, EmbedError> {
            Ok(
                engine.token_count(&format!("{lead}{piece}"), TextRole::Passage)?
                    <= self.window_tokens,
            )
        };
        let starts = word_starts(body);
        let offset = |word: usize| starts.get(word).copied().unwrap_or(body.len());
        let mut windows = Vec::new();
        let mut first = 0;
        while first < starts.len() && windows.len() < max_windows {
            // At least one word a window, however long, so that the text moves on.
            let (mut low, mut high) = (first + 1, starts.len());
            while low < high {
                let middle = (low + high).div_ceil(2);
                if fits(&body[offset(first)..offset(middle)])? {
                    low = middle;
                } else {
                    high = middle - 1;
                }
            }
            windows.push(format!("{lead}{}", body[offset(first)..offset(low)].trim()));
            first = low;
        }
        Ok(windows)
    }

    fn hugging_face(&self) -> Result<&Tokenizer, EmbedError> {
        match &self.counter {
            Counter::HuggingFace(tokenizer) => Ok(tokenizer),
            Counter::E5(_) => Err(EmbedError::Tokenizer(
                "the e5 engine gives no token offsets".into(),
            )),
        }
    }

    fn token_count(&self, text: &str) -> Result<usize, EmbedError> {
        if text.is_empty() {
            return Ok(0);
        }
        match &self.counter {
            Counter::HuggingFace(tokenizer) => tokenizer
                .encode(text, false)
                .map(|encoding| encoding.len())
                .map_err(|err| EmbedError::Tokenizer(err.to_string())),
            // The engine counts its prefix and special tokens; the rest of this file
            // counts words only.
            Counter::E5(engine) => Ok(engine
                .token_count(text, TextRole::Passage)?
                .saturating_sub(RESERVED_TOKENS)),
        }
    }
}

/// Byte offsets where the words of `text` begin.
fn word_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut after_space = true;
    for (index, character) in text.char_indices() {
        if character.is_whitespace() {
            after_space = true;
        } else if after_space {
            starts.push(index);
            after_space = false;
        }
    }
    starts
}

/// Where a window that may reach `end` (exclusive) should stop so that no word is
/// split between two windows: at the start of the word the cut falls in, unless that
/// word began the window (a "word" longer than a window is cut where it must be).
fn cut_between_words(words: &[Option<u32>], start: usize, end: usize) -> usize {
    if end >= words.len() {
        return words.len();
    }
    let mut cut = end;
    while cut > start + 1 && words[cut].is_some() && words[cut] == words[cut - 1] {
        cut -= 1;
    }
    if cut == start + 1 && words[cut].is_some() && words[cut] == words[start] {
        end
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::Assets;

    /// The real model's tokenizer; the assets are installed by `scripts/setup.sh`.
    fn splitter(window_tokens: usize) -> WindowSplitter {
        let assets = Assets::locate(None, None).expect("assets installed by scripts/setup.sh");
        let json = std::fs::read(assets.model_dir.join("tokenizer.json")).expect("tokenizer");
        WindowSplitter::new(&json, window_tokens).expect("tokenizer loads")
    }

    #[test]
    fn a_short_page_is_one_window_with_its_identity() {
        let windows = splitter(256)
            .windows("3M Company · 10-K.\n", "Net sales rose.", 4)
            .expect("split");
        assert_eq!(windows, ["3M Company · 10-K.\nNet sales rose."]);
    }

    #[test]
    fn a_long_page_is_cut_into_windows_that_each_fit_and_keep_the_text_in_order() {
        let splitter = splitter(32);
        let body = (1..=60)
            .map(|n| format!("row{n} revenue"))
            .collect::<Vec<_>>()
            .join(" ");
        let windows = splitter.windows("Acme.\n", &body, 100).expect("split");
        assert!(windows.len() > 2, "{windows:?}");
        for window in &windows {
            assert!(window.starts_with("Acme.\n"), "{window}");
            let tokens = splitter.token_count(window).expect("count") + 2;
            assert!(tokens <= 32, "{tokens} tokens: {window}");
        }
        let rejoined: String = windows
            .iter()
            .map(|w| w.trim_start_matches("Acme.\n"))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(rejoined, body);
    }

    #[test]
    fn a_cut_falls_between_words() {
        let words = [
            Some(0),
            Some(1),
            Some(1),
            Some(1),
            Some(2),
            Some(3),
            Some(3),
        ];
        assert_eq!(cut_between_words(&words, 0, 3), 1);
        assert_eq!(cut_between_words(&words, 0, 4), 4);
        assert_eq!(cut_between_words(&words, 4, 6), 5);
        // One word longer than the window is cut where it must be.
        assert_eq!(cut_between_words(&words, 1, 3), 3);
        assert_eq!(cut_between_words(&words, 5, 9), 7);
    }

    #[test]
    fn windows_stop_at_the_cap_and_one_window_means_the_whole_text() {
        let splitter = splitter(32);
        let body = "word ".repeat(400);
        assert_eq!(splitter.windows("", &body, 3).expect("split").len(), 3);
        let single = splitter.windows("", &body, 1).expect("split");
        assert_eq!(single, [body]);
    }

    fn e5_splitter() -> WindowSplitter {
        let assets = Assets::locate(None, None).expect("assets installed by scripts/setup.sh");
        let files = assets.e5().expect("e5 installed by scripts/setup.sh");
        let engine = E5Engine::load(&files.library, &files.model).expect("e5 loads");
        WindowSplitter::for_e5(Arc::new(engine))
    }

    #[test]
    fn e5_windows_fit_its_window_keep_the_words_and_one_window_is_cut_too() {
        let splitter = e5_splitter();
        let body = (1..=400)
            .map(|n| format!("строка{n} выручка"))
            .collect::<Vec<_>>()
            .join(" ");
        let windows = splitter.windows("Acme.\n", &body, 100).expect("split");
        assert!(windows.len() > 1, "{}", windows.len());
        let Counter::E5(engine) = &splitter.counter else {
            panic!("an e5 splitter");
        };
        for (index, window) in windows.iter().enumerate() {
            let tokens = engine
                .token_count(window, TextRole::Passage)
                .expect("count");
            assert!(tokens <= E5_PAGE_WINDOW_TOKENS, "{tokens}");
            // Full, but for the last: a window ends where the next word would not fit.
            if index + 1 < windows.len() {
                assert!(
                    tokens + 8 > E5_PAGE_WINDOW_TOKENS,
                    "window {index}: {tokens}"
                );
            }
            assert!(window.starts_with("Acme.\n"));
        }
        let rejoined: Vec<&str> = windows
            .iter()
            .map(|w| w.trim_start_matches("Acme.\n"))
            .collect();
        assert_eq!(rejoined.join(" "), body);
        let single = splitter.windows("Acme.\n", &body, 1).expect("split");
        assert_eq!(single, windows[..1]);
        let short = splitter
            .windows("Acme.\n", "Выручка выросла.", 1)
            .expect("split");
        assert_eq!(short, ["Acme.\nВыручка выросла."]);
    }

    #[test]
    fn an_e5_page_that_fits_the_models_window_is_read_whole() {
        let splitter = e5_splitter();
        let Counter::E5(engine) = &splitter.counter else {
            panic!("an e5 splitter");
        };
        // Longer than a long page's window, shorter than the model's.
        let body = (1..=40)
            .map(|n| format!("Озеро{n} глубокое"))
            .collect::<Vec<_>>()
            .join(" ");
        let whole = format!("Acme.\n{body}");
        let tokens = engine
            .token_count(&whole, TextRole::Passage)
            .expect("count");
        assert!(
            (E5_PAGE_WINDOW_TOKENS + 1..=E5_WINDOW_TOKENS).contains(&tokens),
            "{tokens}"
        );
        for max_windows in [1, 4] {
            assert_eq!(
                splitter
                    .windows("Acme.\n", &body, max_windows)
                    .expect("split"),
                std::slice::from_ref(&whole)
            );
        }
    }

    #[test]
    fn words_begin_after_any_whitespace() {
        assert_eq!(word_starts("  a bc\n\td"), [2, 4, 8]);
        assert!(word_starts(" ").is_empty());
    }

    #[test]
    fn text_that_is_not_ascii_is_cut_between_characters() {
        let splitter = splitter(16);
        let body = "Озеро Байкал — самое глубокое озеро на планете Земля. ".repeat(10);
        let windows = splitter.windows("", &body, 50).expect("split");
        assert!(windows.len() > 1);
        assert!(windows.iter().all(|w| body.contains(w.as_str())));
    }
}
