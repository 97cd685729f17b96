//! Length of the longest common subsequence of two token sequences, bit-parallel.
//!
//! The evaluation metric is an LCS over word tokens, and whole articles are compared (gold texts of
//! 10,000+ words occur; a bad extraction can be a whole page). The quadratic dynamic program would
//! take seconds per page, so this uses the bit-vector formulation of Allison & Dix (1986) in the form of
//! Hyyrö (2004): one row of the DP table is kept as the bits of a vector `V` over the shorter sequence
//! `A`, and each symbol `b` of the longer sequence updates it in O(|A|/64) word operations:
//!
//! ```text
//! U = V & Match[b]
//! V = (V + U) | (V & !Match[b])      (multi-word addition with carry)
//! ```
//!
//! After all of `B`, the LCS length is the number of zero bits of `V`. `Match[b]` has bit `i` set where
//! `A[i] == b`; masks are stored only for symbols that occur in `A`, so memory is O(σ_A · |A| / 64), and a
//! symbol of `B` that does not occur in `A` leaves `V` unchanged and is skipped.

use std::collections::HashMap;

/// Interns string tokens as dense `u32` ids, so that sequences can be compared by [`lcs_len`].
///
/// Use one vocabulary for both sequences of a comparison: ids are only meaningful within it.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    ids: HashMap<String, u32>,
}

impl Vocabulary {
    /// An empty vocabulary.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `token`, assigning the next free one on first sight.
    ///
    /// Ids are `0, 1, 2, …` in order of first sight. Should more than `u32::MAX` distinct tokens ever be
    /// interned (far beyond any text that fits in memory), the excess all share `u32::MAX`: a slightly
    /// optimistic score is preferable to a panic.
    pub fn intern(&mut self, token: &str) -> u32 {
        if let Some(&id) = self.ids.get(token) {
            return id;
        }
        let id = u32::try_from(self.ids.len()).unwrap_or(u32::MAX);
        self.ids.insert(token.to_owned(), id);
        id
    }

    /// The id of `token` if it has been interned.
    pub fn get(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The number of distinct tokens interned.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether no token has been interned yet.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}

/// The length of the longest common subsequence of `a` and `b`.
///
/// O(|a|·|b|/64) time, O(σ·min(|a|,|b|)/64) memory where σ is the number of distinct symbols of the
/// shorter sequence. Symmetric in its arguments.
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    // A shared prefix and suffix are always part of some LCS; extracted text that is close to the gold
    // often shares long runs at both ends, and trimming them is cheaper than bit work.
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);

    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return prefix + suffix;
    }
    prefix + suffix + bit_parallel(short, long)
}

/// Hyyrö's bit-vector LCS with the bit vectors over `short` (non-empty).
fn bit_parallel(short: &[u32], long: &[u32]) -> usize {
    let words = short.len().div_ceil(64);

    // Match masks, `words` u64 per distinct symbol of `short`, stored back to back.
    let mut slot_of: HashMap<u32, usize> = HashMap::new();
    let mut masks: Vec<u64> = Vec::new();
    for (pos, &symbol) in short.iter().enumerate() {
        let slot = *slot_of.entry(symbol).or_insert_with(|| {
            let slot = masks.len() / words;
            masks.resize(masks.len() + words, 0);
            slot
        });
        // In bounds: `slot < masks.len() / words` and `pos / 64 < words`.
        masks[slot * words + pos / 64] |= 1u64 << (pos % 64);
    }

    let mut v = vec![u64::MAX; words];
    for symbol in long {
        let Some(&slot) = slot_of.get(symbol) else {
            continue; // Match mask is zero: V + 0 | V == V.
        };
        // In bounds: every slot in `slot_of` owns `words` entries of `masks`.
        let mask = &masks[slot * words..(slot + 1) * words];
        let mut carry = 0u64;
        for (vw, &mw) in v.iter_mut().zip(mask) {
            let old = *vw;
            let u = old & mw;
            let (sum, c1) = old.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(carry);
            carry = u64::from(c1 | c2);
            *vw = sum | (old & !mw);
        }
    }

    // Bits above `short.len()` in the last word only ever receive carries, never feed lower bits, and
    // are not part of the row: mask them out.
    let tail = short.len() % 64;
    v.iter()
        .enumerate()
        .map(|(w, &vw)| {
            let valid = if w + 1 == words && tail != 0 {
                (1u64 << tail) - 1
            } else {
                u64::MAX
            };
            (!vw & valid).count_ones() as usize
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook O(n·m) dynamic program, as the reference.
    fn lcs_dp(a: &[u32], b: &[u32]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        let mut cur = vec![0usize; b.len() + 1];
        for &x in a {
            for (j, &y) in b.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j] + 1
                } else {
                    cur[j].max(prev[j + 1])
                };
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        prev[b.len()]
    }

    /// SplitMix64: deterministic test data without a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        fn seq(&mut self, len: usize, alphabet: u64) -> Vec<u32> {
            (0..len).map(|_| self.below(alphabet) as u32).collect()
        }
    }

    #[test]
    fn small_hand_examples() {
        assert_eq!(lcs_len(&[], &[]), 0);
        assert_eq!(lcs_len(&[1, 2, 3], &[]), 0);
        assert_eq!(lcs_len(&[], &[1, 2, 3]), 0);
        assert_eq!(lcs_len(&[1, 2, 3], &[1, 2, 3]), 3);
        assert_eq!(lcs_len(&[1, 2, 3], &[4, 5, 6]), 0);
        // "ABCBDAB" vs "BDCABA": 4 (CLRS).
        assert_eq!(lcs_len(&[1, 2, 3, 2, 4, 1, 2], &[2, 4, 3, 1, 2, 1]), 4);
        assert_eq!(lcs_len(&[7, 1, 7, 1], &[1, 7, 1, 7]), 3);
        assert_eq!(lcs_len(&[u32::MAX, 0], &[0, u32::MAX]), 1);
    }

    #[test]
    fn matches_dynamic_program_on_random_sequences() {
        let mut rng = Rng(42);
        let lengths = [
            0, 1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 191, 192, 193, 300,
        ];
        let mut cases = 0;
        for &alphabet in &[1u64, 2, 4, 26, 1000, 1 << 32] {
            for &n in &lengths {
                for &m in &lengths {
                    let a = rng.seq(n, alphabet);
                    let b = rng.seq(m, alphabet);
                    assert_eq!(
                        lcs_len(&a, &b),
                        lcs_dp(&a, &b),
                        "n={n} m={m} alphabet={alphabet}"
                    );
                    assert_eq!(lcs_len(&b, &a), lcs_dp(&a, &b));
                    cases += 1;
                }
            }
        }
        // Related sequences (b is an edited copy of a), where LCS is long and prefixes/suffixes match.
        for _ in 0..300 {
            let n = rng.below(400) as usize;
            let alphabet = [2, 8, 50, 5000][rng.below(4) as usize];
            let a = rng.seq(n, alphabet);
            let mut b = Vec::new();
            for &x in &a {
                match rng.below(10) {
                    0 => {}
                    1 => b.push(rng.below(alphabet) as u32),
                    2 => {
                        b.push(x);
                        b.push(rng.below(alphabet) as u32);
                    }
                    _ => b.push(x),
                }
            }
            assert_eq!(lcs_len(&a, &b), lcs_dp(&a, &b), "n={n} alphabet={alphabet}");
            cases += 1;
        }
        assert!(cases > 2000);
    }

    /// Inputs the size of the longest gold texts: the bit-parallel path on its largest words,
    /// and on a four-symbol alphabet (the worst case for skipping absent symbols). Tests never
    /// time a machine, so this checks the results only; `pith eval` prints what scoring costs.
    #[test]
    fn twenty_thousand_squared_gives_sound_results() {
        let mut rng = Rng(7);
        // Word-like distribution: a few very common tokens and a long tail.
        let mut words = |n: usize| -> Vec<u32> {
            (0..n)
                .map(|_| {
                    let r = rng.below(1000);
                    if r < 400 {
                        rng.below(20) as u32
                    } else {
                        20 + rng.below(5000) as u32
                    }
                })
                .collect()
        };
        let a = words(20_000);
        let b = words(20_000);
        let lcs = lcs_len(&a, &b);
        assert!(lcs > 0 && lcs <= 20_000);
        assert_eq!(lcs, lcs_len(&b, &a), "symmetric");
        // Worst case for the skip of absent symbols: a tiny alphabet, every symbol of `b` occurs in `a`.
        let mut rng = Rng(8);
        let (a4, b4) = (rng.seq(20_000, 4), rng.seq(20_000, 4));
        let lcs4 = lcs_len(&a4, &b4);
        assert!(lcs4 > 10_000 && lcs4 <= 20_000);
        assert_eq!(lcs4, lcs_len(&b4, &a4), "symmetric");
        // Check the result on a slice small enough for the reference.
        assert_eq!(
            lcs_len(&a[..2000], &b[..1500]),
            lcs_dp(&a[..2000], &b[..1500])
        );
    }

    #[test]
    fn vocabulary_interns_densely() {
        let mut vocab = Vocabulary::new();
        assert!(vocab.is_empty());
        assert_eq!(vocab.intern("the"), 0);
        assert_eq!(vocab.intern("cat"), 1);
        assert_eq!(vocab.intern("the"), 0);
        assert_eq!(vocab.get("cat"), Some(1));
        assert_eq!(vocab.get("dog"), None);
        assert_eq!(vocab.len(), 2);
    }
}
