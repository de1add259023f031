//! Work spread over the machine's cores, results kept in input order so that output stays
//! deterministic. One pool of threads (rayon's) serves the whole run: a walk hands out work in
//! hundreds of batches (files to read and parse, clusters to check, findings to draw), and a
//! thread started for each batch cost the kernel a third of the run's CPU (a new stack and
//! allocator cache each time).

use rayon::prelude::*;

/// Below this many items the threads cost more than they save.
const MIN_PARALLEL_ITEMS: usize = 16;

/// `work` applied to every item, on the pool's threads; the results in `items`' order. Items
/// are handed out one at a time, so a slow item does not hold up a whole share.
pub fn map<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    if items.len() < MIN_PARALLEL_ITEMS || rayon::current_num_threads() <= 1 {
        return items.iter().map(work).collect();
    }
    items.par_iter().with_max_len(1).map(work).collect()
}

/// Whether `test` holds for some item, asked on the pool's threads; the threads stop asking
/// once one has found it.
pub fn any<T: Sync>(items: &[T], test: impl Fn(&T) -> bool + Sync + Send) -> bool {
    if items.len() < MIN_PARALLEL_ITEMS || rayon::current_num_threads() <= 1 {
        return items.iter().any(test);
    }
    items.par_iter().with_max_len(1).any(test)
}

/// Work started on the pool now, its result taken later with [`Started::wait`]: the calling
/// thread goes on with other work meanwhile (a walk lists the next folders while the files
/// it listed last are read).
pub enum Started<R> {
    /// Done already, on the calling thread.
    Done(R),
    Running(std::sync::mpsc::Receiver<std::thread::Result<R>>),
}

/// `work`, over `items` items, started on the pool's threads (it may spread further over them
/// itself); done at once on the calling thread when the items are too few to be worth the
/// threads (one file named, a folder of a few: the pool is not even started then).
pub fn start<R: Send + 'static>(
    items: usize,
    work: impl FnOnce() -> R + Send + 'static,
) -> Started<R> {
    if items < MIN_PARALLEL_ITEMS || rayon::current_num_threads() <= 1 {
        return Started::Done(work());
    }
    let (send, result) = std::sync::mpsc::sync_channel(1);
    rayon::spawn(move || {
        // A panic is handed to the waiting thread, as `map` hands on one of its items'.
        let _ = send.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
    });
    Started::Running(result)
}

impl<R> Started<R> {
    /// The work's result, once it is done.
    pub fn wait(self) -> R {
        let result = match self {
            Started::Done(result) => return result,
            Started::Running(result) => result,
        };
        match result.recv() {
            Ok(Ok(result)) => result,
            Ok(Err(panic)) => std::panic::resume_unwind(panic),
            // The sender is dropped only after sending, or by a pool that was shut down.
            Err(_) => unreachable!("the pool dropped started work"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{any, map, start};

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
    fn few_items_and_none() {
        assert_eq!(map(&[1, 2, 3], |n| n + 1), vec![2, 3, 4]);
        assert!(map(&[] as &[u8], |n| *n).is_empty());
        assert!(any(&[1, 2, 3], |n| *n == 2));
        assert!(!any(&[] as &[u8], |_| true));
    }

    #[test]
    fn started_work_gives_its_result_and_its_panic() {
        let items: Vec<u64> = (0..1000).collect();
        let sum = start(items.len(), move || {
            map(&items, |n| n * 2).into_iter().sum::<u64>()
        });
        assert_eq!(sum.wait(), 999_000);
        assert_eq!(start(3, || 3).wait(), 3);
        // Work done at once panics at once; on the pool, when its result is asked for.
        for items in [1, 1000] {
            let caught = std::panic::catch_unwind(|| {
                start(items, || -> u8 { panic!("a reader's bug") }).wait()
            });
            assert!(caught.is_err());
        }
    }

    #[test]
    fn any_finds_one_item_among_many() {
        let items: Vec<u64> = (0..1000).collect();
        for wanted in [0, 1, 500, 999] {
            assert!(any(&items, |n| *n == wanted));
        }
        assert!(!any(&items, |n| *n == 1000));
    }
}
