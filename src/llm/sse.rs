//! Server-sent events read from a byte stream with a bound on each event: a server
//! that never ends a line must not grow a buffer, or rescan it, forever.

/// One event was longer than the bound without ending.
#[derive(Debug, PartialEq, Eq)]
pub struct EventTooLong;

/// Splits bytes into the `data` of complete events. Fields other than `data` (`event`,
/// `id`, `retry`, comments) mean nothing to a chat answer and are skipped.
pub struct EventReader {
    max_event_bytes: usize,
    /// The line being read, up to but not including its end.
    line: Vec<u8>,
    /// The `data` lines of the event being read, joined by `\n`.
    data: Vec<u8>,
    in_event: bool,
}

impl EventReader {
    pub fn new(max_event_bytes: usize) -> Self {
        Self {
            max_event_bytes,
            line: Vec::new(),
            data: Vec::new(),
            in_event: false,
        }
    }

    /// Reads `bytes`, appending the data of every event they complete to `events`. Each
    /// byte is looked at once, so a long line costs its length and no more.
    pub fn push(
        &mut self,
        mut bytes: &[u8],
        events: &mut Vec<Vec<u8>>,
    ) -> Result<(), EventTooLong> {
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            self.line.extend_from_slice(&bytes[..end]);
            self.check()?;
            self.end_line(events);
            bytes = &bytes[end + 1..];
        }
        self.line.extend_from_slice(bytes);
        self.check()
    }

    fn check(&self) -> Result<(), EventTooLong> {
        if self.line.len() + self.data.len() > self.max_event_bytes {
            return Err(EventTooLong);
        }
        Ok(())
    }

    fn end_line(&mut self, events: &mut Vec<Vec<u8>>) {
        let mut line = std::mem::take(&mut self.line);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            if std::mem::take(&mut self.in_event) {
                events.push(std::mem::take(&mut self.data));
            }
        } else if let Some(value) = data_value(&line) {
            if self.in_event {
                self.data.push(b'\n');
            }
            self.data.extend_from_slice(value);
            self.in_event = true;
        }
        // Reuse the line's allocation for the next one.
        line.clear();
        self.line = line;
    }
}

/// The value of a `data` field line; None for any other line.
fn data_value(line: &[u8]) -> Option<&[u8]> {
    match line.strip_prefix(b"data")? {
        [] => Some(&[]),
        [b':', b' ', rest @ ..] | [b':', rest @ ..] => Some(rest),
        // `dataX: …` is another field.
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(reader: &mut EventReader, bytes: &[u8]) -> Result<Vec<String>, EventTooLong> {
        let mut events = Vec::new();
        reader.push(bytes, &mut events)?;
        Ok(events
            .into_iter()
            .map(|e| String::from_utf8(e).expect("utf-8"))
            .collect())
    }

    #[test]
    fn events_split_across_reads_and_line_ends_are_joined() {
        let mut reader = EventReader::new(1024);
        assert!(read(&mut reader, b": keep-alive\n\nda").unwrap().is_empty());
        assert!(read(&mut reader, b"ta: {\"a\":").unwrap().is_empty());
        assert_eq!(
            read(
                &mut reader,
                b"1}\r\n\r\nevent: x\ndata:two\ndata: lines\n\ndata: [DONE]\n\n"
            )
            .unwrap(),
            vec!["{\"a\":1}", "two\nlines", "[DONE]"]
        );
        assert!(read(&mut reader, b"datum: no\n\n").unwrap().is_empty());
    }

    #[test]
    fn a_line_that_never_ends_is_refused_at_the_bound() {
        let mut reader = EventReader::new(1024);
        assert!(read(&mut reader, b"data: ").is_ok());
        let endless = vec![b'x'; 512];
        assert!(read(&mut reader, &endless).is_ok());
        assert_eq!(read(&mut reader, &endless), Err(EventTooLong));
        // Many short data lines of one event count together.
        let mut reader = EventReader::new(1024);
        let lines = b"data: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n".repeat(40);
        assert_eq!(read(&mut reader, &lines), Err(EventTooLong));
    }
}
