//! Which process is writing a document. A document found half-written at start-up is
//! removed only when the process that was writing it is gone: the library lock keeps a
//! second writer out, and this is what still protects a live ingestion if that lock is
//! ever got round (an older PageTree that locks only `library.lock`, a file system
//! without locks).

/// A process, told apart from a later one that got the same id: `pid:start`, where
/// `start` is when the process started (in clock ticks after boot, on Linux). Empty
/// where the platform does not say.
pub fn token(pid: u32) -> Option<String> {
    start_time(pid).map(|start| format!("{pid}:{start}"))
}

/// This process's token.
pub(crate) fn this_process() -> String {
    let pid = std::process::id();
    token(pid).unwrap_or_else(|| format!("{pid}:"))
}

/// Whether the writer `owner` names is still at work, for a listing: this process
/// counts, since a listing is made while it ingests (the app lists as it adds).
pub(crate) fn is_running(owner: &str) -> bool {
    owner == this_process() || is_alive(owner)
}

/// Whether the process `owner` names may still be running. An owner that cannot be
/// read (none recorded, written by another platform) counts as gone, as every
/// interrupted document did before owners were recorded.
pub(crate) fn is_alive(owner: &str) -> bool {
    let Some((pid, start)) = owner.split_once(':') else {
        return false;
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    if pid == std::process::id() {
        // This process holds the library lock now, so no other handle of it can be
        // writing: whatever it began was left when that handle was dropped.
        return false;
    }
    if start.is_empty() {
        return pid_exists(pid);
    }
    start_time(pid).is_some_and(|now| now == start)
}

#[cfg(target_os = "linux")]
fn start_time(pid: u32) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces or ')'; the
    // start time is field 22, the 20th after the name's closing parenthesis.
    let (_, after_name) = stat.rsplit_once(')')?;
    after_name
        .split_whitespace()
        .nth(19)
        .filter(|start| start.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
}

#[cfg(not(target_os = "linux"))]
fn start_time(_pid: u32) -> Option<String> {
    None
}

#[cfg(unix)]
fn pid_exists(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only asks whether the process exists; nothing is sent.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn pid_exists(_pid: u32) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_process_is_alive_and_an_ended_one_is_not() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep runs");
        let owner = token(child.id()).unwrap_or_else(|| format!("{}:", child.id()));
        assert!(is_alive(&owner));
        child.kill().expect("kills");
        child.wait().expect("waits");
        assert!(!is_alive(&owner));
    }

    #[test]
    fn this_process_and_unreadable_owners_count_as_gone() {
        assert!(!is_alive(&this_process()));
        assert!(
            is_running(&this_process()),
            "but it is at work for a listing"
        );
        for owner in ["", "x", "12:", "abc:1", ":"] {
            if owner == "12:" && pid_exists(12) {
                continue;
            }
            assert!(!is_alive(owner), "{owner:?}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_reused_pid_is_not_the_same_process() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep runs");
        let earlier = format!("{}:1", child.id());
        let alive = is_alive(&earlier);
        child.kill().expect("kills");
        child.wait().expect("waits");
        assert!(!alive, "a process that started later under the same id");
    }
}
