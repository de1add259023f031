//! What every connection of a run shares, brokers' and the token endpoint's alike: the run's
//! one deadline and answer bound ([`Run`]), and TCP connections whose every look-up, connect,
//! read and write ends with that deadline.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What every connection of one run shares: one deadline for the whole run (a server that
/// sends a byte a second cannot stretch it) and one bound on the bytes of all replies together
/// (connections read side by side).
pub struct Run {
    deadline: Instant,
    /// `--timeout`, for messages.
    timeout: Duration,
    /// `--max-answer-mib`, in bytes.
    max_answer_bytes: usize,
    answered: AtomicUsize,
}

impl Run {
    pub fn new(timeout: Duration, max_answer_bytes: usize) -> Run {
        Run {
            deadline: Instant::now() + timeout,
            timeout,
            max_answer_bytes,
            answered: AtomicUsize::new(0),
        }
    }

    /// What is left of the deadline; `None` once it has passed.
    pub fn left(&self) -> Option<Duration> {
        Some(self.deadline.saturating_duration_since(Instant::now())).filter(|left| !left.is_zero())
    }

    /// Why a broker was not asked, or stopped answering, when the deadline passed.
    pub fn too_late(&self) -> String {
        format!(
            "no answer within {} s (--timeout bounds the whole run)",
            self.timeout.as_secs()
        )
    }

    /// Counts a reply of `size` bytes against the bound, or says that it would pass it.
    pub(super) fn admit(&self, size: usize) -> Result<(), usize> {
        let mut answered = self.answered.load(Ordering::SeqCst);
        loop {
            let total = answered.saturating_add(size);
            if total > self.max_answer_bytes {
                return Err(answered);
            }
            match self.answered.compare_exchange(
                answered,
                total,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(_) => return Ok(()),
                Err(now) => answered = now,
            }
        }
    }

    pub(super) fn max_answer_mib(&self) -> usize {
        self.max_answer_bytes >> 20
    }
}

/// A TCP stream whose every read and write waits at most for what is left of the deadline.
pub(super) struct Timed {
    tcp: TcpStream,
    deadline: Instant,
}

impl Timed {
    fn left(&self) -> std::io::Result<Duration> {
        Some(self.deadline.saturating_duration_since(Instant::now()))
            .filter(|left| !left.is_zero())
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::TimedOut))
    }
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.tcp.set_read_timeout(Some(self.left()?))?;
        self.tcp.read(buf)
    }
}

impl Write for Timed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.tcp.set_write_timeout(Some(self.left()?))?;
        self.tcp.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.tcp.flush()
    }
}

/// A TCP connection to `host:port` whose reads and writes end with `run`'s deadline; else why
/// not, in one line.
pub(super) fn connect(host: &str, port: u16, run: &Run) -> Result<Timed, String> {
    let addresses = resolve(host, port, run)?;
    let mut last_error = None;
    for socket_address in &addresses {
        let Some(left) = run.left() else {
            last_error = Some(std::io::Error::from(std::io::ErrorKind::TimedOut));
            break;
        };
        match TcpStream::connect_timeout(socket_address, left) {
            Ok(tcp) => {
                let _ = tcp.set_nodelay(true);
                return Ok(Timed {
                    tcp,
                    deadline: run.deadline,
                });
            }
            Err(error) => last_error = Some(error),
        }
    }
    Err(match last_error {
        Some(error) if error.kind() == std::io::ErrorKind::TimedOut => run.too_late(),
        Some(error) => error.to_string(),
        None => "the host has no address".to_string(),
    })
}

/// `host:port`'s addresses, looked up within what is left of the deadline: a name server
/// that does not answer holds a thread of its own, not the run (the thread ends with the
/// look-up, or with the process).
fn resolve(host: &str, port: u16, run: &Run) -> Result<Vec<SocketAddr>, String> {
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Ok(vec![SocketAddr::new(ip, port)]);
    }
    let left = run.left().ok_or_else(|| run.too_late())?;
    let (sender, receiver) = std::sync::mpsc::channel();
    let name = host.to_string();
    std::thread::Builder::new()
        .name("kafkalint-resolve".to_string())
        .spawn(move || {
            let _ = sender.send(
                (name.as_str(), port)
                    .to_socket_addrs()
                    .map(Iterator::collect::<Vec<_>>),
            );
        })
        .map_err(|error| format!("cannot resolve the host ({error})"))?;
    match receiver.recv_timeout(left) {
        Ok(Ok(addresses)) => Ok(addresses),
        Ok(Err(error)) => Err(format!("cannot resolve the host ({error})")),
        Err(_) => Err(run.too_late()),
    }
}
