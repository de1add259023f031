//! Work spread over the machine's cores, results kept in input order so that output stays
//! deterministic. Scoped standard threads: the work items are few and coarse (a file to read
//! and parse, a cluster to check), so a work-stealing pool would add a dependency for nothing.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Below this many items the threads cost more than they save.
const MIN_PARALLEL_ITEMS: usize = 16;

/// `work` applied to every item, on up to one thread per core; the results in `items`' order.
/// Items are handed out one at a time, so a slow item does not hold up a whole share.
pub fn map<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = cores().min(items.len());
    if threads <= 1 || items.len() < MIN_PARALLEL_ITEMS {
        return items.iter().map(work).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(index) else {
                            break done;
                        };
                        done.push((index, work(item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| match worker.join() {
                Ok(done) => done,
                // A panic in `work` is a bug: let it surface as it would without threads.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    results.sort_unstable_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

/// The cores this process may use, asked of the system once: the answer reads the cgroup's
/// quota files, and a walk hands out work in many batches.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map(NonZeroUsize::get)
            .unwrap_or(1)
    })
}

/// [`map`] over items the work takes by value.
pub fn map_owned<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    use std::sync::{Mutex, PoisonError};
    // Each cell is taken once, by whichever thread is handed its index.
    let cells: Vec<Mutex<Option<T>>> = items
        .into_iter()
        .map(|item| Mutex::new(Some(item)))
        .collect();
    map(&cells, |cell| {
        let item = cell.lock().unwrap_or_else(PoisonError::into_inner).take();
        work(item.expect("every item is handed out once"))
    })
}

#[cfg(test)]
mod tests {
    use super::map;

    #[test]
    fn keeps_the_order_of_the_items() {
        let items: Vec<u64> = (0..1000).collect();
        let squares = map(&items, |n| {
            // Uneven work, so that threads finish out of order.
            if n % 7 == 0 {
                std::thread::yield_now();
            }
            n * n
        });
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
    }

    #[test]
    fn owned_items_keep_their_order() {
        let items: Vec<String> = (0..100).map(|n| n.to_string()).collect();
        let lengths = super::map_owned(items.clone(), |item| item.len());
        assert_eq!(lengths, items.iter().map(String::len).collect::<Vec<_>>());
    }

    #[test]
    fn few_items_and_none() {
        assert_eq!(map(&[1, 2, 3], |n| n + 1), vec![2, 3, 4]);
        assert!(map(&[] as &[u8], |n| *n).is_empty());
    }
}
