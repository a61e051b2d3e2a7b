//! A command's report as `--json` asks: pretty JSON for programs, else text for people.

use anyhow::Result;
use serde::Serialize;

/// Prints `report` as pretty JSON when `json`, else as `text` writes it.
pub fn print<T: Serialize>(report: &T, json: bool, text: impl FnOnce(&T)) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(report)?);
    } else {
        text(report);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    #[test]
    fn text_is_written_only_without_json() {
        let written = Cell::new(0);
        print(&[1, 2], false, |_| written.set(written.get() + 1)).expect("text");
        print(&[1, 2], true, |_| written.set(written.get() + 1)).expect("json");
        assert_eq!(written.get(), 1);
    }

    /// A report serde cannot write as JSON.
    struct Unwritable;

    impl Serialize for Unwritable {
        fn serialize<S: serde::Serializer>(&self, _: S) -> std::result::Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no JSON for this"))
        }
    }

    #[test]
    fn a_report_that_cannot_be_json_is_an_error() {
        let err = print(&Unwritable, true, |_| {}).expect_err("refused");
        assert!(err.to_string().contains("no JSON for this"), "{err}");
    }
}
