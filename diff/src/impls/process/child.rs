//! One running adapter: its process, a line written to its stdin, a line read from its stdout
//! within a time limit (a reader thread hands lines over a channel), and the last bytes of its
//! stderr for the report when it fails. Dropping it kills the process.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Bytes of stderr kept for a report.
const STDERR_TAIL: usize = 2048;

/// Why no answer came.
#[derive(Debug)]
pub(super) enum Failure {
    /// The process exited, closed its stdout, or could not be written to.
    Exited { status: String, stderr: String },
    /// No line within the time limit (the process has been killed).
    Timeout,
}

pub(super) struct Child {
    proc: std::process::Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
}

impl Child {
    /// Starts `command` through `/bin/sh -c 'exec COMMAND'`, in the current directory.
    pub(super) fn start(command: &str) -> std::io::Result<Child> {
        let mut proc = Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (stdin, stdout, mut err) =
            match (proc.stdin.take(), proc.stdout.take(), proc.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    let _ = proc.kill();
                    let _ = proc.wait();
                    return Err(std::io::Error::other("no pipes to the child"));
                }
            };
        let (tx, lines) = channel();
        std::thread::Builder::new()
            .name("oracle stdout".into())
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                loop {
                    let mut line = String::new();
                    match r.read_line(&mut line) {
                        Ok(0) => return,
                        Ok(_) => {
                            if tx.send(Ok(line)).is_err() {
                                return;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
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
            stdin,
            lines,
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
            Ok(Ok(line)) if line.ends_with('\n') => Ok(line),
            Ok(Ok(_)) | Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Failure::Timeout)
            }
        }
    }

    /// Writes `line` (one line, without its newline) and reads the answer within `limit`.
    pub(super) fn ask(&mut self, line: &str, limit: Duration) -> Result<String, Failure> {
        let sent = self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        if sent.is_err() {
            return Err(self.exited());
        }
        self.read_line(limit)
    }

    /// The failure of a process that stopped answering: its exit status once it has exited
    /// (waiting briefly for it), and its last stderr.
    fn exited(&mut self) -> Failure {
        let mut status = "still running, its stdout closed".to_string();
        for _ in 0..50 {
            if let Ok(Some(s)) = self.proc.try_wait() {
                status = s.to_string();
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
        // The stderr reader drains what is left once the process is gone.
        std::thread::sleep(Duration::from_millis(20));
        Failure::Exited {
            status,
            stderr: self.stderr(),
        }
    }

    fn kill(&mut self) {
        let _ = self.proc.kill();
        let _ = self.proc.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill();
    }
}
