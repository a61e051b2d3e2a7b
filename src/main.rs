//! The `pagetree` command line: everything the desktop app does, scriptable.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // `pagetree history | head` should end quietly like any Unix tool, not panic on a
    // closed pipe: restore the default SIGPIPE action that Rust's runtime ignores.
    // SAFETY: called once at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    pagetree::private_files::keep_new_files_private();
    let args = cli::Args::parse();
    cli::init_logging(args.verbose);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start: {err}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(cli::run(args)) {
        Ok(code) => code,
        Err(err) => {
            // Errors quote file names and servers' words: shown, never obeyed.
            eprintln!("error: {}", cli::terminal::text(&cli::words::chain(&err)));
            ExitCode::FAILURE
        }
    }
}
