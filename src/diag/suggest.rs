//! "Did you mean ...?": the nearest name to a misspelt one.
//!
//! In: a name and the names that exist. Out: the closest of them within two
//! edits (insertions, deletions, substitutions, swaps of neighbours), if any.
//! Holds: cost is linear in the number of candidates times the product of
//! the lengths; names longer than [`MAX_LEN`] are never compared.

/// Longer names are not compared (a pathological input stays cheap).
const MAX_LEN: usize = 64;

/// The candidate nearest to `name` within two edits (ties: the first in
/// `candidates`); never `name` itself, never a change that is most of a
/// short name (`a` for `b`).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let n: Vec<char> = name.chars().collect();
    if n.len() > MAX_LEN {
        return None;
    }
    let limit = if n.len() <= 2 {
        0
    } else if n.len() <= 4 {
        1
    } else {
        2
    };
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let cs: Vec<char> = c.chars().collect();
        if c == name || cs.len() > MAX_LEN || cs.len().abs_diff(n.len()) > limit {
            continue;
        }
        let d = distance(&n, &cs);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance (Levenshtein with swaps).
fn distance(a: &[char], b: &[char]) -> usize {
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut v = (d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1)
                    .min(d[(i - 1) * w + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[(i - 2) * w + j - 2] + 1);
                }
                v
            };
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_the_nearest_name_within_two_edits() {
        assert_eq!(closest("cel", ["cell", "control"]), Some("cell"));
        assert_eq!(closest("scor", ["score", "scores"]), Some("score"));
        assert_eq!(closest("contorl", ["cell", "control"]), Some("control"));
        assert_eq!(closest("plac", ["place", "pass"]), Some("place"));
    }

    #[test]
    fn suggests_nothing_far_or_trivial() {
        assert_eq!(closest("zebra", ["cell", "control"]), None);
        assert_eq!(closest("a", ["b"]), None);
        assert_eq!(closest("cell", ["cell"]), None);
    }
}
