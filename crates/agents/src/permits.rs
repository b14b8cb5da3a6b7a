//! A FIFO counting semaphore: at most `n` calls in flight, granted strictly in the order they
//! were asked for, so a burst of packs cannot starve an early one (issue: "bounded concurrency
//! (a FIFO semaphore)"). Blocking, like the rest of the agents crate.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// At most `capacity` holders at once; waiters are served first come, first served. Clones
/// share the same permits (one budget per endpoint, however many handles).
#[derive(Debug, Clone)]
pub struct Permits {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    capacity: usize,
    state: Mutex<State>,
    turn: Condvar,
}

#[derive(Debug)]
struct State {
    available: usize,
    /// The ticket the next caller of [`Permits::acquire`] draws.
    next_ticket: u64,
    /// The ticket allowed to take the next free permit.
    serving: u64,
}

/// A held permit; released on drop.
#[derive(Debug)]
pub struct Permit<'a> {
    permits: &'a Permits,
}

impl Permits {
    /// `capacity` permits (at least one).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        Permits {
            inner: Arc::new(Inner {
                capacity,
                state: Mutex::new(State {
                    available: capacity,
                    next_ticket: 0,
                    serving: 0,
                }),
                turn: Condvar::new(),
            }),
        }
    }

    /// How many permits exist.
    pub fn capacity(&self) -> usize {
        self.inner.capacity
    }

    /// Waits for a permit, behind every caller that asked earlier.
    pub fn acquire(&self) -> Permit<'_> {
        let mut state = self.lock();
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        while !(state.serving == ticket && state.available > 0) {
            state = self
                .inner
                .turn
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        state.available -= 1;
        state.serving += 1;
        // The next ticket may be able to go too.
        self.inner.turn.notify_all();
        Permit { permits: self }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the counters half-updated.
        self.inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut state = self.permits.lock();
        state.available += 1;
        self.permits.inner.turn.notify_all();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    #[test]
    fn never_more_holders_than_permits() {
        let permits = Permits::new(2);
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (permits, inside, most) = (permits.clone(), inside.clone(), most.clone());
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        let _permit = permits.acquire();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert!(most.load(Ordering::SeqCst) <= 2);
        assert_eq!(inside.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn waiters_are_served_in_the_order_they_asked() {
        let permits = Permits::new(1);
        let held = permits.acquire();
        let (order_tx, order_rx) = mpsc::channel();
        let mut threads = Vec::new();
        for n in 0..5 {
            let (mine, order_tx) = (permits.clone(), order_tx.clone());
            threads.push(std::thread::spawn(move || {
                let _permit = mine.acquire();
                order_tx.send(n).unwrap();
            }));
            // Wait until waiter `n` has drawn its ticket before starting the next one.
            while permits.lock().next_ticket < n as u64 + 2 {
                std::thread::yield_now();
            }
        }
        drop(held);
        for t in threads {
            t.join().unwrap();
        }
        let order: Vec<i32> = order_rx.try_iter().collect();
        assert_eq!(order, vec![0, 1, 2, 3, 4]);
    }
}
