//! Long same-site streams for the size and scale runs: a real dataset page keeps its template (all
//! markup, navigation, sidebars, footers) while the text of its long paragraphs is replaced, page
//! after page, with shuffled sentences taken from other pages, under a new URL whose date segments
//! follow the stream's clock. So every generated page repeats the site's boilerplate exactly and
//! carries an article nobody has seen, which is what a site's feed looks like to the URL Tree.

use std::ops::Range;

use pith::charset;
use regex::Regex;

use crate::datasets::DatasetPage;

/// A page whose long paragraphs can be rewritten.
pub struct Template {
    /// Where it came from, for the report.
    pub id: String,
    /// Its URL: scheme, host and directory layout are kept.
    pub url: url::Url,
    /// The decoded HTML.
    html: String,
    /// Byte ranges of the inner HTML of its long `<p>` elements, in order.
    paragraphs: Vec<Range<usize>>,
}

/// A deterministic generator, so that every run builds the same streams.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below `bound` (which must be positive).
    pub fn below(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % bound.max(1) as u64) as usize
    }
}

struct Patterns {
    paragraph: Regex,
    tag: Regex,
}

impl Patterns {
    fn new() -> anyhow::Result<Patterns> {
        Ok(Patterns {
            paragraph: Regex::new(r"(?is)<p(?:\s[^>]*)?>(.*?)</p\s*>")?,
            tag: Regex::new(r"(?s)<[^>]*>")?,
        })
    }
}

const LONG_PARAGRAPH_WORDS: usize = 25;

/// The dataset pages with at least three long paragraphs, as templates, and a pool of sentences
/// from all those paragraphs.
pub fn templates(pages: &[DatasetPage]) -> anyhow::Result<(Vec<Template>, Vec<String>)> {
    let patterns = Patterns::new()?;
    let mut templates = Vec::new();
    let mut pool = Vec::new();
    for page in pages {
        let Ok(url) = url::Url::parse(&page.url) else {
            continue;
        };
        let html = charset::decode(&page.bytes, None).text;
        let mut paragraphs = Vec::new();
        for m in patterns.paragraph.captures_iter(&html) {
            let Some(inner) = m.get(1) else { continue };
            let text = patterns.tag.replace_all(inner.as_str(), " ");
            if text.split_whitespace().count() >= LONG_PARAGRAPH_WORDS {
                paragraphs.push(inner.range());
                for sentence in text.split(". ") {
                    let sentence = sentence.split_whitespace().collect::<Vec<_>>().join(" ");
                    if sentence.split(' ').count() >= 6 && !sentence.contains('<') {
                        pool.push(format!("{}.", sentence.trim_end_matches('.')));
                    }
                }
            }
        }
        if paragraphs.len() >= 3 {
            templates.push(Template {
                id: page.id.clone(),
                url,
                html,
                paragraphs,
            });
        }
    }
    Ok((templates, pool))
}

/// One generated page.
pub struct Generated {
    /// Its URL.
    pub url: String,
    /// Its entry title.
    pub title: String,
    /// Its HTML.
    pub html: String,
    /// Its time in the stream, unix seconds.
    pub time: i64,
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// The stream's first page is dated 2024-01-01 00:00 UTC.
pub const STREAM_START: i64 = 1_704_067_200;

/// Page `i` of a stream on `template`, under `host` (the template's own host when `None`),
/// published `spacing` seconds after page `i - 1`.
pub fn generate(
    template: &Template,
    host: Option<&str>,
    pool: &[String],
    i: usize,
    spacing: i64,
    rng: &mut Lcg,
) -> Generated {
    let time = STREAM_START + i as i64 * spacing;
    let (year, month, day) = civil_from_days(time.div_euclid(86_400));
    let segments: Vec<&str> = template
        .url
        .path_segments()
        .map(|s| s.filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    let dirs = &segments[..segments.len().saturating_sub(1)];
    let mut path = String::new();
    let mut date_part = 0;
    for dir in dirs {
        let numeric = dir.bytes().all(|b| b.is_ascii_digit());
        let replaced = match (numeric, dir.len(), date_part) {
            (true, 4, 0) => Some(format!("{year}")),
            (true, 1 | 2, 1) => Some(format!("{month:02}")),
            (true, 1 | 2, 2) => Some(format!("{day:02}")),
            _ => None,
        };
        path.push('/');
        match replaced {
            Some(r) => {
                path.push_str(&r);
                date_part += 1;
            }
            None => path.push_str(dir),
        }
    }
    let extension = segments
        .last()
        .and_then(|s| s.rsplit_once('.'))
        .map(|(_, ext)| ext)
        .filter(|ext| ext.len() <= 5 && ext.bytes().all(|b| b.is_ascii_alphanumeric()));
    path.push_str(&format!("/story-{i}"));
    if let Some(ext) = extension {
        path.push('.');
        path.push_str(ext);
    }
    let host = host.unwrap_or_else(|| template.url.host_str().unwrap_or("example.com"));
    let url = format!("{}://{host}{path}", template.url.scheme());
    let mut html = String::with_capacity(template.html.len());
    let mut at = 0;
    for range in &template.paragraphs {
        html.push_str(&template.html[at..range.start]);
        for k in 0..3 + rng.below(5) {
            if k > 0 {
                html.push(' ');
            }
            html.push_str(&pool[rng.below(pool.len())]);
        }
        at = range.end;
    }
    html.push_str(&template.html[at..]);
    Generated {
        url,
        title: format!("Story {i} on {host}"),
        html,
        time,
    }
}
