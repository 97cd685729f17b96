//! Full-text search over titles and clean article text (or the feed entry's text when the page
//! could not be fetched or holds little of the article), the queue that feeds the index at each
//! commit, and a hit's snippet. The index is contentless (schema.sql): it answers which items
//! match and how well, and keeps no text, so a hit's title is read from `item` and its snippet is
//! cut by [`snippet`] from the text the caller reads back (`Store::item_search_text`).

use std::borrow::Cow;

use rusqlite::{Connection, params};

use super::items::ItemId;
use super::settings::write_setting;
use super::{Store, StoreError};

/// A search result.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The item.
    pub id: ItemId,
    /// Its title.
    pub title: String,
    /// Its tier, lower first: 0 when its title holds every word of the query, 1 when only the
    /// title and text together do. Hits of one tier come newest first.
    pub rank: f64,
}

/// Queues an item's full-text row; [`flush_fts`] moves the queue into the index when the
/// transaction commits.
///
/// Why a queue: SQLite's full-text index writes its pending entries out as a new segment at every
/// savepoint, and a batch runs each write in one (and multi-row statements open their own). Rows
/// inserted as articles came were thus flushed one article at a time, each a small segment to
/// merge later (callgrind: about 0.6 M instructions per stored article). Queued in a temporary
/// table, which follows savepoints and rollbacks like any other, they reach the index together.
pub(super) fn insert_fts(
    tx: &Connection,
    id: ItemId,
    title: &str,
    body: &str,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT OR REPLACE INTO temp.fts_pending (rowid, title, body) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![id, index_form(title), index_form(body)])?;
    Ok(())
}

/// True for a character of a script written without spaces between words (Chinese, Japanese,
/// Thai, Lao, Khmer, Myanmar, Tibetan): the index's tokenizer takes a whole run of them, up to
/// the next space or punctuation, for one word, so a word inside a sentence would never be found.
fn is_unspaced_letter(c: char) -> bool {
    (crate::page::is_cjk(c) || crate::page::is_unspaced(c)) && c.is_alphanumeric()
}

/// Combining marks of the unspaced scripts (vowel signs, tone marks, kana's voicing marks):
/// SQLite's `unicode61` tokenizer takes marks for separators, so a pair of letters that held one
/// would reach the index cut in two. They are left out of the pairs; the letters carry the word.
fn is_unspaced_mark(c: char) -> bool {
    matches!(c,
        '\u{0E31}' | '\u{0E34}'..='\u{0E3A}' | '\u{0E47}'..='\u{0E4E}'     // Thai
        | '\u{0EB1}' | '\u{0EB4}'..='\u{0EBC}' | '\u{0EC8}'..='\u{0ECE}' // Lao
        | '\u{0F18}'..='\u{0F19}' | '\u{0F35}' | '\u{0F37}' | '\u{0F39}'
        | '\u{0F3E}'..='\u{0F3F}' | '\u{0F71}'..='\u{0F84}' | '\u{0F86}'..='\u{0F87}'
        | '\u{0F8D}'..='\u{0FBC}' | '\u{0FC6}'                              // Tibetan
        | '\u{102B}'..='\u{103E}' | '\u{1056}'..='\u{1059}' | '\u{105E}'..='\u{1060}'
        | '\u{1062}'..='\u{1064}' | '\u{1067}'..='\u{106D}' | '\u{1071}'..='\u{1074}'
        | '\u{1082}'..='\u{108D}' | '\u{108F}' | '\u{109A}'..='\u{109D}'  // Myanmar
        | '\u{17B4}'..='\u{17D3}' | '\u{17DD}'                              // Khmer
        | '\u{3099}'..='\u{309A}' // combining kana voicing marks
    )
}

/// How a text's runs of unspaced script are written out for the index or a query.
#[derive(Clone, Copy, PartialEq)]
enum RunForm {
    /// For the index: a run's overlapping pairs of letters, then its last letter alone (so that a
    /// one-letter query, asked as a prefix, finds a letter that ends a run too).
    Index,
    /// For a query: the pairs only, every one of which a matching text holds; a one-letter run
    /// stays one letter, asked as a prefix.
    Query,
}

/// `text` with every run of unspaced script ([`is_unspaced_letter`]) written as its overlapping
/// pairs of letters, each a word of its own, as search engines index Chinese and Thai: "東京都"
/// becomes "東京 京都 都". A query's pairs ([`query_form`]) are then words of the index, wherever
/// the query's word stands in a sentence. Other text is left as it is; the stored text is never
/// this form (the index keeps no text).
pub(super) fn index_form(text: &str) -> Cow<'_, str> {
    unspaced_pairs(text, RunForm::Index)
}

/// A query's words in the index's form ([`index_form`]), pairs only.
fn query_form(text: &str) -> Cow<'_, str> {
    unspaced_pairs(text, RunForm::Query)
}

/// `text` with its runs of unspaced script written out in `form` ([`index_form`], [`query_form`]).
fn unspaced_pairs(text: &str, form: RunForm) -> Cow<'_, str> {
    if !text.chars().any(is_unspaced_letter) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() * 3);
    let mut run: Vec<char> = Vec::new();
    let flush = |run: &mut Vec<char>, out: &mut String| {
        if run.is_empty() {
            return;
        }
        out.push(' ');
        if run.len() == 1 {
            out.push(run[0]);
        } else {
            for pair in run.windows(2) {
                out.extend(pair);
                out.push(' ');
            }
            if form == RunForm::Index {
                out.extend(run.last());
            }
        }
        out.push(' ');
        run.clear();
    };
    for c in text.chars() {
        if is_unspaced_letter(c) && !is_unspaced_mark(c) {
            run.push(c);
        } else if is_unspaced_mark(c) && !run.is_empty() {
            // A mark is left out: the letter before it stands for the syllable.
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    Cow::Owned(out)
}

/// Removes an item's full-text row, indexed or still queued.
pub(super) fn delete_fts(tx: &Connection, id: ItemId) -> Result<(), StoreError> {
    tx.prepare_cached("DELETE FROM item_fts WHERE rowid = ?1")?
        .execute([id])?;
    tx.prepare_cached("DELETE FROM temp.fts_pending WHERE rowid = ?1")?
        .execute([id])?;
    Ok(())
}

/// Gives an item's full-text row (indexed or still queued) a new title. `body` is the item's
/// search text as indexed: a contentless index replaces a row whole, so the body is written again.
pub(super) fn retitle_fts(
    tx: &Connection,
    id: ItemId,
    title: &str,
    body: &str,
) -> Result<(), StoreError> {
    let queued = tx
        .prepare_cached("UPDATE temp.fts_pending SET title = ?2 WHERE rowid = ?1")?
        .execute(params![id, index_form(title)])?
        > 0;
    if !queued {
        insert_fts(tx, id, title, body)?;
    }
    Ok(())
}

/// Moves the queued full-text rows (see [`insert_fts`]) into the index; run by `Store` just before
/// every commit.
pub(crate) fn flush_fts(tx: &Connection) -> Result<(), StoreError> {
    let queued = tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM temp.fts_pending)")?
        .query_row([], |r| r.get::<_, bool>(0))?;
    if queued {
        // REPLACE: an item indexed before (a retried page) gets its new text in place.
        tx.prepare_cached(
            "INSERT OR REPLACE INTO item_fts (rowid, title, body)
             SELECT rowid, title, body FROM temp.fts_pending ORDER BY rowid",
        )?
        .execute([])?;
        tx.prepare_cached("DELETE FROM temp.fts_pending")?
            .execute([])?;
    }
    Ok(())
}

/// The form the index writes its rows in now: 2 since runs of unspaced scripts go in as pairs of
/// letters ([`index_form`]) and the feed's text stands in for a page that holds little of the
/// article. A file whose rows were written in an older form is brought to this one a batch of
/// items at a time ([`Store::items_to_reindex`]), oldest first.
pub const SEARCH_FORM: u32 = 2;

/// An item whose full-text row may be of an older form, as it stood when listed.
#[derive(Debug, Clone, PartialEq)]
pub struct ReindexItem {
    /// The item.
    pub id: ItemId,
    /// Its title.
    pub title: String,
    /// Its page fetches so far: a retry that stores the page raises it.
    pub attempts: i64,
}

/// The setting that holds the form of a file's rows ([`SEARCH_FORM`]) once every row is in it;
/// absent or lower while older rows remain.
const FORM_SETTING: &str = "search_index_form";

/// The setting that holds the last item whose row was written again, while a file's older rows
/// are being brought to the current form, as `form:id` (the form it counts towards, then the
/// item): a cursor left by a reindexing towards an earlier form says nothing of the rows of a
/// later one. A bare id was written by the one version whose cursor had no form, towards form 2.
const CURSOR_SETTING: &str = "search_reindexed_to";

/// Reads a cursor's setting: the item it reached, when it counts towards `form`.
fn cursor_towards(value: &str, form: u32) -> Option<ItemId> {
    let (towards, id) = match value.split_once(':') {
        Some((towards, id)) => (towards.parse().ok()?, id),
        None => (2, value),
    };
    (towards == form).then(|| id.parse().ok()).flatten()
}

/// The words of a query that a search asks for; the rest are left out. Every item must hold
/// every word, so a longer query (a pasted paragraph) finds nothing more, and each word costs
/// the tokenizer a round trip.
pub const MAX_QUERY_WORDS: usize = 32;

/// How many of the newest matches [`Store::search`] ranks: the bound on what one search costs,
/// whatever the database's size. A common word matches most of the items, and ranking every
/// match took 66–216 ms at 368,000 items. FTS5 walks a query's matches newest first (by rowid,
/// descending) and stops after this many, so a search costs about this many matches. 5,000 is
/// ten times what the window lists (500) and weeks of a large subscription's items.
pub const SEARCH_RANKED: usize = 5_000;

impl Store {
    /// The next `limit` items whose full-text rows may be of an older form than [`SEARCH_FORM`],
    /// in id order; empty when every row is of the current form.
    pub fn items_to_reindex(&self, limit: usize) -> Result<Vec<ReindexItem>, StoreError> {
        if self.search_form()? >= SEARCH_FORM {
            return Ok(Vec::new());
        }
        let after: ItemId = self
            .setting(CURSOR_SETTING)?
            .and_then(|v| cursor_towards(&v, SEARCH_FORM))
            .unwrap_or(0);
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, title, attempts FROM item WHERE id > ?1 ORDER BY id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![after, limit as i64], |r| {
            Ok(ReindexItem {
                id: r.get(0)?,
                title: r.get(1)?,
                attempts: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes the full-text rows of `items` (each with its search text, read as the item stood
    /// when [`Store::items_to_reindex`] listed it) again in the current form, and moves the
    /// reindexing on: past item `through`, or, when it is `None`, to its end (no older row is
    /// left, and the file's form becomes [`SEARCH_FORM`]). One transaction: a reindexing cut short
    /// resumes where its last batch ended. An item that changed since it was listed (retitled, its
    /// page fetched at last) or went (retention) is left alone: whoever changed it wrote its row.
    /// Returns how many rows were written.
    pub fn reindex_search_rows(
        &mut self,
        items: &[(ReindexItem, String)],
        through: Option<ItemId>,
    ) -> Result<usize, StoreError> {
        self.write(|tx| {
            let mut written = 0;
            for (item, body) in items {
                let unchanged: bool = tx
                    .prepare_cached(
                        "SELECT EXISTS (SELECT 1 FROM item WHERE id = ?1 AND title = ?2
                             AND attempts = ?3)",
                    )?
                    .query_row(params![item.id, item.title, item.attempts], |r| r.get(0))?;
                if unchanged {
                    delete_fts(tx, item.id)?;
                    insert_fts(tx, item.id, &item.title, body)?;
                    written += 1;
                }
            }
            match through {
                Some(last) => write_setting(tx, CURSOR_SETTING, &format!("{SEARCH_FORM}:{last}"))?,
                None => {
                    write_setting(tx, FORM_SETTING, &SEARCH_FORM.to_string())?;
                    tx.prepare_cached("DELETE FROM setting WHERE key = ?1")?
                        .execute([CURSOR_SETTING])?;
                }
            }
            Ok(written)
        })
    }

    /// The form of the file's full-text rows: [`SEARCH_FORM`] once all are in it, else the
    /// form of its oldest (1 for a file written before the form was recorded).
    pub fn search_form(&self) -> Result<u32, StoreError> {
        Ok(self
            .setting(FORM_SETTING)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(1))
    }

    /// Full-text search over titles and clean article text: the best `limit` of the newest
    /// [`SEARCH_RANKED`] items that hold every word of `query` (an item's id grows with its
    /// arrival, so these are the matches that arrived last). Best first means: items whose title
    /// holds every word, then the others, each newest first. A query that matches fewer items
    /// than the bound has all its matches ranked; a common word gives its best recent matches,
    /// and an older article that matches it is not among them. That bounds a search's cost by
    /// the bound, not by the database's size.
    ///
    /// Why not bm25: the index keeps, per word, only which columns of an item hold it
    /// (`detail=column`) and no text (contentless), so FTS5's bm25 finds no word counts and
    /// scores every match 0: ranked by it, the hits came oldest first.
    ///
    /// `query` is taken as plain words (the first [`MAX_QUERY_WORDS`], each required; only a
    /// single letter of an unspaced script is a prefix, see [`index_form`]), so that user input
    /// never trips FTS5's query syntax.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, StoreError> {
        self.search_newest(query, limit, SEARCH_RANKED.max(limit))
    }

    /// [`Store::search`] ranking the newest `ranked` matches.
    fn search_newest(
        &self,
        query: &str,
        limit: usize,
        ranked: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let terms = self.query_terms(query)?;
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let fts_query = terms.join(" AND ");
        // Every word in the title: the same words, each with the title's column filter.
        let title_query = terms
            .iter()
            .map(|t| format!("title : {t}"))
            .collect::<Vec<_>>()
            .join(" AND ");
        // The candidates: the newest `ranked` matches (FTS5 walks them by rowid, descending, and
        // stops). Of those, the title matches come from one more walk of the index over the
        // candidates' rowid range only. The title is read from `item`: the index keeps none.
        let mut stmt = self.conn.prepare_cached(
            "WITH cand(id) AS MATERIALIZED (
                 SELECT rowid FROM item_fts WHERE item_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?3
             )
             SELECT c.id, i.title,
                 CASE WHEN c.id IN (
                     SELECT rowid FROM item_fts WHERE item_fts MATCH ?4
                         AND rowid >= (SELECT min(id) FROM cand)
                 ) THEN 0.0 ELSE 1.0 END AS tier
             FROM cand c JOIN item i ON i.id = c.id
             ORDER BY tier, c.id DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(
            params![fts_query, limit as i64, ranked as i64, title_query],
            |r| {
                Ok(SearchHit {
                    id: r.get(0)?,
                    title: r.get(1)?,
                    rank: r.get(2)?,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl Store {
    /// The terms of `query`, each an FTS5 expression that one of its words must match, all
    /// required. A word of Latin (or any spaced) script is one quoted token. A word of unspaced
    /// script is the pairs of its letters ([`query_form`]), all required, or a one-letter prefix;
    /// or else the word as a whole, as rows indexed before the index held pairs keep it.
    fn query_terms(&self, query: &str) -> Result<Vec<String>, StoreError> {
        // Every token of a word, in brackets: `title : (…)` then filters the whole word (an
        // unbracketed `title : "l" AND "ete"` would ask only `l` of the title).
        let all_of = |tokens: &[String], prefix_letters: bool| -> String {
            let each: Vec<String> = tokens
                .iter()
                .map(|t| {
                    let mut chars = t.chars();
                    match (chars.next(), chars.next()) {
                        // One letter of an unspaced script: the index holds it as the first of
                        // a pair, or alone where it ends a run.
                        (Some(c), None) if prefix_letters && is_unspaced_letter(c) => {
                            format!("\"{t}\" *")
                        }
                        _ => format!("\"{t}\""),
                    }
                })
                .collect();
            format!("({})", each.join(" AND "))
        };
        let mut terms = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for word in query.split_whitespace().take(MAX_QUERY_WORDS) {
            let paired = self.query_tokens(&query_form(word))?;
            if paired.is_empty() {
                continue;
            }
            // A word of spaced script is the same either way: the tokenizer is asked once.
            let whole = if word.chars().any(is_unspaced_letter) {
                self.query_tokens(word)?
            } else {
                paired.clone()
            };
            let term = if paired == whole || whole.is_empty() {
                all_of(&paired, true)
            } else {
                format!("({} OR {})", all_of(&paired, true), all_of(&whole, false))
            };
            // A word given twice is asked for once.
            if seen.insert(term.clone()) {
                terms.push(term);
            }
        }
        Ok(terms)
    }

    /// `query` cut into the index's own tokens, in order, by the index's tokenizer: each becomes
    /// one term. The index keeps no word positions (detail=column), so a quoted term that the
    /// tokenizer cuts in two is a phrase query, which FTS5 refuses; and where Rust and unicode61
    /// cut words differs (Devanagari, Bengali, Thai, …: unicode61 cuts at their vowel signs,
    /// Rust's `is_alphanumeric` does not), only the tokenizer knows. A temporary full-text table
    /// with the same tokenizer is given the query, and its vocabulary read back.
    fn query_tokens(&self, query: &str) -> Result<Vec<String>, StoreError> {
        self.conn.execute_batch(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5 (
                 q, tokenize = 'unicode61 remove_diacritics 2'
             );
             CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_vocab
                 USING fts5vocab(temp, query_words, instance);
             DELETE FROM temp.query_words;",
        )?;
        self.conn
            .prepare_cached("INSERT INTO temp.query_words (rowid, q) VALUES (1, ?1)")?
            .execute([query])?;
        let mut tokens: Vec<String> = self
            .conn
            .prepare_cached("SELECT term FROM temp.query_vocab ORDER BY offset")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        self.conn
            .prepare_cached("DELETE FROM temp.query_words")?
            .execute([])?;
        // A word given twice is asked for once.
        let mut seen = std::collections::HashSet::new();
        tokens.retain(|t| seen.insert(t.clone()));
        Ok(tokens)
    }
}

/// True for a character of a word as a snippet sees words: a letter or digit, or a mark of an
/// unspaced script (a Thai tone mark is no letter to Rust, but inside its word).
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_unspaced_mark(c)
}

/// The words of a search query as the index matches them: lower case, split where
/// [`Store::search`] splits them.
fn query_words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !is_word_char(c))
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The passage of `text` around the first word of `query` it holds: about `width` words, the
/// query's words in `[…]`, `…` where the text was cut; the text's start when none is there (a
/// title match). What FTS5's `snippet()` gave before the index was made contentless, cut from the
/// text the caller read back instead (a few items a search, so the cost is the caller's few
/// reads). Words are compared in lower case; the index also folds diacritics, so a match found
/// only that way shows the text's start.
pub fn snippet(text: &str, query: &str, width: usize) -> String {
    let wanted = query_words(query);
    let width = width.max(1);
    // The text's words with their byte ranges.
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (is_word_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        words.push((s, text.len()));
    }
    // The part of a text word that a query word is: the whole word, or, for a query word of an
    // unspaced script, where it stands inside the text's run (a Chinese sentence is one word).
    let wanted_part = |&(s, e): &(usize, usize)| -> Option<(usize, usize)> {
        let word = &text[s..e];
        if wanted.contains(&word.to_lowercase()) {
            return Some((s, e));
        }
        // ASCII lower case keeps every byte where it was ("iPhone手机" holds "iphone手机").
        let lower = word.to_ascii_lowercase();
        wanted
            .iter()
            .filter(|w| w.chars().any(is_unspaced_letter))
            .find_map(|w| lower.find(w.as_str()).map(|at| (s + at, s + at + w.len())))
    };
    let is_wanted = |w: &(usize, usize)| wanted_part(w).is_some();
    let first = words.iter().position(is_wanted).unwrap_or(0);
    // A few words of context before the first match.
    let from = first.saturating_sub(width / 4);
    let to = (from + width).min(words.len());
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    let Some(&(begin, _)) = words.get(from) else {
        return out;
    };
    let mut at = begin;
    for w in &words[from..to] {
        out.push_str(&text[at..w.0]);
        if let Some((s, e)) = wanted_part(w) {
            out.push_str(&text[w.0..s]);
            out.push('[');
            out.push_str(&text[s..e]);
            out.push(']');
            out.push_str(&text[e..w.1]);
        } else {
            out.push_str(&text[w.0..w.1]);
        }
        at = w.1;
    }
    if to < words.len() {
        out.push('…');
    } else {
        // The text's end: its last punctuation too.
        out.push_str(&text[at..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queued_full_text_rows_follow_their_writes_into_the_index() {
        let mut store = Store::open_in_memory().unwrap();
        let hits = |store: &Store, word: &str| -> i64 {
            store
                .conn
                .query_row(
                    "SELECT count(*) FROM item_fts WHERE item_fts MATCH ?1",
                    [word],
                    |r| r.get(0),
                )
                .unwrap()
        };
        store.begin_batch();
        store
            .write(|tx| insert_fts(tx, 1, "kept", "the aardvark stays"))
            .unwrap();
        let failed: Result<(), StoreError> = store.write(|tx| {
            insert_fts(tx, 2, "lost", "the bandicoot goes")?;
            Err(StoreError::Corrupt("this write fails".into()))
        });
        assert!(failed.is_err());
        store
            .write(|tx| {
                insert_fts(tx, 3, "deleted", "the chinchilla leaves")?;
                delete_fts(tx, 3)
            })
            .unwrap();
        assert_eq!(hits(&store, "aardvark"), 0, "queued until the commit");
        store.commit_batch().unwrap();
        assert_eq!(hits(&store, "aardvark"), 1);
        assert_eq!(hits(&store, "bandicoot"), 0);
        assert_eq!(hits(&store, "chinchilla"), 0);
        // Outside a batch a write's row is searchable when the write returns.
        store
            .write(|tx| insert_fts(tx, 4, "alone", "the dugong swims"))
            .unwrap();
        assert_eq!(hits(&store, "dugong"), 1);
        // An item indexed before gets its new text in place of the old.
        store
            .write(|tx| insert_fts(tx, 1, "kept", "the emu replaces it"))
            .unwrap();
        assert_eq!((hits(&store, "aardvark"), hits(&store, "emu")), (0, 1));
    }

    /// A snippet is the text around the query's first word, its words marked, cut with `…`; a
    /// text without the words (a title match) gives its start.
    #[test]
    fn a_snippet_marks_the_query_words_around_the_first_one() {
        let text = "One two three four five six seven eight nine ten. The Walrus rests on eleven \
                    twelve thirteen, a walrus again, fourteen fifteen sixteen.";
        assert_eq!(
            snippet(text, "walrus", 8),
            "…ten. The [Walrus] rests on eleven twelve thirteen…"
        );
        assert_eq!(
            snippet(text, "WALRUS eleven", 40),
            "…two three four five six seven eight nine ten. The [Walrus] rests on [eleven] twelve \
             thirteen, a [walrus] again, fourteen fifteen sixteen."
        );
        assert_eq!(snippet(text, "absent", 3), "One two three…");
        assert_eq!(snippet("", "walrus", 12), "");
        assert_eq!(snippet("Le même été", "ete même", 12), "Le [même] été");
    }

    /// A retitled row is found by its new title, not its old one, and still by its text; the
    /// title of a hit is the item's.
    #[test]
    fn a_retitled_row_is_found_by_its_new_title() {
        let mut store = Store::open_in_memory().unwrap();
        store
            .conn
            .execute(
                "INSERT INTO item (id, link, title, added) VALUES (1, 'https://ex.test/1', 'New', 0)",
                [],
            )
            .unwrap();
        store
            .write(|tx| insert_fts(tx, 1, "Narwhal", "the body of the article"))
            .unwrap();
        store
            .write(|tx| retitle_fts(tx, 1, "Beluga", "the body of the article"))
            .unwrap();
        assert!(store.search("narwhal", 10).unwrap().is_empty());
        let hits = store.search("beluga article", 10).unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].title, "New");
    }

    /// A common word's hits are the best of its newest matches: an old item that matches better
    /// (the word in its title) is left out once newer matches fill the ranked set, and within
    /// that set the title still weighs more; equals come newest first.
    #[test]
    fn search_ranks_only_the_newest_matches() {
        let mut store = Store::open_in_memory().unwrap();
        // Items 1-20 without the word (so that it is not in most items, where bm25 gives every
        // match the same score); 21-30 with it in their text, and 21 (the oldest) and 29 in
        // their titles too.
        for id in 1..=30 {
            let title = if id == 21 || id == 29 {
                "Walrus news"
            } else {
                "News"
            };
            let body = if id > 20 {
                "a walrus in the text of the article"
            } else {
                "an otter in the text of the article"
            };
            store
                .conn
                .execute(
                    "INSERT INTO item (id, link, title, added) VALUES (?1, 'https://ex.test/', ?2, 0)",
                    params![id, title],
                )
                .unwrap();
            store.write(|tx| insert_fts(tx, id, title, body)).unwrap();
        }
        let ids = |limit, ranked| -> Vec<ItemId> {
            store
                .search_newest("walrus", limit, ranked)
                .unwrap()
                .into_iter()
                .map(|h| h.id)
                .collect()
        };
        // All ten ranked: the two title matches first (the oldest one included), then the
        // rest, newest first among equals.
        assert_eq!(ids(3, 10), [29, 21, 30]);
        // The newest three ranked: item 21 is not among them; item 29's title still counts.
        assert_eq!(ids(3, 3), [29, 30, 28]);
        // Several words: the title tier needs them all in the title.
        let words = |q: &str| -> Vec<ItemId> {
            store
                .search_newest(q, 3, 10)
                .unwrap()
                .into_iter()
                .map(|h| h.id)
                .collect()
        };
        assert_eq!(words("news walrus"), [29, 21, 30]);
        assert_eq!(words("walrus article"), [30, 29, 28]);
        // `Store::search` itself: fewer matches than its bound, so every one is ranked.
        let hits: Vec<ItemId> = store
            .search("walrus", 2)
            .unwrap()
            .iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(hits, [29, 21]);
    }

    /// Words of scripts whose vowel signs the index's tokenizer cuts at (Devanagari) are found,
    /// not refused as phrase queries (the index keeps no positions); Latin with diacritics and
    /// words given twice too.
    #[test]
    fn words_cut_by_the_tokenizer_are_found_not_refused() {
        let store = store_with(&["हिन्दी समाचार आज", "Le café de l'été", "other"]);
        assert_eq!(found(&store, "समाचार"), [1]);
        assert_eq!(found(&store, "हिन्दी"), [1]);
        assert_eq!(found(&store, "CAFE ete cafe"), [2]);
        assert_eq!(found(&store, "\"(*"), Vec::<ItemId>::new());
    }

    /// A store holding `bodies` as items 1, 2, ….
    fn store_with(bodies: &[&str]) -> Store {
        let mut store = Store::open_in_memory().unwrap();
        for (id, body) in (1..).zip(bodies) {
            store
                .conn
                .execute(
                    "INSERT INTO item (id, link, title, added) VALUES (?1, 'https://ex.test/', 'T', 0)",
                    [id],
                )
                .unwrap();
            store.write(|tx| insert_fts(tx, id, "T", body)).unwrap();
        }
        store
    }

    /// The ids a search for `query` finds, in order.
    fn found(store: &Store, query: &str) -> Vec<ItemId> {
        let mut ids: Vec<ItemId> = store
            .search(query, 10)
            .unwrap()
            .into_iter()
            .map(|h| h.id)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Chinese, Japanese and Thai put no spaces between words, and the tokenizer took a whole
    /// sentence for one word: a word inside it is found now, by its pairs of letters, and a text
    /// that holds the letters apart is not.
    #[test]
    fn a_word_inside_a_sentence_of_an_unspaced_script_is_found() {
        let store = store_with(&[
            "北京市今天发布了新的交通规定。",
            "東京都は新しい計画を発表した",
            "รัฐบาลไทยประกาศมาตรการใหม่เพื่อช่วยเหลือเกษตรกร",
            "京北的市场",
            "English only text",
        ]);
        assert_eq!(found(&store, "交通"), [1]);
        assert_eq!(found(&store, "北京"), [1]);
        assert_eq!(found(&store, "東京"), [2]);
        assert_eq!(found(&store, "計画"), [2]);
        // Thai, with its vowel signs and tone marks.
        assert_eq!(found(&store, "มาตรการ"), [3]);
        assert_eq!(found(&store, "เกษตรกร"), [3]);
        assert_eq!(found(&store, "ไทย"), [3]);
        // Both of a query's words, of two scripts.
        assert_eq!(found(&store, "交通 规定"), [1]);
        assert_eq!(found(&store, "交通 English"), Vec::<ItemId>::new());
        // The letters of 北京 are both in item 4, not side by side.
        assert_eq!(found(&store, "北京市"), [1]);
        assert!(!found(&store, "北京").contains(&4));
        // One letter: wherever it stands in a run, its end included.
        assert_eq!(found(&store, "京"), [1, 2, 4]);
        assert_eq!(found(&store, "场"), [4]);
        assert_eq!(found(&store, "English"), [5]);
    }

    /// A row indexed before the index held pairs keeps a run whole: a query of that whole run
    /// still finds it.
    #[test]
    fn rows_indexed_before_pairs_are_found_by_their_whole_run() {
        let store = store_with(&["other"]);
        store
            .conn
            .execute(
                "INSERT INTO item (id, link, title, added) VALUES (9, 'https://ex.test/', 'T', 0)",
                [],
            )
            .unwrap();
        store
            .conn
            .execute(
                "INSERT INTO item_fts (rowid, title, body) VALUES (9, 'T', '新闻 交通规定')",
                [],
            )
            .unwrap();
        assert_eq!(found(&store, "交通规定"), [9]);
        assert_eq!(found(&store, "新闻"), [9]);
    }

    #[test]
    fn the_index_form_pairs_unspaced_runs_and_leaves_other_text() {
        assert_eq!(index_form("plain words"), "plain words");
        assert_eq!(index_form("東京都"), " 東京 京都 都 ");
        assert_eq!(index_form("iPhone手机"), "iPhone 手机 机 ");
        assert_eq!(query_form("東京都"), " 東京 京都  ");
        assert_eq!(query_form("都"), " 都 ");
        // Thai's marks go with their letter: กัน is ก, น.
        assert_eq!(index_form("กัน"), " กน น ");
    }

    /// A snippet marks a word of an unspaced script where it stands inside its sentence.
    #[test]
    fn a_snippet_marks_a_word_inside_an_unspaced_sentence() {
        assert_eq!(
            snippet("北京市今天发布了新的交通规定。", "交通", 20),
            "北京市今天发布了新的[交通]规定。"
        );
        assert_eq!(
            snippet("รัฐบาลไทยประกาศ มาตรการใหม่", "ไทย", 20),
            "รัฐบาล[ไทย]ประกาศ มาตรการใหม่"
        );
    }

    /// A word the tokenizer cuts in two (`l'été`: `l`, `ete`) is a title match only when the title
    /// holds all of it; and a title given while its row is still queued is indexed in pairs too.
    #[test]
    fn a_title_match_needs_the_whole_word_and_a_queued_retitle_is_paired() {
        let mut store = Store::open_in_memory().unwrap();
        for id in [1, 2] {
            store
                .conn
                .execute(
                    "INSERT INTO item (id, link, title, added) VALUES (?1, 'https://ex.test/', 'T', 0)",
                    [id],
                )
                .unwrap();
        }
        store
            .write(|tx| {
                insert_fts(tx, 1, "L'avion", "un été chaud")?;
                insert_fts(tx, 2, "T", "queued")?;
                retitle_fts(tx, 2, "北京新闻发布", "queued")
            })
            .unwrap();
        let hits = store.search("l'été", 10).unwrap();
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].rank, 1.0, "the title holds `l`, not `été`");
        let hits = store.search("新闻", 10).unwrap();
        assert_eq!(hits.iter().map(|h| h.id).collect::<Vec<_>>(), [2]);
        assert_eq!(hits[0].rank, 0.0);
    }

    /// A query is read up to its first [`MAX_QUERY_WORDS`] words.
    #[test]
    fn a_pasted_paragraph_asks_for_its_first_words_only() {
        let store = store_with(&["alpha beta"]);
        let long: String = std::iter::once("alpha")
            .chain(std::iter::repeat_n("beta", MAX_QUERY_WORDS - 1))
            .chain(std::iter::once("missing"))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(found(&store, &long), [1]);
    }

    /// An item retitled (or fetched at last) between its listing and the write keeps the row its
    /// change wrote; the others are written, and the reindexing ends.
    #[test]
    fn a_row_changed_since_it_was_listed_is_not_written_back() {
        let mut store = store_with(&["one", "two"]);
        store.set_setting(FORM_SETTING, "1").unwrap();
        let listed = store.items_to_reindex(10).unwrap();
        assert_eq!(listed.iter().map(|i| i.id).collect::<Vec<_>>(), [1, 2]);
        store
            .conn
            .execute("UPDATE item SET title = 'New' WHERE id = 1", [])
            .unwrap();
        let rows: Vec<(ReindexItem, String)> = listed
            .into_iter()
            .map(|item| (item, "stale text".to_owned()))
            .collect();
        assert_eq!(store.reindex_search_rows(&rows, None).unwrap(), 1);
        assert_eq!(found(&store, "stale"), [2]);
        assert_eq!(found(&store, "one"), [1]);
        assert_eq!(store.search_form().unwrap(), SEARCH_FORM);
        assert!(store.items_to_reindex(10).unwrap().is_empty());
    }
}
