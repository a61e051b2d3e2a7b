// No console window behind the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    if let Err(err) = pagetree_app::run() {
        eprintln!("PageTree could not start: {err}");
        std::process::exit(1);
    }
}
