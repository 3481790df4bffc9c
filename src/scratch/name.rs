//! The names of our scratch directories: the reference's prefix, then
//! our mark and five letters or digits, so that a collector of crash
//! leftovers can tell ours from anyone else's (see dir.rs).

/// The name prefix of every scratch directory.
pub const SCRATCH_PREFIX: &str = "linzumi-worker-spawn-oracle-";

/// The first of the six characters after the prefix, in our directories.
pub const MARK: u8 = b'-';

/// Whether a file name is one of our scratch directories'.
pub fn is_ours(name: &[u8]) -> bool {
    let prefix = SCRATCH_PREFIX.as_bytes();
    name.len() == prefix.len() + 6
        && name.starts_with(prefix)
        && name[prefix.len()] == MARK
        && name[prefix.len() + 1..]
            .iter()
            .all(|byte| byte.is_ascii_alphanumeric())
}
