//! Quality floors: `pith eval` over real datasets must not get worse. Each floor is the value first
//! measured minus 0.01; later work may raise a floor, never lower it.

mod common;

/// The URL Tree heuristics on cleanportaleval (first measured: strict 0.878, strict-support-100,
/// strict-at-domain and relaxed-at-domain-500 0.882, vote 0.859).
#[test]
fn url_tree_heuristics_on_cleanportaleval_keep_their_floor() {
    common::assert_floors(
        "cleanportaleval",
        &[
            ("strict", 0.868),
            ("strict-support-100", 0.872),
            ("strict-at-domain", 0.872),
            ("relaxed-at-domain-500", 0.872),
            ("vote", 0.849),
        ],
    );
}
