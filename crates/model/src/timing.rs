//! Phase timings on stderr when `DOC_BRIDGE_TIMINGS` is set: how benchmarks see where time goes.

use std::sync::OnceLock;
use std::time::Instant;

fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os("DOC_BRIDGE_TIMINGS").is_some())
}

/// When the command started (see [`start`]); the first timing otherwise.
fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// Marks the command's start: each timing line then also says when its phase ended, so the
/// gaps between phases show. Call it first thing (it reads one environment variable).
pub fn start() {
    if enabled() {
        origin();
    }
}

/// The process's resident memory in MiB, where `/proc` tells it (Linux): with the times, it
/// shows which phase holds the memory that peak RSS reports.
fn resident() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // 4 KiB pages: the size on every platform this is read on.
    Some(pages * 4096 / (1 << 20))
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
            let ms = |since: Instant| since.elapsed().as_secs_f64() * 1000.0;
            eprintln!(
                "timing {}: {:.1} ms (ended at {:.1} ms{})",
                self.label,
                ms(start),
                ms(origin()),
                resident().map_or_else(String::new, |mib| format!(", {mib} MiB resident"))
            );
        }
    }
}
