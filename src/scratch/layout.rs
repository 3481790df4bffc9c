//! The directories that a case's `mkdirs` makes, held in memory linear in
//! the entries' length.
//!
//! A layout is the set of every directory `mkdir -p` of its entries makes:
//! every prefix of every entry. Holding the prefixes themselves costs the
//! square of an entry's depth (a 16 000-level entry of 32 KB took more
//! memory than the machine had), so a [`Layout`] keeps only its deepest
//! directories (the leaves), sorted so that a directory's descendants
//! follow it. Everything else is computed from neighbours in that order:
//! the deepest directory that two paths share is where they part, and a
//! path's deepest directory in a layout is shared with a leaf next to
//! where it would be sorted.

use std::cmp::Ordering;
use std::os::unix::ffi::OsStrExt;

use super::path::js_path;
use js_exact::JsString;

/// The longest path the kernel takes, terminating NUL included.
pub const PATH_MAX: usize = libc::PATH_MAX as usize;

/// One `mkdirs` entry, as `mkdir -p` of `path.join(D, entry)` sees it.
pub struct Entry<'a> {
    /// The entry as the case wrote it.
    pub text: &'a JsString,
    /// The directory it makes, relative to `D`: its components (empty and
    /// `.` segments dropped) joined by `/`; empty when it makes none.
    pub path: Vec<u8>,
    /// How many bytes `path.join(D, entry)` adds to `D`'s.
    joined_extra: usize,
    /// Whether it holds a NUL byte, which no system call takes.
    has_nul: bool,
}

impl<'a> Entry<'a> {
    /// Reads an entry (one that does not escape: checked before).
    pub fn new(text: &'a JsString) -> Entry<'a> {
        let native = js_path(text);
        let bytes = native.as_os_str().as_bytes();
        let mut path = Vec::with_capacity(bytes.len());
        for segment in bytes.split(|&b| b == b'/') {
            if segment.is_empty() || segment == b"." {
                continue;
            }
            if !path.is_empty() {
                path.push(b'/');
            }
            path.extend_from_slice(segment);
        }
        // path.join keeps one trailing slash.
        let trailing = usize::from(bytes.ends_with(b"/"));
        let joined_extra = if path.is_empty() {
            trailing
        } else {
            1 + path.len() + trailing
        };
        Entry {
            text,
            path,
            joined_extra,
            has_nul: bytes.contains(&0),
        }
    }

    /// Whether `mkdir` must fail on this entry whatever the directory
    /// holds, inside a directory whose path has `dir_len` bytes: Node
    /// hands the kernel `path.join(D, entry)` whole, and a path of PATH_MAX
    /// bytes or more is ENAMETOOLONG.
    pub fn cannot_be_made(&self, dir_len: usize) -> bool {
        self.has_nul || dir_len + self.joined_extra >= PATH_MAX
    }
}

/// Sorts paths so that every directory comes right before its
/// descendants: byte order, with `/` below every other byte (which is the
/// order of their component lists).
pub fn compare(a: &[u8], b: &[u8]) -> Ordering {
    let rank = |byte: u8| if byte == b'/' { 0 } else { u16::from(byte) + 1 };
    for (&x, &y) in a.iter().zip(b) {
        if x != y {
            return rank(x).cmp(&rank(y));
        }
    }
    a.len().cmp(&b.len())
}

/// How many leading components two relative paths share.
pub fn shared_components(a: &[u8], b: &[u8]) -> usize {
    if a.is_empty() || b.is_empty() {
        return 0;
    }
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let slashes = a[..common].iter().filter(|&&byte| byte == b'/').count();
    let ends = |path: &[u8]| common == path.len() || path[common] == b'/';
    slashes + usize::from(ends(a) && ends(b))
}

/// How many components a relative path has.
pub fn components(path: &[u8]) -> usize {
    if path.is_empty() {
        0
    } else {
        1 + path.iter().filter(|&&byte| byte == b'/').count()
    }
}

/// The first `count` components of a path.
pub fn leading(path: &[u8], count: usize) -> &[u8] {
    if count == 0 {
        return &path[..0];
    }
    let mut seen = 0;
    for (at, &byte) in path.iter().enumerate() {
        if byte == b'/' {
            seen += 1;
            if seen == count {
                return &path[..at];
            }
        }
    }
    path
}

/// The number of distinct directories along sorted paths: each path adds
/// the components it does not share with the one before it.
fn count_directories<'a>(sorted: impl IntoIterator<Item = &'a [u8]>) -> usize {
    let mut previous: &[u8] = &[];
    let mut count = 0;
    for path in sorted {
        count += components(path) - shared_components(path, previous);
        previous = path;
    }
    count
}

/// A set of directories inside a scratch directory, by its leaves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    leaves: Vec<Box<[u8]>>,
}

impl Layout {
    /// The layout that `mkdir -p` of each path makes.
    pub fn of<'a>(paths: impl IntoIterator<Item = &'a [u8]>) -> Layout {
        let mut sorted: Vec<&[u8]> = paths.into_iter().filter(|p| !p.is_empty()).collect();
        sorted.sort_unstable_by(|a, b| compare(a, b));
        sorted.dedup();
        let mut leaves = Vec::with_capacity(sorted.len());
        for (at, path) in sorted.iter().enumerate() {
            // A directory with a descendant has it right after it.
            let ancestor = sorted
                .get(at + 1)
                .is_some_and(|next| shared_components(path, next) == components(path));
            if !ancestor {
                leaves.push(Box::from(*path));
            }
        }
        Layout { leaves }
    }

    /// How many directories it holds.
    pub fn directories(&self) -> usize {
        count_directories(self.leaves.iter().map(|leaf| &leaf[..]))
    }

    /// How many directories must go or come to turn this layout into
    /// `other`: the union counted twice, less each side.
    pub fn changes_to(&self, other: &Layout) -> usize {
        let mut merged = Vec::with_capacity(self.leaves.len() + other.leaves.len());
        let (mut a, mut b) = (
            self.leaves.iter().peekable(),
            other.leaves.iter().peekable(),
        );
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if compare(x, y) != Ordering::Greater => a.next(),
                (Some(_), Some(_)) => b.next(),
                (Some(_), None) => a.next(),
                (None, Some(_)) => b.next(),
                (None, None) => break,
            };
            merged.push(&next.expect("peeked")[..]);
        }
        2 * count_directories(merged) - self.directories() - other.directories()
    }

    /// How many leading components of `path` are directories of this
    /// layout.
    pub fn depth_of(&self, path: &[u8]) -> usize {
        let at = self
            .leaves
            .partition_point(|leaf| compare(leaf, path) == Ordering::Less);
        let before = at
            .checked_sub(1)
            .map_or(0, |at| shared_components(&self.leaves[at], path));
        let after = self
            .leaves
            .get(at)
            .map_or(0, |leaf| shared_components(leaf, path));
        before.max(after)
    }

    /// The directories of this layout that are not in `keep` and whose
    /// parent is (or is the scratch directory): removing their trees
    /// leaves exactly the directories both layouts hold.
    pub fn removals<'a>(&'a self, keep: &Layout) -> Vec<&'a [u8]> {
        let mut roots: Vec<&[u8]> = Vec::new();
        for leaf in &self.leaves {
            let kept = keep.depth_of(leaf);
            if kept == components(leaf) {
                continue;
            }
            let root = leading(leaf, kept + 1);
            if roots.last() != Some(&root) {
                roots.push(root);
            }
        }
        roots
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn layout(paths: &[&str]) -> Layout {
        Layout::of(paths.iter().map(|p| p.as_bytes()))
    }

    /// Every directory, the slow way.
    fn all_directories(paths: &[&str]) -> BTreeSet<String> {
        let mut set = BTreeSet::new();
        for path in paths.iter().filter(|p| !p.is_empty()) {
            let parts: Vec<&str> = path.split('/').collect();
            for depth in 1..=parts.len() {
                set.insert(parts[..depth].join("/"));
            }
        }
        set
    }

    #[test]
    fn entries_read_as_path_join_reads_them() {
        let read = |text: &str| {
            let text = JsString::from(text);
            let entry = Entry::new(&text);
            (String::from_utf8(entry.path).unwrap(), entry.joined_extra)
        };
        assert_eq!(read("a/b"), ("a/b".into(), 4));
        assert_eq!(read("a//./b/"), ("a/b".into(), 5));
        assert_eq!(read("a/."), ("a".into(), 2));
        assert_eq!(read("."), ("".into(), 0));
        assert_eq!(read("./"), ("".into(), 1));
        assert!(Entry::new(&JsString::from("a\0b")).cannot_be_made(10));
        let long = JsString::from("x".repeat(100).as_str());
        let entry = Entry::new(&long);
        assert!(!entry.cannot_be_made(PATH_MAX - 102));
        assert!(entry.cannot_be_made(PATH_MAX - 101));
    }

    #[test]
    fn directories_sort_before_their_descendants() {
        let mut paths = vec!["ab", "a/x", "a-c", "a", "a/x/y", "b"];
        paths.sort_by(|a, b| compare(a.as_bytes(), b.as_bytes()));
        assert_eq!(paths, ["a", "a/x", "a/x/y", "a-c", "ab", "b"]);
        assert_eq!(shared_components(b"a/x/y", b"a/x"), 2);
        assert_eq!(shared_components(b"a/xy", b"a/x"), 1);
        assert_eq!(shared_components(b"ab", b"a"), 0);
        assert_eq!(leading(b"a/b/c", 2), b"a/b");
        assert_eq!(leading(b"a/b/c", 3), b"a/b/c");
    }

    #[test]
    fn counts_and_changes_agree_with_sets_of_every_directory() {
        let samples: [&[&str]; 7] = [
            &[],
            &["a/b", "c"],
            &["a", "a/b", "a/b"],
            &["w/x/y", "a/bc", "a-c"],
            &["a/b/c/d", "a/b/e", "a"],
            &["x"],
            &["a/b", "a/bc/d", "ab/c"],
        ];
        for a in samples {
            assert_eq!(layout(a).directories(), all_directories(a).len(), "{a:?}");
            for b in samples {
                let expected = all_directories(a)
                    .symmetric_difference(&all_directories(b))
                    .count();
                assert_eq!(layout(a).changes_to(&layout(b)), expected, "{a:?} {b:?}");
                for root in layout(a).removals(&layout(b)) {
                    let root = std::str::from_utf8(root).unwrap();
                    assert!(!all_directories(b).contains(root), "{a:?} {b:?} {root}");
                }
            }
        }
        assert_eq!(layout(&["a/b", "c"]), layout(&["c", "a", "a/b"]));
    }

    #[test]
    fn removals_are_the_tops_of_what_is_not_kept() {
        let present = layout(&["a/b/c", "a/b/d", "a/e", "f/g", "h"]);
        let keep = layout(&["a/b", "h/i"]);
        let roots: Vec<&str> = present
            .removals(&keep)
            .into_iter()
            .map(|r| std::str::from_utf8(r).unwrap())
            .collect();
        assert_eq!(roots, ["a/b/c", "a/b/d", "a/e", "f"]);
        assert_eq!(keep.depth_of(b"a/b/c"), 2);
        assert_eq!(keep.depth_of(b"h/i/j"), 2);
        assert_eq!(keep.depth_of(b"z"), 0);
    }

    #[test]
    fn a_deep_entry_costs_memory_linear_in_its_length() {
        let deep = vec!["d"; 16_000].join("/");
        let layout = Layout::of([deep.as_bytes()]);
        assert_eq!(layout.directories(), 16_000);
        assert_eq!(layout.depth_of(deep.as_bytes()), 16_000);
        assert_eq!(
            layout.leaves.iter().map(|l| l.len()).sum::<usize>(),
            deep.len()
        );
    }
}
