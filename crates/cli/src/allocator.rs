//! Settings of the binary's allocator (mimalloc, chosen in `main.rs`).
//!
//! mimalloc gives freed memory back to the operating system a second after it was freed. A cold
//! index and every watch refresh allocate and free hundreds of megabytes in waves, so the next
//! wave faulted the same amount in again; on a virtual machine whose balloon driver reports free
//! pages to the host, each of those faults is expensive. Measured on the project's 2-core VM
//! (synthetic 10,000 files): a one-file watch refresh 1.4–1.6 s with purging, 0.95–1.1 s
//! without; a cold `index` 3.5–5.1 s with, 2.6–2.7 s without, at 1.5 times the peak memory.
//! So the binary keeps freed memory for reuse; the process's footprint stays at its peak until
//! it exits.

use libmimalloc_sys::{mi_option_set, mi_option_t};

/// `mi_option_purge_delay`: its position in mimalloc v3's `mi_option_t` (libmimalloc-sys
/// exports no constant for it). A test checks the position against the option's default.
const PURGE_DELAY: mi_option_t = 15;

/// Turns off mimalloc's purging of freed memory, unless `MIMALLOC_PURGE_DELAY` (or its legacy
/// name `MIMALLOC_RESET_DELAY`) asks for something else. Call it first in `main`, before any
/// other thread exists.
pub fn keep_freed_memory() {
    let asked = ["MIMALLOC_PURGE_DELAY", "MIMALLOC_RESET_DELAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some());
    if asked {
        return;
    }
    // SAFETY: `mi_option_set` stores one value in mimalloc's option table; `PURGE_DELAY` is a
    // valid option (the test below checks which one), and no other thread exists yet to race
    // with the store (the function is documented as not thread-safe).
    #[allow(unsafe_code)]
    unsafe {
        mi_option_set(PURGE_DELAY, -1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purge_delay_option_is_where_we_set_it() {
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some()
            || std::env::var_os("MIMALLOC_RESET_DELAY").is_some()
        {
            return;
        }
        // SAFETY: reads one entry of mimalloc's option table.
        #[allow(unsafe_code)]
        let value = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        // 1000 ms is purge_delay's default in mimalloc v3 and no neighbouring option's; if the
        // vendored mimalloc reorders its options, this fails before a wrong option is set.
        assert_eq!(value, 1000);
    }
}
