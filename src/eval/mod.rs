//! `pith eval`: measuring the extraction engine on recorded datasets of real pages with human gold text.
//!
//! The same engine that feeds the reader runs here, so what the reader shows is what is measured
//! (ARCHITECTURE.md, "How quality is measured"). This half of the module is the measuring stick and the paperwork:
//!
//! - [`dataset`] reads a dataset's `manifest.jsonl` into pages in stream order;
//! - [`score`] turns an extracted text and its gold text into precision, recall and F1 over word tokens,
//!   using the longest common subsequence computed by [`lcs`];
//! - [`report`] aggregates per-page scores per method, per site and along the stream, and writes the
//!   tables, CSV files and the cumulative-F1 plot (the paper's Figure 5);
//! - [`run`] streams a dataset through a fresh database with the engine and scores every page;
//! - [`unnamed`] makes a page's class names unreadable, to measure how much quality rests on them.

pub mod dataset;
pub mod lcs;
pub mod report;
pub mod run;
pub mod score;
pub mod unnamed;
