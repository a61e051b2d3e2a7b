// No console window behind the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // Before GTK, WebKitGTK or any thread reads the environment.
    pagetree_app::startup_env::apply();
    pagetree::private_files::keep_new_files_private();
    if let Err(err) = pagetree_app::run() {
        eprintln!("PageTree could not start: {err}");
        std::process::exit(1);
    }
}
