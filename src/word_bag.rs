//! A document's text as the whole-text index keeps it: each word once, repeated as
//! many times as the square root of its count. BM25 over whole documents then still
//! tells a document that dwells on a word from one that names it in passing, while
//! the index holds a few entries of a frequent word instead of its every occurrence,
//! which a query read in full and which grew with the library's text.

use std::collections::HashMap;

/// The words of `texts` (split where a character is neither a letter nor a digit,
/// lowercased), each written `ceil(sqrt(count))` times, in the order they first appear.
pub fn word_bag<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    // (word, count) in the order the words first appear, and where each word stands.
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut position: HashMap<String, usize> = HashMap::new();
    for text in texts {
        for word in text.split(|c: char| !c.is_alphanumeric()) {
            if word.is_empty() {
                continue;
            }
            let word = word.to_lowercase();
            match position.get(&word) {
                Some(&at) => counts[at].1 += 1,
                None => {
                    position.insert(word.clone(), counts.len());
                    counts.push((word, 1));
                }
            }
        }
    }
    let mut bag = String::new();
    for (word, count) in &counts {
        for _ in 0..repeats(*count) {
            if !bag.is_empty() {
                bag.push(' ');
            }
            bag.push_str(word);
        }
    }
    bag
}

/// `ceil(sqrt(count))`, in integers.
fn repeats(count: usize) -> usize {
    let root = count.isqrt();
    if root * root == count {
        root
    } else {
        root + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_repeated_by_the_square_root_of_its_count_rounded_up() {
        assert_eq!(repeats(1), 1);
        assert_eq!(repeats(2), 2);
        assert_eq!(repeats(4), 2);
        assert_eq!(repeats(5), 3);
        assert_eq!(repeats(100), 10);
    }

    #[test]
    fn words_of_every_page_are_counted_together_in_the_order_they_first_appear() {
        let pages = [
            "Revenue grew; revenue, REVENUE and revenue again.",
            "Glacier — revenue",
        ];
        assert_eq!(
            word_bag(pages),
            "revenue revenue revenue grew and again glacier"
        );
    }

    #[test]
    fn cyrillic_and_accented_words_are_kept_whole() {
        assert_eq!(word_bag(["Доход и доход, año"]), "доход доход и año");
    }

    #[test]
    fn a_document_without_words_has_an_empty_bag() {
        assert_eq!(word_bag(["", " — , "]), "");
    }
}
