//! `cargo bench --bench pith -- quality`: the `pith eval` tables of every shared dataset with the
//! Rust peers (dom_smoothie, rs-trafilatura) as rows of their own, on the same pages and with the
//! same scorer, overall, per half of the site split and, where a dataset has them, per page type.
//! Every quality claim in README stands beside these rows.

use std::path::Path;

use pith::classify::Method;
use pith::eval::report::{self, Grouping};
use pith::eval::run::{self, EvalOptions, Mode};
use pith::extract::Engine;

use crate::Args;
use crate::peers::PEERS;

/// Runs the comparison on each named dataset under `root`.
pub fn run(args: &Args, root: &Path, names: &[String]) -> anyhow::Result<()> {
    let methods = args
        .methods
        .split(',')
        .map(|m| Method::parse(m.trim()).map_err(|e| anyhow::anyhow!("method {m:?}: {e}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mode = Mode::parse(&args.mode)
        .ok_or_else(|| anyhow::anyhow!("unknown --mode {:?}: causal or reread", args.mode))?;
    let engine = Engine::default();
    for name in names {
        let options = EvalOptions {
            methods: methods.clone(),
            out: args.out.as_ref().map(|o| o.join(name)),
            mode,
            peers: if args.no_peers {
                Vec::new()
            } else {
                PEERS.to_vec()
            },
            unnamed: args.unnamed,
        };
        let run = run::run(&root.join(name), &options, &engine, |_, _| {})?;
        for problem in &run.problems {
            eprintln!("warning: {name}: {problem}");
        }
        println!("\n#### {name} ({mode:?}, {} pages)\n", run.pages);
        println!("{}", report::format_markdown_table(&run.results, false));
        println!(
            "{}",
            report::format_grouped(&run.results, Grouping::SiteHalf, true)
        );
        if run.results.iter().any(|r| r.page_type.is_some()) {
            println!(
                "{}",
                report::format_grouped(&run.results, Grouping::PageType, true)
            );
        }
        let per_page = |d: std::time::Duration| d.as_secs_f64() * 1000.0 / run.pages.max(1) as f64;
        let mut times = format!(
            "ms/page: pith-page's extraction {:.3}",
            per_page(run.page_level_time)
        );
        for (method, t) in methods.iter().zip(&run.method_times) {
            times.push_str(&format!(", {method} +{:.3}", per_page(*t)));
        }
        for (peer, t) in options.peers.iter().zip(&run.peer_times) {
            times.push_str(&format!(", {} {:.3}", peer.name, per_page(*t)));
        }
        println!("{times}");
    }
    Ok(())
}
