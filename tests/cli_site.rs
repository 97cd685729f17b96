//! The site commands: `pith pin`, `pith pins`, `pith unpin` and `pith tree` on articles
//! fetched from a loopback server, and OPML folders through `pith import` / `feeds` / `export`.

mod common;

use common::server::{Reply, Server, article, rss};
use common::{must, pith};

/// The number `pith read ID --blocks` gives the first block whose text starts with `text`.
fn block_number(blocks: &str, text: &str) -> String {
    let lines: Vec<&str> = blocks.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(text))
        .unwrap_or_else(|| panic!("no block {text:?} in\n{blocks}"));
    lines[at - 1].split_whitespace().next().unwrap().to_string()
}

#[test]
fn a_pinned_block_changes_the_article_until_the_pin_is_removed() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    let post = u("/news/owls");
    r.set(
        "/feed",
        Reply::ok(
            "application/rss+xml",
            rss(
                "Gazette",
                &[("Owls".into(), post.clone(), "About owls".into())],
            ),
        ),
    );
    r.set(
        "/news/owls",
        Reply::ok(
            "text/html",
            article(
                "Owls at night",
                &[
                    "Owls hunt at night, and their hearing guides them to prey in the dark.",
                    "Most owls nest in old trees, and some return to the same tree every year.",
                ],
                None,
            ),
        ),
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &u("/feed")]), "add");
    let id = must(pith(&db, &["items"]), "items")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let before = must(pith(&db, &["read", &id]), "read");
    assert!(before.contains("Owls hunt at night"), "{before}");
    assert!(!before.contains("Copyright"), "{before}");

    let blocks = must(pith(&db, &["read", &id, "--blocks"]), "read --blocks");
    let footer = block_number(&blocks, "Copyright The Loopback Gazette");
    let paragraph = block_number(&blocks, "Most owls nest");
    let pinned = must(pith(&db, &["pin", &id, &footer, "--content"]), "pin");
    assert!(pinned.contains("always content on 127.0.0.1"), "{pinned}");
    must(
        pith(&db, &["pin", &id, &paragraph, "--boilerplate"]),
        "pin boilerplate",
    );

    let after = must(pith(&db, &["read", &id]), "read after pin");
    assert!(after.contains("Copyright The Loopback Gazette"), "{after}");
    assert!(!after.contains("Most owls nest"), "{after}");
    assert!(after.contains("Owls hunt at night"), "{after}");
    let blocks = must(pith(&db, &["read", &id, "--blocks"]), "read --blocks");
    assert!(
        blocks.contains("pinned by you for this site (the method said boilerplate)"),
        "the reason names the pin: {blocks}"
    );

    let pins = must(pith(&db, &["pins"]), "pins");
    assert!(pins.contains("always content"), "{pins}");
    assert!(pins.contains("always boilerplate"), "{pins}");
    assert!(pins.contains("Copyright The Loopback Gazette"), "{pins}");
    assert_eq!(
        must(
            pith(&db, &["pins", "--site", "example.org"]),
            "pins of a site"
        ),
        "no pins yet: `pith pin ITEM BLOCK --content|--boilerplate`\n"
    );
    for line in pins.lines().filter(|l| l.contains("always")) {
        let pin = line.split_whitespace().next().unwrap();
        must(pith(&db, &["unpin", pin]), "unpin");
    }
    let restored = must(pith(&db, &["read", &id]), "read after unpin");
    assert_eq!(restored, before, "removing the pins restores the labels");

    // The site's tree, with the item's branch marked.
    let tree = must(pith(&db, &["tree", "--item", &id]), "tree --item");
    let lines: Vec<&str> = tree.lines().collect();
    assert!(lines[0].starts_with("* 127.0.0.1  n_s=1"), "{tree}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with('*') && l.contains("owls  n_s=1")),
        "{tree}"
    );
    let by_site = must(pith(&db, &["tree", &u("/anything")]), "tree SITE");
    assert!(by_site.starts_with("  127.0.0.1  n_s=1"), "{by_site}");
    let none = pith(&db, &["tree", "example.org"]);
    assert!(
        !none.ok && none.stderr.contains("no URL Tree for example.org"),
        "{}",
        none.stderr
    );

    // Clear errors for what does not exist.
    let bad = pith(&db, &["unpin", "999"]);
    assert!(
        !bad.ok && bad.stderr.contains("no pin 999"),
        "{}",
        bad.stderr
    );
    let bad = pith(&db, &["pin", &id, "100000", "--content"]);
    assert!(!bad.ok && bad.stderr.contains("--blocks"), "{}", bad.stderr);
    let bad = pith(&db, &["pin", "424242", "1", "--content"]);
    assert!(!bad.ok && bad.stderr.contains("no item"), "{}", bad.stderr);
    let bad = pith(&db, &["pin", &id, "1"]);
    assert!(!bad.ok, "a pin needs --content or --boilerplate");
}

#[test]
fn opml_folders_survive_import_listing_and_export() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    let opml = dir.path().join("subs.opml");
    std::fs::write(
        &opml,
        r#"<?xml version="1.0"?><opml version="2.0"><head><title>mine</title></head><body>
<outline text="Science"><outline text="Owls" xmlUrl="http://127.0.0.1:9/owls.xml"/></outline>
<outline text="Top" xmlUrl="http://127.0.0.1:9/top.xml"/>
</body></opml>"#,
    )
    .unwrap();
    must(pith(&db, &["import", opml.to_str().unwrap()]), "import");
    let feeds = must(pith(&db, &["feeds"]), "feeds");
    assert!(feeds.contains("in Science"), "{feeds}");
    assert_eq!(feeds.matches("      in ").count(), 1, "{feeds}");
    let exported = must(pith(&db, &["export"]), "export");
    let science = exported.find("Science").expect("folder exported");
    let owls = exported.find("owls.xml").unwrap();
    let top = exported.find("top.xml").unwrap();
    assert!(science < owls, "{exported}");
    assert!(
        exported[science..owls].contains("<outline"),
        "the feed sits inside its folder: {exported}"
    );
    // The feed outside any folder is exported outside every folder: not between the folder's
    // outline and its close.
    let folder_closes = science
        + exported[science..]
            .find("</outline>")
            .expect("the folder's outline closes");
    assert!(
        top < science || top > folder_closes,
        "top.xml sits in no folder: {exported}"
    );
}

#[test]
fn the_tree_names_the_node_that_speaks_for_a_known_site() {
    let server = Server::start();
    let r = &server.routes;
    let u = |p: &str| server.url(p);
    let birds = [
        "owls", "wrens", "crows", "finches", "herons", "swifts", "larks", "robins",
    ];
    let mut entries = Vec::new();
    for bird in birds {
        let path = format!("/news/{bird}");
        r.set(
            &path,
            Reply::ok(
                "text/html",
                article(
                    &format!("All about {bird}"),
                    &[&format!(
                        "The {bird} of the valley were counted this spring by volunteers."
                    )],
                    None,
                ),
            ),
        );
        entries.push((bird.to_string(), u(&path), format!("About {bird}")));
    }
    r.set(
        "/feed",
        Reply::ok("application/rss+xml", rss("Birds", &entries)),
    );
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("pith.db");
    must(pith(&db, &["add", &u("/feed")]), "add");
    let id = must(pith(&db, &["items"]), "items")
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let tree = must(pith(&db, &["tree", "--item", &id, "--top", "2"]), "tree");
    let decides: Vec<&str> = tree
        .lines()
        .filter(|l| l.contains("speaks for the site"))
        .collect();
    assert_eq!(decides.len(), 1, "{tree}");
    assert!(decides[0].starts_with("*"), "on the item's branch: {tree}");
    assert!(decides[0].contains("n_s=8"), "{tree}");
    assert!(
        tree.contains("more nodes"),
        "children beyond --top are counted: {tree}"
    );
    // The site named as a host with its port, as a user copies it from the address bar, or
    // as a URL: the same tree.
    let host_port = u("/")
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    for site in [host_port.as_str(), &u("/news/owls")] {
        let named = must(pith(&db, &["tree", site]), "tree SITE");
        assert!(named.contains("n_s=8"), "{site}: {named}");
    }
}
