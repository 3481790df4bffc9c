//! Which runs (one per case) reached something: a set of run numbers.

/// A set of run numbers, as bits. Two sets are equal when they hold
/// the same runs, whatever size they were made for.
#[derive(Debug, Clone, Default)]
pub struct RunSet {
    words: Vec<u64>,
}

impl RunSet {
    /// The empty set, sized for `runs` runs.
    pub fn with_runs(runs: usize) -> RunSet {
        RunSet {
            words: vec![0; runs.div_ceil(64)],
        }
    }

    /// Adds a run.
    pub fn insert(&mut self, run: usize) {
        let word = run / 64;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (run % 64);
    }

    /// Whether a run is in it.
    pub fn contains(&self, run: usize) -> bool {
        self.words
            .get(run / 64)
            .is_some_and(|word| word & (1 << (run % 64)) != 0)
    }

    /// Whether no run is in it.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&word| word == 0)
    }

    /// How many runs are in it.
    pub fn len(&self) -> usize {
        self.words
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum()
    }

    /// Whether it shares a run with `other`.
    pub fn intersects(&self, other: &RunSet) -> bool {
        self.words.iter().zip(&other.words).any(|(a, b)| a & b != 0)
    }

    /// Its runs, in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(at, &word)| {
            (0..64)
                .filter(move |bit| word & (1 << bit) != 0)
                .map(move |bit| at * 64 + bit)
        })
    }

    /// Its runs as `[from, to)` ranges of consecutive numbers: cases of
    /// one op stand together in a corpus, so this is short.
    pub fn ranges(&self) -> Vec<(usize, usize)> {
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for run in self.iter() {
            match ranges.last_mut() {
                Some(last) if last.1 == run => last.1 = run + 1,
                _ => ranges.push((run, run + 1)),
            }
        }
        ranges
    }

    /// The words up to the last that holds a run.
    fn trimmed(&self) -> &[u64] {
        let used = self
            .words
            .iter()
            .rposition(|&w| w != 0)
            .map_or(0, |at| at + 1);
        &self.words[..used]
    }
}

impl PartialEq for RunSet {
    fn eq(&self, other: &Self) -> bool {
        self.trimmed() == other.trimmed()
    }
}

impl Eq for RunSet {}

impl std::hash::Hash for RunSet {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.trimmed().hash(state);
    }
}

impl FromIterator<usize> for RunSet {
    fn from_iter<I: IntoIterator<Item = usize>>(runs: I) -> Self {
        let mut set = RunSet::default();
        for run in runs {
            set.insert(run);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_of_runs_says_its_runs_and_their_ranges() {
        let set: RunSet = [0, 1, 2, 5, 64, 65, 200].into_iter().collect();
        assert_eq!(set.len(), 7);
        assert!(set.contains(65) && !set.contains(3) && !set.contains(9999));
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 1, 2, 5, 64, 65, 200]);
        assert_eq!(set.ranges(), [(0, 3), (5, 6), (64, 66), (200, 201)]);
        let other: RunSet = [3, 200].into_iter().collect();
        assert!(set.intersects(&other));
        assert!(!set.intersects(&[3].into_iter().collect()));
        assert!(RunSet::with_runs(300).is_empty());
        let mut sized = RunSet::with_runs(300);
        sized.insert(3);
        assert_eq!(sized, [3].into_iter().collect());
        assert_ne!(sized, RunSet::with_runs(300));
    }
}
