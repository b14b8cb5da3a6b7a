//! Settings of the binary's allocator (mimalloc, chosen in `main.rs`).
//!
//! mimalloc gives memory that stays free for a second back to the operating system, by default
//! with `MADV_DONTNEED`: the pages are dropped, and touching them again faults in fresh zeroed
//! pages. A cold index and every watch refresh allocate and free hundreds of megabytes in
//! waves, so each wave paid those faults again; on a virtual machine whose balloon driver
//! reports free pages to the host, each fault is expensive. So:
//!
//! - every command purges with `MADV_FREE` instead: the pages stay mapped and are reused for
//!   free unless the kernel needs the memory in the meantime, when it takes them back;
//! - long-running commands (`index --watch`, `mcp`) do not purge at all: a watch refresh comes
//!   back to the same working set every time, and a reclaimed page costs it a fault again.
//!
//! Measured on the project's 2-core VM (synthetic 10,000 files; `docs/watch.md`,
//! `bench/README.md`): a one-file watch refresh 1.2–1.6 s with the defaults, 0.65–0.86 s with
//! lazy purging, 0.61–0.86 s without purging (steadier maxima); a cold `index` 2.2–3.3 s with
//! the defaults, 2.1 s lazy; 100,000 files 27.7 s against 24.2 s. Peak resident memory as
//! `time` reports it grows (2.9 to 4.2 GB at 100,000 files), because lazily freed pages count
//! until the kernel reclaims them.

use libmimalloc_sys::{mi_option_set, mi_option_t};

/// `mi_option_purge_decommits` and `mi_option_purge_delay`: their positions in mimalloc v3's
/// `mi_option_t` (libmimalloc-sys exports no constants for them). A test checks the positions
/// against the defaults around them.
const PURGE_DECOMMITS: mi_option_t = 5;
const PURGE_DELAY: mi_option_t = 15;

/// Configures mimalloc for this process (see the module documentation); a `MIMALLOC_*`
/// variable naming an option wins over this. Call it before any other thread exists.
pub fn configure(long_running: bool) {
    set_unless_asked(PURGE_DECOMMITS, 0, "PURGE_DECOMMITS", "RESET_DECOMMITS");
    if long_running {
        set_unless_asked(PURGE_DELAY, -1, "PURGE_DELAY", "RESET_DELAY");
    }
}

fn set_unless_asked(option: mi_option_t, value: std::ffi::c_long, name: &str, legacy: &str) {
    let asked = [name, legacy]
        .iter()
        .any(|n| std::env::var_os(format!("MIMALLOC_{n}")).is_some());
    if asked {
        return;
    }
    // SAFETY: `mi_option_set` stores one value in mimalloc's option table; both options used
    // here are valid (the test below checks which they are), and the caller runs before any
    // other thread exists to race with the store (the function is not thread-safe).
    #[allow(unsafe_code)]
    unsafe {
        mi_option_set(option, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn around(option: mi_option_t) -> [std::ffi::c_long; 3] {
        // SAFETY: reads entries of mimalloc's option table.
        #[allow(unsafe_code)]
        unsafe {
            [option - 1, option, option + 1].map(|o| libmimalloc_sys::mi_option_get(o))
        }
    }

    #[test]
    fn the_options_are_where_we_set_them() {
        if std::env::vars_os().any(|(name, _)| name.to_string_lossy().starts_with("MIMALLOC_")) {
            return;
        }
        // mimalloc v3's defaults: arena_eager_commit 2, purge_decommits 1,
        // allow_large_os_pages 0; deprecated_eager_commit_delay 1, purge_delay 1000,
        // use_numa_nodes 0. If the vendored mimalloc reorders its options, this fails before a
        // wrong option is set.
        assert_eq!(around(PURGE_DECOMMITS), [2, 1, 0]);
        assert_eq!(around(PURGE_DELAY), [1, 1000, 0]);
    }
}
