#!/bin/sh
# Builds full seed directories for the fuzz targets from the shared datasets and feed corpus:
#   fuzz/seeds/<target>/   (ignored by git; the small committed corpus is fuzz/corpus/<target>/)
# Usage: fuzz/seed.sh [SHARED_DIR]   (default: $PITH_SHARED, else ../shared or ../../shared)
# Then: cargo fuzz run <target> fuzz/seeds/<target> fuzz/corpus/<target> -- ...
# libFuzzer writes new inputs into the first directory, so the committed corpus stays as it is.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
shared=${1:-${PITH_SHARED:-}}
if [ -z "$shared" ]; then
    for d in "$here/../../shared" "$here/../../../shared"; do
        [ -d "$d/datasets" ] && shared=$d && break
    done
fi
[ -n "$shared" ] && [ -d "$shared/datasets" ] || { echo "shared folder not found; pass it as the first argument" >&2; exit 1; }
out="$here/seeds"
mkdir -p "$out/page_blocks" "$out/feed" "$out/urlkey" "$out/opml" "$out/manifest"

# Pages: every dataset page.
for ds in "$shared"/datasets/*/; do
    name=$(basename "$ds")
    for f in "$ds"pages/*; do
        cp "$f" "$out/page_blocks/$name-$(basename "$f")"
    done
done
# Feeds: every document of the feedparser corpus (XML and JSON Feed).
find "$shared/corpora/feedparser" -type f \( -name '*.xml' -o -name '*.json' \) | while read -r f; do
    rel=$(echo "${f#"$shared"/corpora/feedparser/}" | tr '/' '_')
    cp "$f" "$out/feed/$rel"
done
# URL keys: each manifest line's "url" and "title", as `URL \n title`.
for ds in "$shared"/datasets/*/; do
    name=$(basename "$ds")
    python3 - "$ds/manifest.jsonl" "$out/urlkey/$name" <<'PY'
import json, sys
for i, line in enumerate(open(sys.argv[1], encoding="utf-8")):
    try:
        page = json.loads(line)
    except ValueError:
        continue
    with open(f"{sys.argv[2]}-{i}", "w", encoding="utf-8") as out:
        out.write((page.get("url") or "") + "\n" + (page.get("title") or ""))
PY
done
# Manifests: each dataset's manifest in chunks of 20 lines (a whole one is too slow per input).
for ds in "$shared"/datasets/*/; do
    name=$(basename "$ds")
    split -l 20 -d -a 3 "$ds/manifest.jsonl" "$out/manifest/$name-"
done
# OPML: the committed seeds (there is no OPML in the shared corpora), plus one OPML file per
# dataset listing its pages' URLs as feeds, in folders per site.
cp "$here"/corpus/opml/* "$out/opml/"
for ds in "$shared"/datasets/*/; do
    name=$(basename "$ds")
    python3 - "$ds/manifest.jsonl" "$out/opml/$name.opml" <<'PY'
import json, sys
from xml.sax.saxutils import quoteattr
sites = {}
for line in open(sys.argv[1], encoding="utf-8"):
    try:
        page = json.loads(line)
    except ValueError:
        continue
    # A page without a site counts as its own site, as `pith eval` counts it.
    sites.setdefault(page.get("site") or page.get("id") or "", []).append(page)
with open(sys.argv[2], "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0"><head><title>seed</title></head><body>\n')
    for site, pages in sites.items():
        out.write(f"<outline text={quoteattr(site)}>\n")
        for p in pages[:30]:
            out.write(f"  <outline type=\"rss\" text={quoteattr(p.get('title') or '')} xmlUrl={quoteattr(p.get('url') or '')}/>\n")
        out.write("</outline>\n")
    out.write("</body></opml>\n")
PY
done
for t in page_blocks feed urlkey opml manifest; do
    echo "$t: $(ls "$out/$t" | wc -l) files, $(du -sh "$out/$t" | cut -f1)"
done
