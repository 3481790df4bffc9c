//! The one part of `review` that needs a terminal: raw mode and the
//! alternate screen (left as they were on every way out, a panic's
//! included), keys read as [`Key`]s, and the screen painted row by row.
//! Colour only when `--color` says so.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{Attribute, Color, Print, ResetColor, SetAttribute, SetForegroundColor};
use crossterm::{cursor, execute, queue, terminal};

use super::prompt::Key;
use super::screen::{self, Row, Style};
use super::session::Session;
use crate::exec::oracle::before_signal_exit;

/// Whether the terminal is in raw mode on the alternate screen.
static RAW: AtomicBool = AtomicBool::new(false);

/// The terminal's settings before raw mode, for [`restore_on_signal`].
static SAVED: OnceLock<libc::termios> = OnceLock::new();

/// Puts the terminal back as it was, once, if it is raw: on every way
/// out of [`run`].
fn restore() {
    if RAW.swap(false, Ordering::SeqCst) {
        let _ = execute!(io::stdout(), cursor::Show, terminal::LeaveAlternateScreen);
        let _ = terminal::disable_raw_mode();
    }
}

/// The same before an exit on a signal (SIGTERM, SIGHUP), from the
/// signal thread: no guard of the review's thread runs then, and that
/// thread holds stdout's lock (the command writes through a locked
/// stdout), so the bytes go to the descriptor itself and the settings
/// back through `tcsetattr`, with no lock of std's or crossterm's.
fn restore_on_signal() {
    if RAW.swap(false, Ordering::SeqCst) {
        let shown = b"\x1b[?25h\x1b[?1049l";
        // SAFETY: writes a static buffer of its own length to fd 1.
        let _ = unsafe { libc::write(libc::STDOUT_FILENO, shown.as_ptr().cast(), shown.len()) };
        if let Some(saved) = SAVED.get() {
            // SAFETY: `saved` is what tcgetattr filled for fd 0.
            let _ = unsafe { libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, saved) };
        }
    }
}

/// Notes the terminal's settings before raw mode (fd 0 is the terminal:
/// review refuses to run otherwise).
fn save_settings() {
    // SAFETY: termios is plain data; tcgetattr fills it or fails.
    let mut settings: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a termios of our own.
    if unsafe { libc::tcgetattr(libc::STDIN_FILENO, &mut settings) } == 0 {
        let _ = SAVED.set(settings);
    }
}

/// Puts the terminal back as it was when dropped.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        restore();
    }
}

/// Runs the session until the reviewer quits.
pub fn run(session: &mut Session, color: bool) -> io::Result<()> {
    save_settings();
    before_signal_exit(restore_on_signal);
    terminal::enable_raw_mode()?;
    RAW.store(true, Ordering::SeqCst);
    let _restore = Restore;
    let mut out = io::stdout();
    execute!(out, terminal::EnterAlternateScreen, cursor::Hide)?;
    while !session.quit {
        let (width, height) = terminal::size()?;
        let rows = screen::draw(session, usize::from(width), usize::from(height));
        paint(&mut out, &rows, color)?;
        match event::read()? {
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                if let Some(key) = key_of(key) {
                    session.key(key);
                }
            }
            // A resize is drawn anew at the loop's top.
            _ => {}
        }
    }
    Ok(())
}

/// A terminal's key as the session's, when it is one of them.
fn key_of(event: KeyEvent) -> Option<Key> {
    let control = event.modifiers.contains(KeyModifiers::CONTROL);
    Some(match event.code {
        KeyCode::Char('c') if control => Key::Interrupt,
        KeyCode::Char('u') if control => Key::ClearLine,
        KeyCode::Char(_) if control => return None,
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Tab => Key::Char('\t'),
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Delete => Key::Delete,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        _ => return None,
    })
}

/// Paints every row, each cleared to its end.
fn paint(out: &mut impl Write, rows: &[Row], color: bool) -> io::Result<()> {
    for (at, row) in rows.iter().enumerate() {
        queue!(out, cursor::MoveTo(0, at as u16))?;
        for (style, text) in row {
            if color {
                paint_style(out, *style)?;
            }
            queue!(out, Print(text))?;
            if color {
                queue!(out, SetAttribute(Attribute::Reset), ResetColor)?;
            }
        }
        queue!(out, terminal::Clear(terminal::ClearType::UntilNewLine))?;
    }
    out.flush()
}

fn paint_style(out: &mut impl Write, style: Style) -> io::Result<()> {
    let color = match style {
        Style::Plain => return Ok(()),
        Style::Title | Style::Key => return queue!(out, SetAttribute(Attribute::Bold)),
        Style::Dim => Color::DarkGrey,
        Style::Golden => Color::Red,
        Style::Actual => Color::Green,
        Style::Hunk => Color::Cyan,
        Style::Warn => Color::Yellow,
    };
    queue!(out, SetForegroundColor(color))
}
