//! The engine's panics kept at its boundary. qdrant-edge flushes with `expect`, on
//! request and again when the shard is dropped, so a disk that fills mid-write ends the
//! process with a panic (`segments flushed: … No space left on device`) instead of
//! returning an error. Its calls that write are run here: a panic becomes an error, and
//! its message is not printed, since the error that carries it is.

use std::any::Any;
use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use qdrant_edge::EdgeShard;

thread_local! {
    /// Set while this thread runs engine code whose panics are caught: their message
    /// goes here instead of to stderr.
    static CAUGHT: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

static QUIET_HOOK: Once = Once::new();

/// Runs `work`, turning a panic in it into its message. The panic is not printed.
pub(crate) fn catch<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let kept = CAUGHT.with(|caught| match caught.borrow_mut().as_mut() {
                Some(message) => {
                    *message = Some(info.to_string());
                    true
                }
                None => false,
            });
            if !kept {
                previous(info);
            }
        }));
    });
    let outer = CAUGHT.with(|caught| caught.borrow_mut().replace(None));
    let result = panic::catch_unwind(AssertUnwindSafe(work));
    let message = CAUGHT.with(|caught| std::mem::replace(&mut *caught.borrow_mut(), outer));
    result.map_err(|payload| message.flatten().unwrap_or_else(|| payload_text(&*payload)))
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the index engine stopped".to_string())
}

/// An engine shard whose flush on drop cannot panic out of it: when the disk is full
/// that flush fails too, and a panic in a drop ends the process.
pub(crate) struct Shard(ManuallyDrop<EdgeShard>);

impl Shard {
    pub(crate) fn new(shard: EdgeShard) -> Self {
        Self(ManuallyDrop::new(shard))
    }
}

impl Deref for Shard {
    type Target = EdgeShard;

    fn deref(&self) -> &EdgeShard {
        &self.0
    }
}

impl Drop for Shard {
    fn drop(&mut self) {
        // SAFETY: the shard is dropped here once and never used after.
        let dropped = catch(|| unsafe { ManuallyDrop::drop(&mut self.0) });
        if let Err(message) = dropped {
            tracing::error!(%message, "the vector index could not save its last changes when it was closed; they are replayed from its log the next time it opens");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_its_message_and_nested_catches_keep_their_own() {
        assert_eq!(catch(|| 7), Ok(7));
        let caught = catch::<()>(|| panic!("segments flushed: No space left on device"));
        let message = caught.expect_err("caught");
        assert!(message.contains("No space left on device"), "{message}");
        let outer = catch::<()>(|| {
            let inner = catch::<()>(|| panic!("inner"));
            assert!(inner.expect_err("inner caught").contains("inner"));
            panic!("outer")
        });
        let message = outer.expect_err("outer caught");
        assert!(message.contains("outer"), "{message}");
    }
}
