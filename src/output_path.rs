//! Writing what kafkalint makes to a path the user names (`--output-file`, `--plan-file`,
//! `--save-snapshot`): a regular file is replaced whole, atomically; anything else at the path
//! is written through, or refused, and never renamed over.
//!
//! A rename over the path replaces whatever the name stood for: a named pipe a CI step reads,
//! a character device, or `/dev/stdout` (as root in a container: the container's own stdout,
//! gone for every later step). What `>` does in a shell, and what ruff's `--output-file` does
//! (`File::create`, astral-sh/ruff crates/ruff/src/lib.rs), is to open the path and write into
//! it: the same is done here for everything that is not a regular file.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path`:
/// - nothing there, or a regular file: through a temporary file beside it, renamed over it, so a
///   reader never sees half of it and a failed run leaves the old file as it was. The file keeps
///   its permissions;
/// - a symbolic link to a regular file: its target is replaced so (the link stays, as a shell's
///   `>` or ruff's `File::create` keep it); a link to nothing is refused, as there is no file
///   to replace and creating one where a link points is no replacing;
/// - the file kafkalint's own stdout or stderr is (`/dev/stdout`, `/dev/fd/2`): that stream;
/// - a named pipe, a character or block device: opened and written through, never renamed
///   over. A pipe that nothing reads is refused at once (it is opened without waiting);
/// - a folder or a socket: refused (a socket cannot be opened as a file).
///
/// Each refusal is an error whose message says what is at the path.
pub fn write_output(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_output_with(path, |out| out.write_all(bytes))
}

/// Writes what `write` writes to `path`, as [`write_output`] does, without holding it whole:
/// a regular file's temporary file is written as `write` goes, and renamed over `path` only
/// once `write` has succeeded (else removed).
pub fn write_output_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            if path.symlink_metadata().is_ok() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "a symbolic link to nothing: name the file to write, not the link",
                ));
            }
            return replace_regular(path, write, None);
        }
        Err(error) => return Err(error),
    };
    if let Some(stream) = standard_stream(&metadata) {
        return stream.write_to(write);
    }
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return replace_regular(&link_target(path)?, write, Some(metadata.permissions()));
    }
    if file_type.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "a folder: name a file in it",
        ));
    }
    if is_socket(file_type) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "a socket: kafkalint writes to files, named pipes and devices",
        ));
    }
    write_through(path, file_type, write)
}

/// Where a link at `path` leads, every link resolved; `path` itself when it is no link. Only
/// the last name matters: a rename through a linked folder lands in the folder it leads to.
fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    if path.symlink_metadata()?.file_type().is_symlink() {
        std::fs::canonicalize(path)
    } else {
        Ok(path.to_path_buf())
    }
}

/// Writes into a temporary file beside `path` and renames it over `path`.
fn replace_regular(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
    let temporary = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        write(&mut file)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Opens what is at `path` (a pipe or a device) for writing, and writes into it.
fn write_through(
    path: &Path,
    file_type: std::fs::FileType,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    // Without waiting: opening a pipe for writing waits for a reader, which may never come
    // (open(2): O_NONBLOCK on a FIFO with no reader fails with ENXIO). A terminal is not made
    // the controlling one.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOCTTY,
    );
    let mut file = options.open(path).map_err(|error| {
        if is_fifo(file_type) && is_no_reader(&error) {
            std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "a named pipe that nothing reads: start its reader first, or name a file",
            )
        } else {
            error
        }
    })?;
    let opened = file.metadata()?.file_type();
    if opened.is_file() || opened.is_dir() {
        // Swapped for a file or a folder between the look and the open: writing into it now
        // would neither replace it whole nor leave it as it was.
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "changed while being opened: run again",
        ));
    }
    #[cfg(unix)]
    blocking(&file)?;
    write(&mut file)?;
    file.flush()
}

/// Clears `O_NONBLOCK` on an opened file: once a reader is there, writes wait for it to take
/// the bytes (as a shell's `>` into a pipe does) rather than fail when the pipe is full.
#[cfg(unix)]
fn blocking(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function borrows open; F_GETFL and F_SETFL read and
    // set its status flags only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

fn is_no_reader(error: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        error.raw_os_error() == Some(libc::ENXIO)
    }
    #[cfg(not(unix))]
    {
        let _ = error;
        false
    }
}

fn is_fifo(file_type: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileTypeExt::is_fifo(&file_type)
    }
    #[cfg(not(unix))]
    {
        let _ = file_type;
        false
    }
}

fn is_socket(file_type: std::fs::FileType) -> bool {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileTypeExt::is_socket(&file_type)
    }
    #[cfg(not(unix))]
    {
        let _ = file_type;
        false
    }
}

/// kafkalint's own standard output or error.
#[derive(Clone, Copy)]
enum StandardStream {
    Out,
    Err,
}

impl StandardStream {
    fn write_to(
        self,
        write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        match self {
            StandardStream::Out => {
                let mut out = std::io::stdout().lock();
                write(&mut out)?;
                out.flush()
            }
            StandardStream::Err => {
                let mut err = std::io::stderr().lock();
                write(&mut err)?;
                err.flush()
            }
        }
    }
}

/// Which of kafkalint's own stdout or stderr the file of `metadata` is, if either. Opening
/// `/dev/stdout` anew would start at its first byte (a file opened by `>>` would be written
/// over) and replacing the file it names would leave the shell's redirection writing to a file
/// with no name: the stream itself is written instead.
fn standard_stream(metadata: &std::fs::Metadata) -> Option<StandardStream> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let same = |fd: libc::c_int| {
            // SAFETY: fstat fills a zeroed stat for a descriptor number; an unused one fails.
            let mut stat: libc::stat = unsafe { std::mem::zeroed() };
            let found = unsafe { libc::fstat(fd, &mut stat) } == 0;
            found && stat.st_dev as u64 == metadata.dev() && stat.st_ino as u64 == metadata.ino()
        };
        if same(libc::STDOUT_FILENO) {
            return Some(StandardStream::Out);
        }
        if same(libc::STDERR_FILENO) {
            return Some(StandardStream::Err);
        }
    }
    let _ = metadata;
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_replaced_and_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old, longer than the new text\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_output(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        // Nothing left beside it.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
