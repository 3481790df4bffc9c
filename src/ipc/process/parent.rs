//! `ipc-parent [--timeout SECS] <child command…>` (contract 5): spawns the
//! child with a Node IPC channel, runs the choreography against it with
//! the parent half, and prints `{"frames","parentEvents","childTrace"}`.
//!
//! Every wait is bounded by one deadline for the whole run. A child that
//! cannot start, goes away early, or stops answering gets one line on
//! stderr and exit status 1; on every way out, the child's process group
//! is killed and the child reaped (a session's `Drop` sees to it).

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{self, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::cue_name;
use super::spawn::{program_and_args, watch_exit, watch_signals, Event};
use crate::ipc::channel::{spawn_reader, ChannelEvent, ChildChannel, NodeChannel};
use crate::ipc::parent::{
    HandlerAnswer, HandlerId, ParentHalf, ParentHost, RequestTicket, SubscriberId,
};
use crate::ipc::Channel;
use js_exact::js_object;
use js_exact::{self as js, JsError, JsResult, JsString, Object, Value};
use sys_unix::kill_group;

/// How long a child that closed its channel gets to be seen exiting, so
/// that the failure line can say how it ended.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// What `ipc-parent` was asked to do.
#[derive(Clone, Debug)]
pub struct ParentOptions {
    /// The bound on the whole run, from spawn to the child's exit.
    pub timeout: Duration,
    /// The child's command line (at least the program).
    pub command: Vec<OsString>,
}

/// Runs `ipc-parent`: prints the result object (no trailing newline) and
/// answers 0, or prints one line on stderr and answers 1 (128 + n when
/// signal n interrupted it).
pub fn run_parent(options: &ParentOptions) -> u8 {
    let (failure, status) = match Session::start(options) {
        Err(failure) => (failure, None),
        Ok(mut session) => match session.choreography() {
            Ok(output) => {
                session.end(true);
                return print_output(&output);
            }
            Err(failure) => (failure, session.end(false)),
        },
    };
    let line = describe_failure(&failure, status);
    let _ = writeln!(io::stderr(), "worker-spawn oracle: ipc-parent: {line}");
    match failure {
        Failure::Signal(signal) => u8::try_from(128 + signal).unwrap_or(1),
        _ => 1,
    }
}

/// `--timeout SECS`: a positive number of seconds (fractions allowed).
pub fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("not a number of seconds: {text}"))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(format!("must be more than 0 seconds: {text}"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|error| format!("{error}: {text}"))
}

fn print_output(output: &Value) -> u8 {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(&js::to_json(output))
        .and_then(|()| stdout.flush())
    {
        Ok(()) => 0,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(error) => {
            let _ = writeln!(io::stderr(), "worker-spawn oracle: ipc-parent: {error}");
            1
        }
    }
}

/// Why the choreography could not complete.
#[derive(Debug)]
enum Failure {
    /// The channel, a thread, or the signal handlers could not be set up.
    Setup(io::Error),
    /// The child command could not be started.
    Spawn(OsString, io::Error),
    /// The deadline passed while waiting for this.
    Timeout(&'static str, Duration),
    /// The child went away (exited or closed its channel) before this.
    Gone(&'static str),
    /// `client.notify` threw.
    Notify(JsString),
    /// A cue could not be sent.
    Send(&'static str, JsString),
    /// The oracle was told to stop.
    Signal(i32),
}

/// The failure line; `status` is how the child ended, when it was reaped.
fn describe_failure(failure: &Failure, status: Option<ExitStatus>) -> String {
    match failure {
        Failure::Setup(error) => format!("cannot set up the child's IPC channel: {error}"),
        Failure::Spawn(program, error) => {
            format!(
                "cannot start the child {:?}: {error}",
                program.to_string_lossy()
            )
        }
        Failure::Timeout(what, timeout) => format!(
            "timed out after {} waiting for {what}; the child was killed",
            seconds(*timeout)
        ),
        Failure::Gone(what) => match status {
            Some(status) if !killed_by_us(&status) => {
                format!("the child ended ({status}) before {what}")
            }
            _ => format!("the child's IPC channel closed before {what}; the child was killed"),
        },
        Failure::Notify(message) => format!("notify turn/interrupt threw: {message}"),
        Failure::Send(cue, message) => format!("cannot send the {cue} cue: {message}"),
        Failure::Signal(signal) => format!("interrupted by signal {signal}; the child was killed"),
    }
}

fn seconds(duration: Duration) -> String {
    format!("{}s", duration.as_secs_f64())
}

fn killed_by_us(status: &ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    status.signal() == Some(libc::SIGKILL)
}

/// The code that uses the client: records what contract 5 records and
/// approves every server request.
#[derive(Debug, Default)]
struct Host {
    events: Vec<Value>,
    settled: HashMap<RequestTicket, JsResult<Value>>,
}

impl ParentHost for Host {
    fn notification(&mut self, _subscriber: SubscriberId, notification: &Value) {
        self.events
            .push(js_object! { "t" => "notification", "notification" => notification });
    }

    fn server_request(&mut self, _handler: HandlerId, request: &Value) -> HandlerAnswer {
        self.events
            .push(js_object! { "t" => "serverRequest", "request" => request });
        HandlerAnswer::Resolve(js_object! { "decision" => "approved" })
    }

    fn request_settled(&mut self, ticket: RequestTicket, outcome: JsResult<Value>) {
        self.settled.insert(ticket, outcome);
    }
}

/// A running child and everything the choreography has seen of it.
struct Session {
    child: Option<Child>,
    events: Receiver<Event>,
    /// Kept so that the queue never reports "no senders": waits end by
    /// their deadline, not by accident.
    _keep_open: Sender<Event>,
    deadline: Instant,
    timeout: Duration,
    /// The parent half; it hears the child only once `connected`.
    half: ParentHalf<NodeChannel, Host>,
    connected: bool,
    frames: Vec<Value>,
    awaited: Option<&'static str>,
    arrived: Option<Value>,
    exited: bool,
    disconnected: bool,
}

impl Session {
    /// Spawns the child with its channel and starts watching it.
    fn start(options: &ParentOptions) -> Result<Session, Failure> {
        let (sender, events) = mpsc::channel::<Event>();
        watch_signals(sender.clone()).map_err(Failure::Setup)?;
        let (child_end, parent_end) = ChildChannel::new().map_err(Failure::Setup)?;
        let (node_channel, reader) =
            NodeChannel::new(parent_end, Some(options.timeout)).map_err(Failure::Setup)?;
        let (program, args) = program_and_args(&options.command);
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit())
            // Its own group, so that a timeout also ends what it started.
            .process_group(0);
        child_end.configure(&mut command);
        let child = command
            .spawn()
            .map_err(|error| Failure::Spawn(program.to_os_string(), error))?;
        drop(child_end);
        let session = Session {
            child: Some(child),
            events,
            _keep_open: sender.clone(),
            deadline: Instant::now() + options.timeout,
            timeout: options.timeout,
            // A pure state machine: it hears nothing until `connect`.
            half: ParentHalf::connect(node_channel, Host::default()),
            connected: false,
            frames: Vec::new(),
            // The reference registers this waiter before any message can
            // arrive.
            awaited: Some("child_ready"),
            arrived: None,
            exited: false,
            disconnected: false,
        };
        // On failure, dropping the session kills and reaps the child.
        spawn_reader(reader, sender.clone()).map_err(Failure::Setup)?;
        watch_exit(session.pid(), sender).map_err(Failure::Setup)?;
        Ok(session)
    }

    /// Contract 5's choreography; the result object.
    fn choreography(&mut self) -> Result<Value, Failure> {
        self.wait_cue("child_ready")?;
        self.connect();
        let read = self.request(
            "thread/read",
            js_object! { "threadId" => "t-cross" },
            "the thread/read response",
        )?;
        self.record(read);
        let boom = self.request("boom/method", Value::Undefined, "the boom/method response")?;
        // Recorded with a null response whatever it resolved with.
        self.record(boom.map(|_| Value::Null));
        self.half
            .notify(
                Value::from("turn/interrupt"),
                js_object! { "reason" => "cross-impl" },
            )
            .map_err(|error| Failure::Notify(error.message))?;
        self.half.run_completions();
        let notification = js_object! {
            "method" => "thread/event",
            "params" => js_object! { "kind" => "delta", "n" => 1.0 },
        };
        self.cue_and_wait(
            "emit_notification",
            Some(("notification", notification)),
            "notification_emitted",
        )?;
        let request = js_object! {
            "id" => 21.0,
            "method" => "applyPatchApproval",
            "params" => js_object! { "call" => "c-cross" },
        };
        self.cue_and_wait(
            "emit_server_request",
            Some(("request", request)),
            "server_request_settled",
        )?;
        let report = self.cue_and_wait("report", None, "trace")?;
        self.send_cue("exit", None)?;
        while !self.exited {
            self.pump("the child to exit")?;
        }
        let events = std::mem::take(&mut self.half.host_mut().events);
        Ok(js_object! {
            "frames" => Value::Array(std::mem::take(&mut self.frames)),
            "parentEvents" => Value::Array(events),
            "childTrace" => report.get("trace"),
        })
    }

    fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// `connectThreadCodexWorkerIpc(child)`, one `onNotification` and one
    /// `onRequest`.
    fn connect(&mut self) {
        self.connected = true;
        self.half.on_notification();
        self.half.on_request();
    }

    /// `await client.request(method, params)`.
    fn request(
        &mut self,
        method: &str,
        params: Value,
        waiting: &'static str,
    ) -> Result<JsResult<Value>, Failure> {
        let ticket = self.half.request(Value::from(method), params);
        self.half.run_completions();
        loop {
            if let Some(outcome) = self.half.host_mut().settled.remove(&ticket) {
                // A request settled by the child going away cannot lead
                // to a completed run.
                if self.child_gone() {
                    return Err(self.gone(waiting));
                }
                return Ok(outcome);
            }
            self.pump(waiting)?;
        }
    }

    fn record(&mut self, outcome: JsResult<Value>) {
        let event = match outcome {
            Ok(response) => js_object! { "t" => "requestResolved", "response" => response },
            Err(error) => js_object! { "t" => "requestRejected", "message" => error.message },
        };
        self.half.host_mut().events.push(event);
    }

    /// Registers the waiter for `answer`, sends the cue `name` (with the
    /// `extra` members), and waits.
    fn cue_and_wait(
        &mut self,
        name: &'static str,
        extra: Option<(&str, Value)>,
        answer: &'static str,
    ) -> Result<Value, Failure> {
        self.awaited = Some(answer);
        self.send_cue(name, extra)?;
        self.wait_cue(answer)
    }

    /// `child.send({cue: name, ...extra})`; the reference dies of the
    /// `error` event when the channel is closed.
    fn send_cue(
        &mut self,
        name: &'static str,
        extra: Option<(&str, Value)>,
    ) -> Result<(), Failure> {
        let mut cue = Object::new();
        cue.insert("cue", Value::from(name));
        if let Some((key, value)) = extra {
            cue.insert(key, value);
        }
        let sent = self.half.channel_mut().send(&Value::Object(cue));
        sent.map_err(|error: JsError| Failure::Send(name, error.message))
    }

    /// Whether the child can no longer complete the choreography: it has
    /// exited, closed its channel, or a write to it failed.
    fn child_gone(&self) -> bool {
        self.exited || self.disconnected || !self.half.channel().connected()
    }

    fn wait_cue(&mut self, cue: &'static str) -> Result<Value, Failure> {
        loop {
            if let Some(message) = self.arrived.take() {
                return Ok(message);
            }
            // Every message before the end of input has been handled.
            if self.disconnected {
                return Err(self.gone(cue));
            }
            self.pump(cue)?;
        }
    }

    /// The child went away before `what`: give it a moment to be seen
    /// exiting, so that the failure line can say how it ended.
    fn gone(&mut self, what: &'static str) -> Failure {
        let until = (Instant::now() + EXIT_GRACE).min(self.deadline);
        while !self.exited {
            let left = until.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(event) => {
                    if let Err(failure) = self.handle(event) {
                        return failure;
                    }
                }
                Err(_) => break,
            }
        }
        Failure::Gone(what)
    }

    /// Handles the next event, waiting for it until the deadline.
    fn pump(&mut self, waiting: &'static str) -> Result<(), Failure> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(left) {
            Ok(event) => self.handle(event),
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                Err(Failure::Timeout(waiting, self.timeout))
            }
        }
    }

    /// One event, as the reference's listeners see it: the harness's
    /// message listener (registered first) records frames and resolves
    /// cue waiters, then the client's.
    fn handle(&mut self, event: Event) -> Result<(), Failure> {
        match event {
            Event::Signal(signal) => return Err(Failure::Signal(signal)),
            Event::Exited => {
                self.exited = true;
                if self.connected {
                    self.half.on_exit();
                    self.half.run_completions();
                }
            }
            Event::Channel(ChannelEvent::Disconnect) => {
                self.disconnected = true;
                self.half.channel_mut().mark_disconnected();
                if self.connected {
                    self.half.on_disconnect();
                    self.half.run_completions();
                }
            }
            Event::Channel(ChannelEvent::Message(message)) => {
                if matches!(message.get("cue"), Value::Undefined) {
                    self.frames.push(message.clone());
                } else if let Some(awaited) = self.awaited {
                    if cue_name(&message).is_some_and(|cue| cue.eq_str(awaited)) {
                        self.awaited = None;
                        self.arrived = Some(message.clone());
                    }
                }
                if self.connected {
                    self.half.on_message(&message);
                    self.half.run_completions();
                }
            }
        }
        Ok(())
    }

    /// Ends the child: reaps it after a completed run (it has exited);
    /// otherwise kills its process group first. How it ended, when known.
    fn end(&mut self, completed: bool) -> Option<ExitStatus> {
        let mut child = self.child.take()?;
        self.half.channel_mut().shutdown();
        if !completed {
            kill_group(child.id());
        }
        child.wait().ok()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.end(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_approves_and_records() {
        let mut host = Host::default();
        let answer = host.server_request(HandlerId(0), &Value::from(1.0));
        assert_eq!(
            answer,
            HandlerAnswer::Resolve(js_object! { "decision" => "approved" })
        );
        host.notification(SubscriberId(0), &Value::Null);
        let events = String::from_utf8(js::to_json(&Value::Array(host.events))).unwrap();
        assert_eq!(
            events,
            r#"[{"t":"serverRequest","request":1},{"t":"notification","notification":null}]"#
        );
    }

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(parse_timeout("10"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_timeout("0.25"), Ok(Duration::from_millis(250)));
        for bad in ["0", "-1", "NaN", "inf", "1e400", "ten", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn failure_lines() {
        let line = |failure: Failure| describe_failure(&failure, None);
        assert_eq!(
            line(Failure::Timeout("child_ready", Duration::from_millis(2500))),
            "timed out after 2.5s waiting for child_ready; the child was killed"
        );
        assert_eq!(
            line(Failure::Gone("trace")),
            "the child's IPC channel closed before trace; the child was killed"
        );
        assert_eq!(
            line(Failure::Notify(JsString::from("thread worker exited"))),
            "notify turn/interrupt threw: thread worker exited"
        );
    }
}
