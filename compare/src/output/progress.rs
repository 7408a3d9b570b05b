//! A progress bar with the time left, on stderr, hidden when stderr is not a terminal.
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of a bake-off, one tick per child run (warm-ups included).
pub struct Progress {
    bar: ProgressBar,
    /// Whether failures are printed when the bar itself is not drawn.
    echo: bool,
}

impl Progress {
    /// A bar on stderr.
    pub fn stderr() -> Progress {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} runs · {eta} left · {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(250));
        Progress { bar, echo: true }
    }

    /// Draws nothing (tests, re-rendering).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            echo: false,
        }
    }

    pub fn start(&self, runs: u64) {
        self.bar.set_length(runs);
        self.bar.set_position(0);
    }

    /// A new estimate of all runs, done ones included: a cell that stops on precision
    /// before `--max-runs` takes fewer runs than first counted.
    pub fn set_total(&self, runs: u64) {
        self.bar.set_length(runs);
    }

    pub fn begin(&self, run: &str) {
        self.bar.set_message(run.to_string());
    }

    /// A line above the bar: a failed run stays visible after the bar moves on.
    pub fn warn(&self, line: &str) {
        self.note(&format!("failed: {line}"));
    }

    /// A line above the bar that reports, not fails: what the quiet gate waited for.
    pub fn note(&self, line: &str) {
        if !self.bar.is_hidden() {
            self.bar.println(line);
        } else if self.echo {
            eprintln!("{line}");
        }
    }

    pub fn advance(&self) {
        self.bar.inc(1);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.abandon();
        }
    }
}
