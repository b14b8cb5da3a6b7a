//! Phase timings on stderr when `DOC_BRIDGE_TIMINGS` is set: how benchmarks see where time goes.

use std::sync::OnceLock;
use std::time::Instant;

fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os("DOC_BRIDGE_TIMINGS").is_some())
}

/// Runs `work`, printing how long it took under `label` when timings are enabled.
pub fn phase<T>(label: &str, work: impl FnOnce() -> T) -> T {
    let timer = Timer::start(label);
    let result = work();
    timer.stop();
    result
}

/// A phase whose start and end are in different places (see [`phase`]).
pub struct Timer<'a> {
    label: &'a str,
    start: Option<Instant>,
}

impl<'a> Timer<'a> {
    /// Starts timing `label` (a no-op unless timings are enabled).
    pub fn start(label: &'a str) -> Self {
        Self {
            label,
            start: enabled().then(Instant::now),
        }
    }

    /// Prints the elapsed time.
    pub fn stop(self) {
        if let Some(start) = self.start {
            eprintln!(
                "timing {}: {:.1} ms",
                self.label,
                start.elapsed().as_secs_f64() * 1000.0
            );
        }
    }
}
