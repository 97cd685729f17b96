//! `pith tree`: a site's URL Tree as text. The outline itself (which nodes, in which order) is the
//! library's [`pith::outline`], the one the window's inspector draws; here are only the site or
//! item to show and the words for each row.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use pith::classify;
use pith::outline::{self, Limits, Marks, Row};
use pith::reading;

use super::open::{engine, open_store_to_read};
use super::output::output;

/// What `pith tree` is asked to show.
pub struct Request<'a> {
    /// A registrable domain, a host or any URL of the site.
    pub site: Option<&'a str>,
    /// The item whose branch to mark (the site is then the item's).
    pub item: Option<i64>,
    /// How much of the tree to show.
    pub limits: Limits,
}

/// Prints the tree of the site `request` names, the item's branch marked when one is given.
pub fn tree(db: Option<PathBuf>, request: &Request<'_>) -> Result<()> {
    let store = open_store_to_read(db)?;
    // The item's branch, as node paths, and the node that decides its page.
    let mut branch: Vec<String> = Vec::new();
    let mut decider: Option<String> = None;
    let domain = match request.item {
        Some(id) => {
            let article = reading::open_article(&store, &engine()?, id)?
                .with_context(|| format!("no item {id} (see `pith items`)"))?;
            if !article.has_page() {
                bail!("item {id} has no stored page (it could not be fetched), so no branch");
            }
            if let Some(b) = &article.branch {
                branch = b.nodes.iter().map(|n| n.path.clone()).collect();
                decider = article.deciding_node.map(|n| b.nodes[n].path.clone());
            }
            article
                .domain
                .or(article.item.domain)
                .context("the item's page has no site")?
        }
        None => site_domain(request.site.unwrap_or_default()),
    };
    let nodes = store.tree_nodes(&domain)?;
    if nodes.is_empty() {
        bail!("no URL Tree for {domain} yet: its pages arrive with `pith refresh`");
    }
    let marks = Marks {
        branch: &branch,
        decider: decider.as_deref(),
    };
    print_rows(&mut output(), &outline::rows(&nodes, marks, request.limits))?;
    Ok(())
}

/// The registrable domain of `site`: a URL, or a host with or without a port
/// (`127.0.0.1:18105`, `news.example.com`).
fn site_domain(site: &str) -> String {
    let site = site.trim();
    let host = url::Url::parse(site)
        .ok()
        .filter(|u| u.has_host())
        .or_else(|| url::Url::parse(&format!("http://{site}")).ok())
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| site.to_string());
    pith::urlkey::registrable_domain(&host)
}

/// One line per row, indented two spaces a level: `*` before the branch's nodes, each node's
/// `n_s`, the deciding node named, and the hidden children counted.
fn print_rows(out: &mut impl Write, rows: &[Row<'_>]) -> std::io::Result<()> {
    for row in rows {
        match row {
            Row::Node {
                depth,
                node,
                on_branch,
                decides,
            } => {
                let mark = if *on_branch { "*" } else { " " };
                let note = if *decides {
                    format!(
                        "  <- speaks for the site on this page (n_s > {})",
                        classify::site::MIN_SUPPORT
                    )
                } else {
                    String::new()
                };
                writeln!(
                    out,
                    "{mark} {:indent$}{}  n_s={}{note}",
                    "",
                    node.segment,
                    node.support,
                    indent = depth * 2
                )?;
            }
            Row::More {
                depth,
                nodes,
                documents,
            } => writeln!(
                out,
                "  {:indent$}… {nodes} more {}, {documents} {}",
                "",
                if *nodes == 1 { "node" } else { "nodes" },
                if *documents == 1 {
                    "document"
                } else {
                    "documents"
                },
                indent = depth * 2
            )?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pith::store::TreeNodeInfo;

    #[test]
    fn rows_are_printed_indented_with_the_branch_marked_and_the_hidden_counted() {
        let node = |id, parent, segment: &str, support| TreeNodeInfo {
            id,
            parent,
            segment: segment.to_string(),
            support,
        };
        let nodes = [
            node(1, 0, "ex.com", 7),
            node(2, 1, "news", 5),
            node(3, 1, "about", 1),
            node(4, 1, "jobs", 1),
            node(5, 2, "story", 5),
        ];
        let branch = ["ex.com".to_string(), "ex.com/news".into()];
        let marks = Marks {
            branch: &branch,
            decider: Some("ex.com/news"),
        };
        let rows = outline::rows(&nodes, marks, Limits { depth: 1, top: 1 });
        let mut out = Vec::new();
        print_rows(&mut out, &rows).unwrap();
        let min = classify::site::MIN_SUPPORT;
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!(
                "* ex.com  n_s=7\n\
                 *   news  n_s=5  <- speaks for the site on this page (n_s > {min})\n\
                 \x20     … 1 more node, 5 documents\n\
                 \x20   … 2 more nodes, 2 documents\n"
            )
        );
    }

    #[test]
    fn a_site_is_named_by_domain_host_or_url() {
        assert_eq!(site_domain("news.example.com"), "example.com");
        assert_eq!(
            site_domain(" https://www.example.co.uk/a/b "),
            "example.co.uk"
        );
        assert_eq!(site_domain("127.0.0.1:18105"), "127.0.0.1");
    }
}
