//! A value installed in a thread-local slot for the length of one call: how the memos reach the
//! code that uses them (and the helper threads they are handed to) without being threaded
//! through every signature.

use std::cell::RefCell;
use std::sync::Arc;
use std::thread::LocalKey;

/// A thread-local slot holding the active value, if any.
pub type Slot<T> = LocalKey<RefCell<Option<Arc<T>>>>;

/// Runs `work` with `value` in `slot` on this thread; the previous value comes back afterwards,
/// also when `work` panics.
pub fn with_installed<T: 'static, R>(
    slot: &'static Slot<T>,
    value: &Arc<T>,
    work: impl FnOnce() -> R,
) -> R {
    struct Restore<T: 'static> {
        slot: &'static Slot<T>,
        previous: Option<Arc<T>>,
    }
    impl<T: 'static> Drop for Restore<T> {
        fn drop(&mut self) {
            let previous = self.previous.take();
            self.slot.with(|active| *active.borrow_mut() = previous);
        }
    }
    let previous = slot.with(|active| active.replace(Some(Arc::clone(value))));
    let _restore = Restore { slot, previous };
    work()
}

/// The value in `slot` on this thread.
pub fn installed<T: 'static>(slot: &'static Slot<T>) -> Option<Arc<T>> {
    slot.with(|active| active.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static SLOT: RefCell<Option<Arc<u32>>> = const { RefCell::new(None) };
    }

    #[test]
    fn a_value_is_installed_for_the_call_and_the_previous_one_restored() {
        assert_eq!(installed(&SLOT), None);
        let outer = with_installed(&SLOT, &Arc::new(1), || {
            let inner = with_installed(&SLOT, &Arc::new(2), || installed(&SLOT));
            (inner, installed(&SLOT))
        });
        assert_eq!(outer, (Some(Arc::new(2)), Some(Arc::new(1))));
        assert_eq!(installed(&SLOT), None);
        // Restored after a panic too.
        let caught = std::panic::catch_unwind(|| {
            with_installed(&SLOT, &Arc::new(3), || panic!("inside"));
        });
        assert!(caught.is_err());
        assert_eq!(installed(&SLOT), None);
    }
}
