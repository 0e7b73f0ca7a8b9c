//! One running adapter: its process (in a process group of its own), a line handed to a
//! writer thread for its stdin, a line read from its stdout within a time limit (a reader
//! thread hands lines over a channel), and the last bytes of its stderr for the report when
//! it exits. Nothing it does blocks the caller past the limit: an adapter that stops reading
//! its stdin, or never answers, is killed when the limit passes. Dropping it kills the
//! process group.

use super::signals;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Bytes of stderr kept for a report.
const STDERR_TAIL: usize = 2048;
/// The longest answer line read (the longest the protocol has, expand_a for ML-DSA-87, is
/// about 120 KB).
const MAX_LINE: u64 = 16 << 20;

/// Why no answer came.
#[derive(Debug)]
pub(super) enum Failure {
    /// The process exited, closed its stdout, or could not be written to.
    Exited { status: String, stderr: String },
    /// No line within the time limit (the process has been killed).
    Timeout,
    /// A line that is not text, or longer than [`MAX_LINE`] (the process has been killed).
    NotALine(String),
}

/// What the reader thread hands over: a line, or why there is none.
enum Received {
    Line(Vec<u8>),
    TooLong,
}

pub(super) struct Child {
    proc: std::process::Child,
    /// Killed and reaped (its id may now name another process).
    gone: bool,
    lines: Receiver<std::io::Result<Received>>,
    writes: Sender<String>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

impl Child {
    /// Starts `command` through `/bin/sh -c 'exec COMMAND'`, in the current directory, in a
    /// process group of its own.
    pub(super) fn start(command: &str) -> std::io::Result<Child> {
        signals::ignore_sigpipe();
        let mut proc = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        let (Some(mut stdin), Some(stdout), Some(mut err)) =
            (proc.stdin.take(), proc.stdout.take(), proc.stderr.take())
        else {
            signals::kill_group(&mut proc);
            return Err(std::io::Error::other("no pipes to the child"));
        };
        let (tx, lines) = channel();
        std::thread::Builder::new()
            .name("oracle stdout".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                loop {
                    let mut line = Vec::new();
                    let read = r.by_ref().take(MAX_LINE + 1).read_until(b'\n', &mut line);
                    let msg = match read {
                        Ok(0) => return,
                        Ok(_) if line.len() as u64 > MAX_LINE => Ok(Received::TooLong),
                        Ok(_) => Ok(Received::Line(line)),
                        Err(e) => Err(e),
                    };
                    let stop = !matches!(msg, Ok(Received::Line(_)));
                    if tx.send(msg).is_err() || stop {
                        return;
                    }
                }
            })?;
        let (writes, to_write) = channel::<String>();
        std::thread::Builder::new()
            .name("oracle stdin".into())
            .spawn(move || {
                for line in to_write {
                    let sent = stdin
                        .write_all(line.as_bytes())
                        .and_then(|()| stdin.write_all(b"\n"))
                        .and_then(|()| stdin.flush());
                    if sent.is_err() {
                        return;
                    }
                }
            })?;
        let stderr = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let tail = stderr.clone();
        std::thread::Builder::new()
            .name("oracle stderr".into())
            .spawn(move || {
                let mut buf = [0u8; 1024];
                while let Ok(n @ 1..) = err.read(&mut buf) {
                    let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                    t.extend(&buf[..n]);
                    let extra = t.len().saturating_sub(STDERR_TAIL);
                    t.drain(..extra);
                }
            })?;
        Ok(Child {
            proc,
            gone: false,
            lines,
            writes,
            stderr,
        })
    }

    /// The last bytes it wrote to stderr, as text.
    pub(super) fn stderr(&self) -> String {
        let t = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let (a, b) = t.as_slices();
        String::from_utf8_lossy(&[a, b].concat()).trim().to_string()
    }

    /// The next line it writes, within `limit`.
    pub(super) fn read_line(&mut self, limit: Duration) -> Result<String, Failure> {
        match self.lines.recv_timeout(limit) {
            Ok(Ok(Received::Line(line))) if line.ends_with(b"\n") => String::from_utf8(line)
                .map_err(|e| {
                    self.kill();
                    Failure::NotALine(format!(
                        "not UTF-8 text: {}",
                        String::from_utf8_lossy(e.as_bytes())
                    ))
                }),
            Ok(Ok(Received::TooLong)) => {
                self.kill();
                Err(Failure::NotALine(format!(
                    "a line longer than {MAX_LINE} bytes"
                )))
            }
            Ok(Ok(Received::Line(_)) | Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.exited())
            }
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Failure::Timeout)
            }
        }
    }

    /// Hands `line` (one line, without its newline) to the writer and reads the answer
    /// within `limit` (an adapter that stops reading its stdin gives no answer: killed when
    /// the limit passes).
    pub(super) fn ask(&mut self, line: &str, limit: Duration) -> Result<String, Failure> {
        // A process that exited while idle is not written to.
        if self.ended() || self.writes.send(line.into()).is_err() {
            return Err(self.exited());
        }
        self.read_line(limit)
    }

    /// The failure of a process that stopped answering: its exit status (it has half a
    /// second to exit on its own; a zombie keeps its status when its group is killed), and
    /// its last stderr.
    fn exited(&mut self) -> Failure {
        for _ in 0..50 {
            if self.ended() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let ended = self.ended();
        let status = self.kill();
        // The stderr reader drains what is left once the process is gone.
        std::thread::sleep(Duration::from_millis(20));
        Failure::Exited {
            status: match status {
                Some(s) if ended => s.to_string(),
                _ => "still running, its stdout closed; killed".into(),
            },
            stderr: self.stderr(),
        }
    }

    /// Whether the process has exited (a zombie not yet reaped: Linux's /proc says so without
    /// reaping it, so its id still names its group).
    fn ended(&self) -> bool {
        match std::fs::read_to_string(format!("/proc/{}/stat", self.proc.id())) {
            Ok(s) => s
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z')),
            // No such process (it cannot have been reaped but by `kill`), where /proc exists.
            Err(_) => std::path::Path::new("/proc/self/stat").exists(),
        }
    }

    /// Kills its process group and reaps it, once: its exit status, the first time.
    fn kill(&mut self) -> Option<std::process::ExitStatus> {
        if std::mem::replace(&mut self.gone, true) {
            return None;
        }
        signals::kill_group(&mut self.proc)
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.kill();
    }
}
