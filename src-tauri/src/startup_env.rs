//! Environment variables the window needs before GTK and WebKitGTK start, decided from
//! the session: set only where they help, never over a value the user gave.

use std::path::Path;

/// What the decision looks at, so that it can be tested without a desktop.
pub struct Session<'a> {
    /// Reads an environment variable (None when unset or empty).
    pub var: &'a dyn Fn(&str) -> Option<String>,
    /// Whether NVIDIA's proprietary driver is loaded.
    pub nvidia: bool,
}

/// The variables to set, each with its value.
pub fn startup_env(session: &Session<'_>) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    // Without a dconf service (a bare X session, a container) GLib warns about
    // dbus-launch for every setting a file dialog reads; settings in memory are enough
    // for a window that keeps none.
    if (session.var)("GSETTINGS_BACKEND").is_none() {
        out.push(("GSETTINGS_BACKEND", "memory"));
    }
    // WebKitGTK's DMA-BUF renderer leaves the window blank under Wayland and with NVIDIA's
    // driver (tauri-apps/tauri#13899); elsewhere it works, and turning it off costs speed
    // (and stalled Xvfb).
    if (session.var)("WEBKIT_DISABLE_DMABUF_RENDERER").is_none() && needs_dmabuf_off(session) {
        out.push(("WEBKIT_DISABLE_DMABUF_RENDERER", "1"));
    }
    out
}

fn needs_dmabuf_off(session: &Session<'_>) -> bool {
    let wayland = (session.var)("WAYLAND_DISPLAY").is_some()
        || (session.var)("XDG_SESSION_TYPE")
            .is_some_and(|kind| kind.eq_ignore_ascii_case("wayland"));
    wayland || session.nvidia
}

/// Whether NVIDIA's kernel driver is loaded on this machine.
pub fn nvidia_driver_loaded() -> bool {
    Path::new("/proc/driver/nvidia/version").exists() || Path::new("/sys/module/nvidia").exists()
}

/// Sets the variables for this process; called first thing in `main`, before any thread.
pub fn apply() {
    let var = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
    let session = Session {
        var: &var,
        nvidia: nvidia_driver_loaded(),
    };
    for (name, value) in startup_env(&session) {
        std::env::set_var(name, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(vars: &[(&str, &str)], nvidia: bool) -> Vec<(&'static str, &'static str)> {
        let var = |name: &str| {
            vars.iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_string())
        };
        startup_env(&Session { var: &var, nvidia })
    }

    #[test]
    fn an_x_session_without_nvidia_keeps_the_dmabuf_renderer() {
        assert_eq!(
            decide(&[("DISPLAY", ":0"), ("XDG_SESSION_TYPE", "x11")], false),
            vec![("GSETTINGS_BACKEND", "memory")]
        );
    }

    #[test]
    fn wayland_or_nvidia_turns_the_dmabuf_renderer_off() {
        let off = ("WEBKIT_DISABLE_DMABUF_RENDERER", "1");
        assert!(decide(&[("WAYLAND_DISPLAY", "wayland-0")], false).contains(&off));
        assert!(decide(&[("XDG_SESSION_TYPE", "Wayland")], false).contains(&off));
        assert!(decide(&[("DISPLAY", ":0")], true).contains(&off));
    }

    #[test]
    fn what_the_user_set_is_left_alone() {
        let chosen = decide(
            &[
                ("WAYLAND_DISPLAY", "wayland-0"),
                ("WEBKIT_DISABLE_DMABUF_RENDERER", "0"),
                ("GSETTINGS_BACKEND", "dconf"),
            ],
            true,
        );
        assert!(chosen.is_empty(), "{chosen:?}");
    }
}
