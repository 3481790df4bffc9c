//! Node.js's IPC channel (`stdio: [..., 'ipc']`, `serialization: 'json'`)
//! seen from Rust: one compact JSON text plus `\n` per message, in each
//! direction, over an AF_UNIX stream socket whose descriptor a child finds
//! in `NODE_CHANNEL_FD`. Node's side of it, in the nodejs/node sources:
//! the framing is the `json` serializer of
//! `lib/internal/child_process/serialization.js` (`JSON.stringify(m) +
//! "\n"` out, split on `\n` in), and a child adopts the channel in
//! `setupChildProcessIpcChannel` (`lib/internal/process/pre_execution.js`),
//! which removes `NODE_CHANNEL_FD` and `NODE_CHANNEL_SERIALIZATION_MODE`
//! from its environment. The option itself is `stdio`'s `'ipc'` in
//! <https://nodejs.org/api/child_process.html#optionsstdio>; contract
//! section 5 says how the process modes use it.
//!
//! - [`adopt_from_env`]: a child takes over the channel its parent made.
//! - [`ChildChannel`]: a parent makes one for a child it spawns.
//! - [`NodeChannel`]: the writing side, a [`Channel`] for the halves.
//! - [`spawn_reader`] / [`read_messages`]: the reading side, on a thread
//!   of its own so that a chatty peer is never stalled (Node never blocks
//!   a sender) and the driver waits on one queue of events.
//!
//! Unix only, like Node's channel.

use std::ffi::OsStr;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Duration;

use super::Channel;
use js_exact::{self as js, JsError, TextMode, Value};

/// The variable that names the channel's descriptor in a child.
pub const CHANNEL_FD_VAR: &str = "NODE_CHANNEL_FD";
/// The variable that names the channel's serialization (`json` when absent).
pub const SERIALIZATION_VAR: &str = "NODE_CHANNEL_SERIALIZATION_MODE";
/// Where a parent puts the child's end, as Node does for
/// `['ignore', 'inherit', 'inherit', 'ipc']`.
pub const CHILD_FD: RawFd = 3;

/// What the reading side reports, in the order it happened on the wire.
#[derive(Clone, Debug, PartialEq)]
pub enum ChannelEvent {
    /// One message (Node's `message` event).
    Message(Value),
    /// End of input: the peer closed its end (Node's `disconnect`). Last.
    Disconnect,
}

/// Why a child cannot adopt the channel named by its environment.
#[derive(Debug)]
pub enum AdoptError {
    /// `NODE_CHANNEL_FD` is not set: not started with an IPC channel.
    Missing,
    /// `NODE_CHANNEL_FD` is not a descriptor number.
    InvalidFd(String),
    /// The descriptor is not open, or is not a socket.
    NotASocket(RawFd, String),
    /// `NODE_CHANNEL_SERIALIZATION_MODE` is `advanced` (V8's structured
    /// clone with length prefixes), which this channel does not speak.
    Advanced,
    /// `NODE_CHANNEL_SERIALIZATION_MODE` is neither `json` nor `advanced`.
    UnknownSerialization(String),
}

impl fmt::Display for AdoptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdoptError::Missing => write!(
                f,
                "{CHANNEL_FD_VAR} is not set: start me as a child with a Node IPC channel (e.g. from ipc-parent)"
            ),
            AdoptError::InvalidFd(text) => {
                write!(f, "{CHANNEL_FD_VAR} is not a file descriptor number: {text:?}")
            }
            AdoptError::NotASocket(fd, why) => {
                write!(f, "{CHANNEL_FD_VAR}={fd} is not a usable IPC socket: {why}")
            }
            AdoptError::Advanced => write!(
                f,
                "{SERIALIZATION_VAR}=advanced is not supported: only the json serialization is (spawn with serialization: 'json')"
            ),
            AdoptError::UnknownSerialization(mode) => {
                write!(f, "{SERIALIZATION_VAR} is not json: {mode:?}")
            }
        }
    }
}

impl std::error::Error for AdoptError {}

/// Takes over the channel a parent made for this process: checks the
/// serialization, checks that `NODE_CHANNEL_FD` names an open socket,
/// marks it close-on-exec (so a grandchild cannot hold it open and delay
/// the parent's `disconnect`), and removes both variables from the
/// environment, as Node does. Call it before starting threads: it edits
/// the environment.
pub fn adopt_from_env() -> Result<UnixStream, AdoptError> {
    let fd_text = std::env::var_os(CHANNEL_FD_VAR).ok_or(AdoptError::Missing)?;
    check_serialization(std::env::var_os(SERIALIZATION_VAR).as_deref())?;
    let fd = parse_fd(&fd_text)?;
    let stream = adopt_fd(fd)?;
    std::env::remove_var(CHANNEL_FD_VAR);
    std::env::remove_var(SERIALIZATION_VAR);
    Ok(stream)
}

/// Absent or empty means `json` (Node's `|| 'json'`).
fn check_serialization(mode: Option<&OsStr>) -> Result<(), AdoptError> {
    match mode.map(OsStr::as_encoded_bytes) {
        None | Some(b"") | Some(b"json") => Ok(()),
        Some(b"advanced") => Err(AdoptError::Advanced),
        Some(other) => Err(AdoptError::UnknownSerialization(
            String::from_utf8_lossy(other).into_owned(),
        )),
    }
}

/// Decimal digits only: Node's lenient `parseInt` would take `3abc` as 3,
/// which hides a broken environment rather than reporting it.
fn parse_fd(text: &OsStr) -> Result<RawFd, AdoptError> {
    let invalid = || AdoptError::InvalidFd(text.to_string_lossy().into_owned());
    let bytes = text.as_encoded_bytes();
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) {
        return Err(invalid());
    }
    text.to_str()
        .and_then(|digits| digits.parse::<RawFd>().ok())
        .ok_or_else(invalid)
}

fn adopt_fd(fd: RawFd) -> Result<UnixStream, AdoptError> {
    let unusable = |error: io::Error| AdoptError::NotASocket(fd, error.to_string());
    // SAFETY: fstat only writes the struct it is given; an fd that is not
    // open makes it fail with EBADF.
    let mut status: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut status) } != 0 {
        return Err(unusable(io::Error::last_os_error()));
    }
    if status.st_mode & libc::S_IFMT != libc::S_IFSOCK {
        return Err(AdoptError::NotASocket(fd, "not a socket".to_string()));
    }
    // SAFETY: F_SETFD on an open descriptor changes only its flags.
    if unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) } != 0 {
        return Err(unusable(io::Error::last_os_error()));
    }
    // SAFETY: the descriptor is open and is a socket; the environment
    // handed it to this process and nothing else in it owns it.
    Ok(unsafe { UnixStream::from_raw_fd(fd) })
}

/// The child's end of a channel made for a child about to be spawned.
/// Drop it once the child is spawned: while the parent holds a copy of the
/// child's end, the parent never sees EOF when the child goes.
#[derive(Debug)]
pub struct ChildChannel {
    child_end: OwnedFd,
}

impl ChildChannel {
    /// Creates the socket pair (both ends close-on-exec): the child's end,
    /// and the parent's end for [`NodeChannel::new`].
    pub fn new() -> io::Result<(Self, UnixStream)> {
        let (parent_end, child_end) = UnixStream::pair()?;
        let child_end = OwnedFd::from(child_end);
        Ok((ChildChannel { child_end }, parent_end))
    }

    /// Makes `command` start its child with the channel at fd 3 and the
    /// variables that tell it so, in json mode.
    ///
    /// The `dup2` runs between fork and exec. Like every fd-passing
    /// `pre_exec`, it assumes no other thread closes fd 3 between
    /// [`ChildChannel::new`] and the spawn (std's exec-error pipe could
    /// then be given fd 3 and be overwritten); the oracle's binary spawns
    /// from a single thread, so fd 3 is always taken by then.
    pub fn configure(&self, command: &mut Command) {
        command
            .env(CHANNEL_FD_VAR, CHILD_FD.to_string())
            .env(SERIALIZATION_VAR, "json");
        let source = self.child_end.as_raw_fd();
        // SAFETY: the closure calls only dup2 and fcntl, which are
        // async-signal-safe, and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if source == CHILD_FD {
                    // dup2 onto itself keeps FD_CLOEXEC: clear it by hand.
                    if libc::fcntl(CHILD_FD, libc::F_SETFD, 0) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                } else if libc::dup2(source, CHILD_FD) < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

/// The writing side of the channel: a [`Channel`] for the protocol halves.
///
/// Every frame goes out whole, in one `write_all` from the one thread
/// that owns this value, so frames never interleave.
#[derive(Debug)]
pub struct NodeChannel {
    writer: UnixStream,
    connected: bool,
}

impl NodeChannel {
    /// Splits a connected stream into its writing side and a handle for
    /// [`spawn_reader`]. `write_timeout` bounds a write to a peer that has
    /// stopped reading (`None`: wait as long as it takes).
    pub fn new(
        stream: UnixStream,
        write_timeout: Option<Duration>,
    ) -> io::Result<(Self, UnixStream)> {
        let reader = stream.try_clone()?;
        stream.set_write_timeout(write_timeout)?;
        Ok((
            NodeChannel {
                writer: stream,
                connected: true,
            },
            reader,
        ))
    }

    /// The driver saw the reader's [`ChannelEvent::Disconnect`]: as Node
    /// does before it emits `disconnect`, the channel stops being
    /// `connected`. (The reader does not change this itself, so the state
    /// changes in event order.)
    pub fn mark_disconnected(&mut self) {
        self.connected = false;
    }

    /// Writes one message; `Err` says why it did not go out.
    pub fn write_message(&mut self, message: &Value) -> io::Result<()> {
        if !self.connected {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "Channel closed",
            ));
        }
        let mut line = js::to_json(message);
        line.push(b'\n');
        let written = self.writer.write_all(&line);
        if written.is_err() {
            // A broken or stuck peer: nothing more can be sent.
            self.connected = false;
        }
        written
    }

    /// Closes both directions, which ends the reader thread too.
    pub fn shutdown(&mut self) {
        self.connected = false;
        let _ = self.writer.shutdown(std::net::Shutdown::Both);
    }
}

impl Channel for NodeChannel {
    fn send(&mut self, frame: &Value) -> Result<(), JsError> {
        self.write_message(frame)
            .map_err(|error| JsError::new(error.to_string().as_str()))
    }

    fn connected(&self) -> bool {
        self.connected
    }
}

/// Whether Node would keep `message` to itself: an object whose `cmd` is
/// a string longer than 5 code units starting with `NODE_` (`NODE_HANDLE`,
/// `NODE_CLUSTER`, …) never reaches a `message` listener.
pub fn is_node_internal(message: &Value) -> bool {
    match message.get("cmd") {
        Value::String(cmd) => cmd.len_utf16() > 5 && cmd.starts_with("NODE_"),
        _ => false,
    }
}

/// Reads lines from `input` until EOF and hands each message to
/// `deliver`, then [`ChannelEvent::Disconnect`]. A line that is not JSON
/// is skipped and reported to `diagnose` (Node would crash on it); a
/// Node-internal message is skipped quietly; an unterminated line at EOF
/// is dropped, as Node drops it. Stops early when `deliver` answers
/// `false` (nobody is listening any more).
pub fn read_messages<R: io::Read>(
    input: R,
    mut deliver: impl FnMut(ChannelEvent) -> bool,
    mut diagnose: impl FnMut(&str),
) {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) if line.last() != Some(&b'\n') => {
                diagnose(&format!(
                    "dropped an unterminated IPC line of {} bytes at end of input",
                    line.len()
                ));
                break;
            }
            Ok(_) => {
                let text = line.strip_suffix(b"\n").unwrap_or(&line);
                match js::parse(text, TextMode::LossyUtf8) {
                    Ok(message) if is_node_internal(&message) => {}
                    Ok(message) => {
                        if !deliver(ChannelEvent::Message(message)) {
                            return;
                        }
                    }
                    Err(error) => diagnose(&format!(
                        "skipped a malformed IPC line of {} bytes: {error}",
                        text.len()
                    )),
                }
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => {
                // A reset connection ends the channel like EOF does.
                if error.kind() != io::ErrorKind::ConnectionReset {
                    diagnose(&format!("IPC read failed: {error}"));
                }
                break;
            }
        }
    }
    deliver(ChannelEvent::Disconnect);
}

/// Runs [`read_messages`] on a thread of its own, sending every event,
/// converted, to `events`; malformed lines are reported on stderr.
pub fn spawn_reader<T>(stream: UnixStream, events: Sender<T>) -> io::Result<JoinHandle<()>>
where
    T: From<ChannelEvent> + Send + 'static,
{
    std::thread::Builder::new()
        .name("ipc-reader".into())
        .spawn(move || {
            read_messages(
                stream,
                |event| events.send(T::from(event)).is_ok(),
                |diagnostic| {
                    let _ = writeln!(io::stderr(), "worker-spawn oracle: {diagnostic}");
                },
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;
    use std::io::Read;

    fn events(input: &[u8]) -> (Vec<String>, Vec<String>) {
        let mut seen = Vec::new();
        let mut diagnostics = Vec::new();
        read_messages(
            input,
            |event| {
                seen.push(match event {
                    ChannelEvent::Message(value) => {
                        String::from_utf8(js::to_json(&value)).unwrap_or_default()
                    }
                    ChannelEvent::Disconnect => "EOF".to_string(),
                });
                true
            },
            |diagnostic| diagnostics.push(diagnostic.to_string()),
        );
        (seen, diagnostics)
    }

    #[test]
    fn lines_become_messages_then_disconnect() {
        let (seen, diagnostics) = events(b"{\"a\":1}\n[2]\n\"x\"\nnull\n");
        assert_eq!(seen, ["{\"a\":1}", "[2]", "\"x\"", "null", "EOF"]);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn malformed_and_blank_lines_are_skipped_with_a_diagnostic() {
        let (seen, diagnostics) = events(b"{oops\n\n{\"b\":2}\n\xef\xbb\xbf1\n");
        assert_eq!(seen, ["{\"b\":2}", "EOF"]);
        assert_eq!(diagnostics.len(), 3, "{diagnostics:?}");
        assert!(diagnostics[0].contains("malformed IPC line of 5 bytes"));
    }

    #[test]
    fn an_unterminated_last_line_is_dropped() {
        let (seen, diagnostics) = events(b"1\n{\"partial\":");
        assert_eq!(seen, ["1", "EOF"]);
        assert!(diagnostics[0].contains("unterminated IPC line of 11 bytes"));
    }

    #[test]
    fn lone_surrogates_and_invalid_utf8_read_as_node_reads_them() {
        let (seen, _) = events(b"\"\\ud800\"\n\"a\xffb\"\n");
        assert_eq!(seen, ["\"\\ud800\"", "\"a\u{fffd}b\"", "EOF"]);
    }

    #[test]
    fn node_internal_messages_are_skipped_quietly() {
        let input = concat!(
            r#"{"cmd":"NODE_HANDLE","msg":1}"#,
            "\n",
            r#"{"cmd":"NODE_"}"#,
            "\n",
            r#"{"cmd":"NODEX_A"}"#,
            "\n",
            r#"{"cmd":["NODE_HANDLE"]}"#,
            "\n",
            r#"{"cmd":"NODE_CLUSTER"}"#,
            "\n",
        );
        let (seen, diagnostics) = events(input.as_bytes());
        assert_eq!(
            seen,
            [
                r#"{"cmd":"NODE_"}"#,
                r#"{"cmd":"NODEX_A"}"#,
                r#"{"cmd":["NODE_HANDLE"]}"#,
                "EOF"
            ]
        );
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn delivery_stops_when_nobody_listens() {
        let mut seen = 0;
        read_messages(
            &b"1\n2\n3\n"[..],
            |_| {
                seen += 1;
                false
            },
            |_| {},
        );
        assert_eq!(seen, 1);
    }

    #[test]
    fn serialization_modes() {
        let mode = |text: &str| check_serialization(Some(OsString::from(text).as_os_str()));
        assert!(check_serialization(None).is_ok());
        assert!(mode("").is_ok());
        assert!(mode("json").is_ok());
        assert!(matches!(mode("advanced"), Err(AdoptError::Advanced)));
        assert!(matches!(mode("JSON"), Err(AdoptError::UnknownSerialization(m)) if m == "JSON"));
        let message = AdoptError::Advanced.to_string();
        assert!(message.contains("advanced is not supported"), "{message}");
    }

    #[test]
    fn descriptor_numbers_are_plain_decimal() {
        let fd = |text: &str| parse_fd(OsString::from(text).as_os_str()).ok();
        assert_eq!(fd("3"), Some(3));
        assert_eq!(fd("017"), Some(17));
        for bad in ["", "-1", "3abc", " 3", "+3", "99999999999"] {
            assert_eq!(fd(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn only_open_sockets_are_adopted() {
        assert!(matches!(adopt_fd(-1), Err(AdoptError::NotASocket(-1, _))));
        let file = tempfile::tempfile().unwrap();
        let fd = file.as_raw_fd();
        let refused = adopt_fd(fd).map(|_| ()).unwrap_err().to_string();
        assert!(refused.contains("not a socket"), "{refused}");
    }

    #[test]
    fn frames_are_written_whole_and_compact() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let (mut channel, _reader) = NodeChannel::new(ours, None).unwrap();
        let frame = js::parse(br#"{"a" : [1.0, "\u2028"], "b": {}}"#, TextMode::LossyUtf8).unwrap();
        channel.send(&frame).unwrap();
        channel.shutdown();
        assert!(!channel.connected());
        assert!(channel.send(&frame).is_err());
        let mut written = String::new();
        (&theirs).read_to_string(&mut written).unwrap();
        assert_eq!(written, "{\"a\":[1,\"\u{2028}\"],\"b\":{}}\n");
    }

    #[test]
    fn a_write_to_a_closed_peer_fails_and_disconnects() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        drop(theirs);
        let (mut channel, _reader) = NodeChannel::new(ours, None).unwrap();
        assert!(channel.send(&Value::Null).is_err());
        assert!(!channel.connected());
    }

    #[test]
    fn the_reader_thread_reports_in_order() {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel::<ChannelEvent>();
        let reader = spawn_reader(ours, sender).unwrap();
        (&theirs).write_all(b"1\n2").unwrap();
        (&theirs).write_all(b"2\n").unwrap();
        drop(theirs);
        let got: Vec<ChannelEvent> = receiver.iter().collect();
        assert_eq!(
            got,
            [
                ChannelEvent::Message(Value::from(1.0)),
                ChannelEvent::Message(Value::from(22.0)),
                ChannelEvent::Disconnect
            ]
        );
        reader.join().unwrap();
    }
}
