use super::*;
use std::os::unix::fs::symlink;

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).unwrap().file_type().is_symlink()
}

#[test]
fn atomic_writes_replace_make_directories_and_leave_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep/x.json");
    write_atomic(dir.path(), Path::new("deep/x.json"), b"[\n1\n]\n").unwrap();
    assert_eq!(mode(&path), NEW_FILE_MODE & !umask());
    assert_eq!(
        mode(&dir.path().join("deep")),
        NEW_DIR_MODE & !umask(),
        "made as mkdir -p makes it"
    );
    write_atomic(dir.path(), Path::new("deep/x.json"), b"[\n2\n]\n").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"[\n2\n]\n");
    assert_eq!(names(&dir.path().join("deep")), ["x.json"]);
    // The root is made too, and `.` parts mean nothing.
    let root = dir.path().join("new/root");
    write_atomic(&root, Path::new("./a/./b.json"), b"x").unwrap();
    assert_eq!(fs::read(root.join("a/b.json")).unwrap(), b"x");
}

#[test]
fn atomic_writes_keep_the_permission_bits_of_the_file_they_replace() {
    let dir = tempfile::tempdir().unwrap();
    for kept in [0o640, 0o600, 0o755, 0o444] {
        let name = format!("{kept:o}.json");
        let path = dir.path().join(&name);
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(kept)).unwrap();
        write_atomic(dir.path(), Path::new(&name), b"new").unwrap();
        assert_eq!(mode(&path), kept, "{}", path.display());
        assert_eq!(fs::read(&path).unwrap(), b"new");
    }
}

#[test]
fn atomic_writes_refuse_links_and_directories_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("victim");
    let link = dir.path().join("x.json");
    symlink(&target, &link).unwrap();
    let error = write_atomic(dir.path(), Path::new("x.json"), b"x").unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
    assert_eq!(
        error.to_string(),
        format!("{} is a symbolic link; it is not replaced", link.display())
    );
    assert!(!target.exists());
    assert!(is_link(&link));
    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    assert_eq!(
        write_atomic(dir.path(), Path::new("sub"), b"x")
            .unwrap_err()
            .to_string(),
        format!("{} is not a regular file", sub.display())
    );
    assert_eq!(names(dir.path()), ["sub", "x.json"]);
}

/// Issue 18's fifth defect: `golden/sub -> ../outside/goldsub` let bless
/// rewrite `outside/goldsub/s.json`.
#[test]
fn nothing_is_written_through_a_linked_directory_below_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("golden");
    let outside = dir.path().join("outside/goldsub");
    fs::create_dir_all(&outside).unwrap();
    fs::create_dir_all(root.join("a")).unwrap();
    fs::write(outside.join("s.json"), "old").unwrap();
    symlink("../outside/goldsub", root.join("sub")).unwrap();
    symlink("../../outside/goldsub", root.join("a/deeper")).unwrap();
    symlink("../outside/nowhere", root.join("dangling")).unwrap();
    for (relative, link) in [
        ("sub/s.json", "sub"),
        ("sub/new/t.json", "sub"),
        ("a/deeper/s.json", "a/deeper"),
        ("dangling/s.json", "dangling"),
    ] {
        let expected = format!(
            "{} is a symbolic link; nothing is written through it",
            root.join(link).display()
        );
        let atomic = write_atomic(&root, Path::new(relative), b"new").unwrap_err();
        assert_eq!(atomic.to_string(), expected, "{relative}");
        let new = write_new(&root, Path::new(relative), b"new").unwrap_err();
        assert_eq!(new.to_string(), expected, "{relative}");
    }
    assert_eq!(fs::read(outside.join("s.json")).unwrap(), b"old");
    assert_eq!(names(&outside), ["s.json"]);
    assert!(!dir.path().join("outside/nowhere").exists());
    // A file where a directory belongs is named too.
    fs::write(root.join("file"), "").unwrap();
    assert_eq!(
        write_atomic(&root, Path::new("file/x.json"), b"x")
            .unwrap_err()
            .to_string(),
        format!("{} is not a directory", root.join("file").display())
    );
    // Paths that leave the root are refused before anything is opened.
    for relative in ["../x.json", "/etc/x.json", "a/../../x.json", "", "."] {
        let error = write_atomic(&root, Path::new(relative), b"x").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{relative}");
        assert_eq!(
            error.to_string(),
            format!("{relative} is not a path inside {}", root.display())
        );
    }
}

#[test]
fn a_root_that_is_a_link_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    fs::create_dir(&real).unwrap();
    symlink("real", dir.path().join("named")).unwrap();
    write_atomic(&dir.path().join("named"), Path::new("s/x.json"), b"1").unwrap();
    write_new(&dir.path().join("named"), Path::new("y.json"), b"2").unwrap();
    assert_eq!(fs::read(real.join("s/x.json")).unwrap(), b"1");
    assert_eq!(fs::read(real.join("y.json")).unwrap(), b"2");
}

#[test]
fn new_files_are_never_written_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("escaped.json");
    let link = dir.path().join("case.json");
    symlink(&target, &link).unwrap();
    let error = write_new(dir.path(), Path::new("case.json"), b"[]").unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
    assert_eq!(
        error.to_string(),
        format!("{} is a symbolic link; it is not followed", link.display())
    );
    assert!(!target.exists(), "the dangling link was followed");
    assert_eq!(
        read_no_follow(&link).unwrap_err().raw_os_error(),
        Some(libc::ELOOP)
    );
}

#[test]
fn new_files_follow_the_umask_and_never_replace() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b.json");
    write_new(dir.path(), Path::new("a/b.json"), b"one").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"one");
    assert_eq!(read_no_follow(&path).unwrap(), b"one");
    assert_eq!(mode(&path), NEW_FILE_MODE & !umask());
    let error = write_new(dir.path(), Path::new("a/b.json"), b"two").unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{} exists already", path.display())
    );
    assert_eq!(fs::read(&path).unwrap(), b"one");
}

#[test]
fn temporaries_are_named_so_that_leftovers_are_known_for_ours() {
    let target = OsStr::new("parity-ledger.txt");
    let name = temporary_name(target, 7, 0xabc);
    let pid = std::process::id();
    assert_eq!(
        name,
        OsString::from(format!(
            ".parity-ledger.txt.parity-diff-{pid}-7-00000abc.tmp"
        ))
    );
    assert!(is_temporary_of(&name, target));
    for other in [
        ".parity-ledger.txt.tmp",
        ".parity-ledger.txt.parity-diff-1-2.tmp",
        ".parity-ledger.txt.parity-diff-1-2-0000abc.tmp",
        ".parity-ledger.txt.parity-diff-x-2-00000abc.tmp",
        ".parity-ledger.txt.parity-diff-1-2-00000abc.tmp~",
        ".other.txt.parity-diff-1-2-00000abc.tmp",
        "parity-ledger.txt.parity-diff-1-2-00000abc.tmp",
        ".parity-ledger.txt.lock",
    ] {
        assert!(!is_temporary_of(OsStr::new(other), target), "{other}");
    }
    let dir = tempfile::tempdir().unwrap();
    let leftover = ".parity-ledger.txt.parity-diff-99-0-12345678.tmp";
    fs::write(dir.path().join(leftover), "half a ledger").unwrap();
    fs::write(dir.path().join(".other.parity-diff-99-0-12345678.tmp"), "").unwrap();
    fs::write(dir.path().join("parity-ledger.txt"), "").unwrap();
    let opened = Dir::open(dir.path(), Path::new("")).unwrap();
    assert_eq!(
        opened.remove_temporaries_of(target).unwrap(),
        [dir.path().join(leftover)]
    );
    assert_eq!(
        names(dir.path()),
        [".other.parity-diff-99-0-12345678.tmp", "parity-ledger.txt"]
    );
}
