//! `--jobs N`: oracle runs in parallel, results taken in order.
//!
//! A small pool of worker threads takes jobs from a queue; the calling
//! thread makes the jobs (in order, so that it may read files and keep
//! state as it goes) and takes each result in the order of its job, so
//! that whatever it writes is byte for byte the same for every `N`. At
//! most `N` jobs are under way or finished and waiting at any time: a
//! job whose result would have to wait behind more than that is not
//! started, which bounds memory to `N` jobs' inputs and outputs. The
//! price is that a slow job holds up the start of the `N`-th job after
//! it.
//!
//! With one job nothing is spawned: each job runs on the calling thread.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{mpsc, Mutex};
use std::thread;

/// The default `--jobs`: the number of cores this process may use, at
/// most `--jobs`' own bound ([`MAX_JOBS`](crate::corpus::config::MAX_JOBS)).
pub fn default_jobs() -> usize {
    let cores = thread::available_parallelism().map_or(1, NonZeroUsize::get);
    cores.min(crate::corpus::config::MAX_JOBS as usize)
}

/// Runs `work` on every item, on up to `jobs` threads, and hands each
/// item with its result to `consume` on the calling thread, in the
/// items' order. Items are drawn from `items` on the calling thread, no
/// more than `jobs` ahead of the one `consume` waits for. Stops early
/// when `consume` breaks (jobs under way then finish, their results
/// unused) and returns what it broke with. A panic in `work` is
/// resumed on the calling thread.
pub fn ordered<I, R, B>(
    jobs: usize,
    items: impl IntoIterator<Item = I>,
    work: impl Fn(&I) -> R + Sync,
    mut consume: impl FnMut(I, R) -> ControlFlow<B>,
) -> Option<B>
where
    I: Send,
    R: Send,
{
    let mut items = items.into_iter();
    if jobs <= 1 {
        for item in items {
            let result = work(&item);
            if let ControlFlow::Break(value) = consume(item, result) {
                return Some(value);
            }
        }
        return None;
    }
    let (queue, queued) = mpsc::channel::<(usize, I)>();
    let queued = Mutex::new(queued);
    thread::scope(|scope| {
        let (finished, results) = mpsc::channel::<(usize, I, thread::Result<R>)>();
        // A worker is started with a job for it, never ahead: `--jobs
        // 256` over one file starts one thread.
        let mut workers = 0;
        let start_worker = || {
            let (queued, finished, work) = (&queued, finished.clone(), &work);
            scope.spawn(move || loop {
                // The lock is held only while waiting for the next job.
                let next = match queued.lock() {
                    Ok(receiver) => receiver.recv(),
                    Err(_) => return,
                };
                let Ok((number, item)) = next else { return };
                let result = panic::catch_unwind(AssertUnwindSafe(|| work(&item)));
                if finished.send((number, item, result)).is_err() {
                    return;
                }
            });
        };
        let (mut started, mut next) = (0usize, 0usize);
        let mut waiting = BTreeMap::new();
        let mut drawn_all = false;
        loop {
            while !drawn_all && started < next + jobs {
                match items.next() {
                    Some(item) => {
                        if workers < jobs {
                            start_worker();
                            workers += 1;
                        }
                        // The workers outlive this loop: a send cannot fail.
                        let _ = queue.send((started, item));
                        started += 1;
                    }
                    None => drawn_all = true,
                }
            }
            if next == started {
                return None;
            }
            // A worker sends every job it takes, panics included, and none
            // stops while `queue` is open: a job under way always arrives.
            let Ok((number, item, result)) = results.recv() else {
                unreachable!("pool workers stopped with jobs under way");
            };
            waiting.insert(number, (item, result));
            while let Some((item, result)) = waiting.remove(&next) {
                next += 1;
                let result = match result {
                    Ok(result) => result,
                    Err(payload) => {
                        drop(queue);
                        panic::resume_unwind(payload);
                    }
                };
                if let ControlFlow::Break(value) = consume(item, result) {
                    // Dropping `queue` (on return) stops the workers after
                    // the jobs they hold.
                    return Some(value);
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Later items finish first: the order taken must still be the
    /// items' order, for every number of jobs.
    #[test]
    fn results_are_taken_in_order_whatever_finishes_first() {
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let stopped: Option<()> = ordered(
                jobs,
                0..20u64,
                |&n| {
                    thread::sleep(Duration::from_millis(20 - n));
                    n * n
                },
                |n, square| {
                    seen.push((n, square));
                    ControlFlow::Continue(())
                },
            );
            assert_eq!(stopped, None);
            let expected: Vec<(u64, u64)> = (0..20).map(|n| (n, n * n)).collect();
            assert_eq!(seen, expected, "jobs {jobs}");
        }
    }

    #[test]
    fn jobs_run_at_once_and_no_more_than_jobs_are_under_way() {
        let (running, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let drawn = AtomicUsize::new(0);
        let mut ahead = 0;
        ordered(
            3,
            (0..12).inspect(|_| {
                drawn.fetch_add(1, Ordering::SeqCst);
            }),
            |_| {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                thread::sleep(Duration::from_millis(30));
                running.fetch_sub(1, Ordering::SeqCst);
            },
            |n: usize, ()| {
                // Drawn but not yet taken: never more than 3.
                ahead = ahead.max(drawn.load(Ordering::SeqCst) - n);
                ControlFlow::<()>::Continue(())
            },
        );
        assert_eq!(most.load(Ordering::SeqCst), 3);
        assert_eq!(ahead, 3);
    }

    /// Threads of this process now (other tests' included).
    fn threads() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("Threads:")).unwrap();
        line["Threads:".len()..].trim().parse().unwrap()
    }

    /// Issue 38: `--jobs 20000` over one file started 20 000 threads
    /// (and failed to). Workers start with work, never ahead of it.
    #[test]
    fn no_more_threads_start_than_there_is_work_for() {
        let mut seen = Vec::new();
        ordered(
            5000,
            0..2,
            |_| threads(),
            |_, threads| {
                seen.push(threads);
                ControlFlow::<()>::Continue(())
            },
        );
        assert!(seen.iter().all(|&n| n < 1000), "{seen:?}");
    }

    #[test]
    fn a_break_stops_drawing_items() {
        let drawn = AtomicUsize::new(0);
        let mut taken = Vec::new();
        let stopped = ordered(
            2,
            (0..100).inspect(|_| {
                drawn.fetch_add(1, Ordering::SeqCst);
            }),
            |&n| n,
            |n, _| {
                taken.push(n);
                if n == 4 {
                    ControlFlow::Break("at four")
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(stopped, Some("at four"));
        assert_eq!(taken, [0, 1, 2, 3, 4]);
        assert!(drawn.load(Ordering::SeqCst) <= 6);
        let stopped = ordered(
            1,
            0..10,
            |&n| n,
            |n, _| {
                if n == 2 {
                    ControlFlow::Break(n)
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(stopped, Some(2));
    }

    #[test]
    fn a_panicking_job_panics_the_caller_without_hanging() {
        let caught = panic::catch_unwind(|| {
            ordered(
                2,
                0..10,
                |&n| {
                    if n == 3 {
                        panic!("job three");
                    }
                    n
                },
                |_, _| ControlFlow::<()>::Continue(()),
            )
        });
        let payload = caught.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"job three"));
    }

    #[test]
    fn the_default_is_at_least_one() {
        assert!(default_jobs() >= 1);
    }
}
