//! The store's own binary forms: a page's raw bytes compressed (LZ4, older pages zlib) and a
//! document's hash set packed. What other blobs mean (an article's labelled blocks, a site's
//! memory) is the engine's business: the store keeps their bytes.

use std::io::Read;

use super::StoreError;
use crate::page::BlockHash;

/// Bytes in the form the database keeps them: a page's raw bytes compressed
/// ([`PageBytes::compress`]), or a blob the engine encoded, kept as it is ([`PageBytes::kept`]:
/// an article's labelled blocks).
/// A refresh compresses a page once, when it arrives, and holds it so while it waits for
/// classification or images: HTML shrinks to about a third, so more pages can wait in the same
/// memory.
#[derive(Debug, Clone)]
pub struct PageBytes {
    /// The bytes as stored: an LZ4 page (header and block), or bytes kept as they are.
    stored: Vec<u8>,
    len: usize,
}

impl PageBytes {
    /// Compresses `raw` (LZ4: the byte `LZ4_PAGE`, the length, an LZ4 block).
    pub fn compress(raw: &[u8]) -> Result<PageBytes, StoreError> {
        let size = u32::try_from(raw.len())
            .map_err(|_| StoreError::Corrupt("a page of 4 GB or more cannot be stored".into()))?;
        let header = 1 + 4;
        let mut compressed = vec![0; header + lz4_flex::block::get_maximum_output_size(raw.len())];
        compressed[0] = LZ4_PAGE;
        compressed[1..header].copy_from_slice(&size.to_le_bytes());
        let written = lz4_flex::block::compress_into(raw, &mut compressed[header..])
            .map_err(|e| StoreError::Corrupt(format!("cannot compress a page: {e}")))?;
        compressed.truncate(header + written);
        // The buffer was sized for the worst case (about the raw size); a refresh holds many
        // compressed pages while they wait, so give the rest back.
        compressed.shrink_to_fit();
        Ok(PageBytes {
            stored: compressed,
            len: raw.len(),
        })
    }

    /// Bytes kept as they are: a blob the engine encoded (an article's labelled blocks), which
    /// the store writes without looking inside.
    pub fn kept(bytes: Vec<u8>) -> PageBytes {
        PageBytes {
            len: bytes.len(),
            stored: bytes,
        }
    }

    /// The raw bytes again (of a page from [`PageBytes::compress`]).
    pub fn decompress(&self) -> Result<Vec<u8>, StoreError> {
        decompress(&self.stored, self.len)
    }

    /// The raw length.
    pub fn raw_len(&self) -> usize {
        self.len
    }

    /// The stored length (what it costs in memory).
    pub fn stored_len(&self) -> usize {
        self.stored.len()
    }

    /// The bytes as the database keeps them.
    pub fn stored(&self) -> &[u8] {
        &self.stored
    }
}

/// The first byte of a page stored since schema 3's release: then its length (4 bytes, little
/// endian) and an LZ4 block. Pages stored before are zlib streams, whose first byte is always
/// 0x78; both read back. LZ4 because a refresh compresses every page it fetches: 0.11 ms a page
/// against zlib-rs level 1's 0.20 ms on the datasets' 1,233 pages, for 30.7 KB against 28.3 KB.
const LZ4_PAGE: u8 = 0x04;

/// The most a stored blob may claim to decompress to (a damaged length must not allocate more).
const MAX_STORED_LEN: usize = 64 * 1024 * 1024;

/// Decompresses a stored page of either form (`len_hint`: its raw length, when known).
pub(super) fn decompress(blob: &[u8], len_hint: usize) -> Result<Vec<u8>, StoreError> {
    if let Some((&LZ4_PAGE, rest)) = blob.split_first() {
        let damaged =
            |why: String| StoreError::Corrupt(format!("a stored page does not decompress: {why}"));
        let (size, block) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| damaged("it ends before its length".into()))?;
        let size = u32::from_le_bytes(*size) as usize;
        if size > MAX_STORED_LEN {
            return Err(damaged(format!("it claims {size} bytes")));
        }
        let mut out = vec![0; size];
        let written = lz4_flex::block::decompress_into(block, &mut out)
            .map_err(|e| damaged(e.to_string()))?;
        if written != size {
            return Err(damaged(format!("{written} bytes instead of {size}")));
        }
        return Ok(out);
    }
    let mut out = Vec::with_capacity(len_hint.min(MAX_STORED_LEN));
    flate2::read::ZlibDecoder::new(blob)
        .read_to_end(&mut out)
        .map_err(|e| StoreError::Corrupt(format!("a stored page does not decompress: {e}")))?;
    Ok(out)
}

/// The first byte of an article's record that the store compressed when retention dropped the
/// article's raw page: then a zlib stream of the record as the engine encoded it. Records are
/// written uncompressed (a refresh writes thousands, and reading one must be quick while its page
/// is there to read anyway); once the record is the article's only copy and is read rarely,
/// compressing it makes a kept article cost a third as much. The engine's own record forms begin
/// with 0x02, 0x03 or (zlib JSON) 0x78, so the byte tells them apart.
const PACKED_RECORD: u8 = 0x05;

/// A record compressed for keeping ([`PACKED_RECORD`]); one compressed already is returned as it
/// is.
pub(super) fn pack_record(record: &[u8]) -> Result<Vec<u8>, StoreError> {
    use std::io::Write;
    if record.first() == Some(&PACKED_RECORD) {
        return Ok(record.to_vec());
    }
    let mut out = vec![PACKED_RECORD];
    let mut enc = flate2::write::ZlibEncoder::new(&mut out, flate2::Compression::default());
    enc.write_all(record)
        .and_then(|_| enc.finish().map(|_| ()))
        .map_err(|e| StoreError::Corrupt(format!("cannot compress a record: {e}")))?;
    Ok(out)
}

/// A record as the engine encoded it, from the bytes stored: a [`PACKED_RECORD`] is decompressed
/// (at most [`MAX_STORED_LEN`] bytes), any other form is the engine's own and returned as it is.
pub(super) fn unpack_record(blob: Vec<u8>) -> Result<Vec<u8>, StoreError> {
    let Some((&PACKED_RECORD, packed)) = blob.split_first() else {
        return Ok(blob);
    };
    let mut out = Vec::with_capacity(packed.len() * 3);
    let read = flate2::read::ZlibDecoder::new(packed)
        .take(MAX_STORED_LEN as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| StoreError::Corrupt(format!("a stored record does not decompress: {e}")))?;
    if read > MAX_STORED_LEN {
        return Err(StoreError::Corrupt(
            "a stored record decompresses to more than 64 MB".into(),
        ));
    }
    Ok(out)
}

/// A block hash as the SQL integer the tree's tables key it by (big-endian, signed).
pub(crate) fn hash_to_sql(hash: &BlockHash) -> i64 {
    i64::from_be_bytes(hash.0)
}

/// A document's hash set as stored: 8 bytes a hash, in order.
pub(crate) fn pack_hashes(hashes: &[BlockHash]) -> Vec<u8> {
    hashes.iter().flat_map(|h| h.0).collect()
}

/// A stored hash set read back; a blob whose length is not a multiple of 8 is damaged.
pub(crate) fn unpack_hashes(blob: &[u8]) -> Result<Vec<BlockHash>, StoreError> {
    if !blob.len().is_multiple_of(8) {
        return Err(StoreError::Corrupt(format!(
            "a document's hash set has {} bytes, not a multiple of 8",
            blob.len()
        )));
    }
    Ok(blob
        .chunks_exact(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            BlockHash(b)
        })
        .collect())
}

#[cfg(test)]
mod page_bytes_tests {
    use super::{LZ4_PAGE, PACKED_RECORD, PageBytes, decompress, pack_record, unpack_record};

    /// A record packed when its page goes reads back as the engine wrote it, is packed once, and
    /// the engine's own forms pass through; a damaged packed record is an error, not a panic.
    #[test]
    fn packed_records_read_back_and_other_forms_pass_through() {
        let record: Vec<u8> = [3u8]
            .into_iter()
            .chain("a block of text that repeats ".repeat(200).into_bytes())
            .collect();
        let packed = pack_record(&record).unwrap();
        assert_eq!(packed[0], PACKED_RECORD);
        assert!(packed.len() < record.len() / 4, "{}", packed.len());
        assert_eq!(pack_record(&packed).unwrap(), packed, "packed once");
        assert_eq!(unpack_record(packed.clone()).unwrap(), record);
        assert_eq!(unpack_record(record.clone()).unwrap(), record);
        assert_eq!(unpack_record(Vec::new()).unwrap(), Vec::<u8>::new());
        assert!(unpack_record(packed[..packed.len() / 2].to_vec()).is_err());
    }

    /// Every page comes back whole, whatever came before it (empty, small, and large
    /// incompressible input).
    #[test]
    fn pages_compressed_one_after_another_come_back_whole() {
        let mut noise = Vec::with_capacity(300_000);
        let mut x: u32 = 1;
        for _ in 0..300_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            noise.push((x >> 24) as u8);
        }
        let html = "<p>Le même paragraphe, encore et encore.</p>".repeat(2_000);
        for raw in [
            &b""[..],
            html.as_bytes(),
            &noise,
            b"<p>x</p>",
            html.as_bytes(),
        ] {
            let bytes = PageBytes::compress(raw).unwrap();
            assert_eq!(bytes.raw_len(), raw.len());
            assert_eq!(bytes.decompress().unwrap(), raw);
        }
    }

    /// Pages stored as zlib streams (before LZ4) still read; damaged LZ4 blobs give an error,
    /// never a panic or a huge allocation.
    #[test]
    fn old_pages_read_and_damaged_ones_are_errors() {
        use std::io::Write;
        let html = "<p>Un paragraphe qui revient, encore et encore.</p>".repeat(500);
        let mut old = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        old.write_all(html.as_bytes()).unwrap();
        let old = old.finish().unwrap();
        assert_eq!(old[0], 0x78);
        assert_eq!(decompress(&old, html.len()).unwrap(), html.as_bytes());

        let new = PageBytes::compress(html.as_bytes())
            .unwrap()
            .stored()
            .to_vec();
        assert_eq!(new[0], LZ4_PAGE);
        for cut in [1, 3, 5, new.len() / 2, new.len() - 1] {
            assert!(decompress(&new[..cut], html.len()).is_err(), "cut at {cut}");
        }
        let mut huge = new.clone();
        huge[1..5].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decompress(&huge, 0).is_err());
        let mut short = new.clone();
        short[1..5].copy_from_slice(&10u32.to_le_bytes());
        assert!(decompress(&short, 0).is_err());
        let mut garbled = new;
        for byte in garbled.iter_mut().skip(5).step_by(7) {
            *byte ^= 0x5a;
        }
        // Either an error or some bytes, never a panic.
        let _ = decompress(&garbled, html.len());
    }
}
