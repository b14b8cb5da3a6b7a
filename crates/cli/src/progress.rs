//! Progress on stderr: shown only on a terminal, never with `--quiet`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Hands out progress bars, or hidden ones.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    visible: bool,
}

impl Progress {
    /// Visible when stderr is a terminal and `quiet` is off.
    pub fn new(quiet: bool) -> Self {
        Progress {
            visible: !quiet && std::io::stderr().is_terminal(),
        }
    }

    /// A bar of `len` steps. Drawn only once the work has taken a moment (indicatif draws at
    /// most a few times a second), and hidden entirely when not visible.
    pub fn bar(&self, len: u64, message: &'static str) -> ProgressBar {
        if !self.visible || len < 500 {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr_with_hz(4));
        if let Ok(style) =
            ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} files ({eta})")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(message);
        bar
    }

    /// A bar of `len` context packs: shown whenever visible (each pack may be an agent call that
    /// takes seconds).
    pub fn packs(&self, len: u64, message: &'static str) -> ProgressBar {
        if !self.visible || len == 0 {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr_with_hz(4));
        if let Ok(style) =
            ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} packs ({elapsed})")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(message);
        bar
    }
}
