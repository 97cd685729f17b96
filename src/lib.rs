//! pith's library: the extraction engine and everything the reader and the command line share.
//!
//! The data flow (see README.md): page bytes are decoded ([`charset`]), parsed into an arena DOM
//! ([`dom`]) and cut into text blocks ([`page`]); the response URL and the entry title give a URL key
//! ([`urlkey`]); the page's block hashes go into the site's URL Tree ([`urltree`], persisted by
//! [`store`]); [`extract`] runs one document through all of it, and [`eval`] measures the result on
//! recorded datasets. [`outline`] lays a site's tree out for the window and `pith tree` alike.

mod attrguard;
pub mod charset;
pub mod classify;
pub mod dom;
pub mod eval;
pub mod extract;
pub mod feeds;
pub mod fetch;
pub mod limits;
pub mod outline;
pub mod page;
pub mod politeness;
pub mod reading;
pub mod refresh;
pub mod safety;
pub mod store;
#[cfg(feature = "window")]
pub mod ui;
pub mod urlkey;
pub mod urltree;
