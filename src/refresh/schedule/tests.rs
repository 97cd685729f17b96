//! The scheduler's choices, on a clock the tests set: no test sleeps.

use std::time::{Duration, Instant};

use super::{Pick, Queue};
use crate::politeness::{HostBook, Start};

const MS: Duration = Duration::from_millis(1);
const GAP: Duration = Duration::from_millis(50);

type Q = Queue<&'static str, &'static str, &'static str>;

/// Picks at `now` and, as the fetcher does when the task's request goes out, starts the request
/// in the book (hosts are the task names' first letter).
fn pick_and_start(
    q: &mut Q,
    book: &mut HostBook,
    now: Instant,
) -> Pick<&'static str, &'static str, &'static str> {
    let picked = q.pick(|h| book.ready_at(h, now), 8, true);
    let name = match &picked {
        Pick::Feed(n) | Pick::Page(n) | Pick::Image(n) => n,
        _ => return picked,
    };
    assert_eq!(
        book.try_start(&name[..1], now),
        Start::Now,
        "picked {name} for a host not ready"
    );
    picked
}

#[test]
fn two_requests_to_one_host_are_spaced_and_other_hosts_go_meanwhile() {
    let t0 = Instant::now();
    let mut book = HostBook::new(2, GAP);
    let mut q = Q::new();
    q.push_page("a1", "a".into());
    q.push_page("a2", "a".into());
    q.push_page("b1", "b".into());
    assert_eq!(pick_and_start(&mut q, &mut book, t0), Pick::Page("a1"));
    // Host a just started a request: b's page goes first, though queued after a's.
    assert_eq!(pick_and_start(&mut q, &mut book, t0), Pick::Page("b1"));
    // Only a's is left, and a's gap has not passed: wait exactly until it does.
    assert_eq!(
        pick_and_start(&mut q, &mut book, t0 + 10 * MS),
        Pick::Wait(Some(t0 + GAP))
    );
    assert_eq!(
        pick_and_start(&mut q, &mut book, t0 + GAP),
        Pick::Page("a2")
    );
}

#[test]
fn a_busy_host_waits_for_a_free_connection() {
    let t0 = Instant::now();
    let mut book = HostBook::new(1, GAP);
    let mut q = Q::new();
    q.push_page("a1", "a".into());
    q.push_page("a2", "a".into());
    assert_eq!(pick_and_start(&mut q, &mut book, t0), Pick::Page("a1"));
    // Long after the gap, but a's one connection is still busy.
    let later = t0 + 10 * GAP;
    assert!(matches!(pick_and_start(&mut q, &mut book, later), Pick::Wait(Some(t)) if t > later));
    book.finish("a");
    q.task_done();
    assert_eq!(pick_and_start(&mut q, &mut book, later), Pick::Page("a2"));
}

#[test]
fn a_short_retry_after_holds_its_host_back_and_no_other() {
    let t0 = Instant::now();
    let mut book = HostBook::new(2, GAP);
    let mut q = Q::new();
    q.push_page("a1", "a".into());
    assert_eq!(pick_and_start(&mut q, &mut book, t0), Pick::Page("a1"));
    book.finish("a");
    q.task_done();
    // a answered 429 with Retry-After: 2, which the request waits out.
    let wait = Duration::from_secs(2);
    assert!(book.retry_after("a", t0, wait, Duration::from_secs(10), false));
    q.push_page("a2", "a".into());
    q.push_page("b1", "b".into());
    assert_eq!(pick_and_start(&mut q, &mut book, t0 + MS), Pick::Page("b1"));
    assert_eq!(
        pick_and_start(&mut q, &mut book, t0 + 2 * GAP),
        Pick::Wait(Some(t0 + wait))
    );
    assert_eq!(
        pick_and_start(&mut q, &mut book, t0 + wait),
        Pick::Page("a2")
    );
}

#[test]
fn a_host_deferred_by_a_long_retry_after_is_picked_at_once_to_fail_fast() {
    let t0 = Instant::now();
    let mut book = HostBook::new(2, GAP);
    let mut q = Q::new();
    q.push_page("a1", "a".into());
    assert_eq!(pick_and_start(&mut q, &mut book, t0), Pick::Page("a1"));
    book.finish("a");
    q.task_done();
    assert!(!book.retry_after(
        "a",
        t0,
        Duration::from_secs(3600),
        Duration::from_secs(10),
        false
    ));
    q.push_page("a2", "a".into());
    // Not an hour's wait: the task is taken now and its fetch fails without asking.
    assert_eq!(
        q.pick(|h| book.ready_at(h, t0 + MS), 8, true),
        Pick::Page("a2")
    );
    assert_eq!(book.try_start("a", t0 + MS), Start::Deferred);
}

#[test]
fn a_feed_with_many_pages_on_one_host_does_not_hold_up_the_other_feeds() {
    let t0 = Instant::now();
    let mut book = HostBook::new(2, GAP);
    let mut q = Q::new();
    // Feed A's ten pages, all on host a, were queued before feed B's two on host b and
    // feed C's one on host c.
    for name in [
        "a01", "a02", "a03", "a04", "a05", "a06", "a07", "a08", "a09", "a10",
    ] {
        q.push_page(name, "a".into());
    }
    q.push_page("b1", "b".into());
    q.push_page("b2", "b".into());
    q.push_page("c1", "c".into());
    let mut order = Vec::new();
    for _ in 0..4 {
        if let Pick::Page(p) = pick_and_start(&mut q, &mut book, t0) {
            order.push(p);
        }
    }
    assert_eq!(
        order,
        ["a01", "b1", "c1"],
        "one page of each feed goes at once"
    );
    assert_eq!(
        pick_and_start(&mut q, &mut book, t0 + GAP),
        Pick::Page("a02")
    );
    assert_eq!(
        pick_and_start(&mut q, &mut book, t0 + GAP),
        Pick::Page("b2")
    );
}

#[test]
fn images_go_before_pages_and_pages_before_new_feeds() {
    let t0 = Instant::now();
    let book = HostBook::new(2, GAP);
    let mut q = Q::new();
    q.push_feed("f1", "f".into());
    q.push_page("p1", "p".into());
    q.push_image("i1", "i".into());
    let ready = |h: &str| book.ready_at(h, t0);
    assert_eq!(q.pick(ready, 8, true), Pick::Image("i1"));
    assert_eq!(q.pick(ready, 8, true), Pick::Page("p1"));
    assert_eq!(q.pick(ready, 8, true), Pick::Feed("f1"));
    // Everything taken, three running: wait for one to end, then done.
    assert_eq!(q.pick(ready, 8, true), Pick::Wait(None));
    q.task_done();
    q.task_done();
    q.task_done();
    assert_eq!(q.pick(ready, 8, true), Pick::Done);
}

#[test]
fn no_new_feed_is_taken_past_the_feeds_in_flight_or_the_memory_held() {
    let t0 = Instant::now();
    let book = HostBook::new(2, GAP);
    let mut q = Q::new();
    q.push_feed("f1", "f".into());
    q.push_feed("g1", "g".into());
    q.push_feed("h1", "h".into());
    let ready = |h: &str| book.ready_at(h, t0);
    assert_eq!(q.pick(ready, 1, true), Pick::Feed("f1"));
    assert_eq!(
        q.pick(ready, 1, true),
        Pick::Wait(None),
        "one feed in flight at most"
    );
    q.task_done();
    q.feed_done();
    assert_eq!(
        q.pick(ready, 1, false),
        Pick::Wait(None),
        "memory held is over the bound"
    );
    assert_eq!(q.pick(ready, 1, true), Pick::Feed("g1"));
}
