//! Bad input of every kind the command line can meet: each gets a clear message naming the
//! file, exit 2 where it is an error, never a panic, and nothing is written (`--fix`
//! included).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const FORMATS: &[&str] = &["full", "concise", "json", "github", "sarif"];

/// A broker that draws findings, one of them fixable (an exact repeat of a line), so that a
/// `--fix` that should write nothing would have something to write.
const BROKER: &str = "broker.id=0\nzookeeper.connect=zk:2181\nlog.dirs=/var/lib/kafka\n\
                      num.partitions=3\nnum.partitions=3\n";

fn kafkalint_with(args: &[&str], dir: &Path, stdin: Stdio, stdout: Stdio) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .expect("runs")
}

fn kafkalint(args: &[&str], dir: &Path) -> Output {
    kafkalint_with(args, dir, Stdio::null(), Stdio::piped())
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("output is UTF-8")
}

/// What every run must keep, whatever it was fed: no panic, UTF-8 out, no control character
/// or bidirectional override sent raw (color is off: stdout is no terminal).
fn assert_sane(output: &Output, args: &[&str]) {
    let stderr = text(&output.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert_ne!(output.status.code(), Some(101), "{args:?}: {stderr}");
    for (stream, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
        let shown = text(bytes);
        let raw = shown.chars().find(|c| {
            (c.is_control() && *c != '\n' && *c != '\t')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        });
        assert_eq!(raw, None, "{args:?}: raw character on {stream}:\n{shown}");
    }
}

/// Exit 2, one error line on stderr naming `expected`, nothing on stdout.
fn assert_error(output: &Output, args: &[&str], expected: &str) {
    assert_sane(output, args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("kafkalint: error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{args:?}: {stderr}");
    assert!(errors[0].contains(expected), "{args:?}: {stderr}");
    assert!(
        output.stdout.is_empty(),
        "{args:?}: {}",
        text(&output.stdout)
    );
}

/// Every entry under `dir` (symbolic links not followed): its bytes, a link's target, or
/// nothing for a folder or a file that cannot be read.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut entries = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let Ok(entry) = entry else { continue };
        let path = entry.path().to_path_buf();
        let content = if entry.path_is_symlink() {
            std::fs::read_link(&path)
                .map(|target| target.into_os_string().into_encoded_bytes())
                .unwrap_or_default()
        } else if entry.file_type().is_file() {
            let length = entry.metadata().map(|m| m.len()).unwrap_or(0);
            if length > 1 << 20 {
                // A large (sparse) file: its length stands for its bytes.
                length.to_string().into_bytes()
            } else {
                std::fs::read(&path).unwrap_or_default()
            }
        } else {
            Vec::new()
        };
        entries.insert(path, content);
    }
    entries
}

/// Runs `args` plain, with `--fix` and with `--diff`: each is the error `expected`, and no
/// file under `dir` changes.
fn assert_refused_everywhere(dir: &Path, args: &[&str], expected: &str) {
    let before = snapshot(dir);
    for extra in [&[][..], &["--fix"], &["--diff"]] {
        let args = [args, extra].concat();
        assert_error(&kafkalint(&args, dir), &args, expected);
        assert_eq!(snapshot(dir), before, "{args:?} wrote");
    }
}

/// A folder with two good brokers, ids 0 and 1.
fn two_brokers() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    cluster_with(
        dir.path(),
        "server-1.properties",
        BROKER.replace("=0", "=1").as_bytes(),
    );
    dir
}

fn cluster_with(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join("server-0.properties"), BROKER).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
}

#[test]
fn binary_files_and_nul_bytes_are_refused_by_name_and_skipped_in_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let binary: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    cluster_with(dir.path(), "server-1.properties", &binary);
    // A broker file but for one NUL byte in a value.
    let nul =
        format!("{BROKER}log.retention.hours=16\x008\n").replace("broker.id=0", "broker.id=2");
    std::fs::write(dir.path().join("server-2.properties"), nul).unwrap();
    for name in ["server-1.properties", "server-2.properties"] {
        assert_refused_everywhere(
            dir.path(),
            &["check", name],
            &format!("{name}: binary data: not a properties file"),
        );
    }
    // In a folder they are passed over with a note; the good file is checked.
    let before = snapshot(dir.path());
    let args = ["check", "--diff", "."];
    let output = kafkalint(&args, dir.path());
    assert_sane(&output, &args);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("skipped server-1.properties: binary data"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skipped server-2.properties: binary data"),
        "{stderr}"
    );
    assert!(text(&output.stdout).contains("server-0.properties"));
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn latin1_and_invalid_utf8_are_read_as_kafka_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    // Bytes that are no UTF-8: Kafka reads each as one ISO-8859-1 character.
    let bytes = b"broker.id=0\nzookeeper.connect=zk:2181\nlog.dirs=/tmp/caf\xe9-\xff\xfe\x80\x9b\n\
                  caf\xe9.\x80\x9b=1\n"
        .to_vec();
    std::fs::write(dir.path().join("server.properties"), &bytes).unwrap();
    for format in FORMATS {
        let args = ["check", "--format", format, "server.properties"];
        let output = kafkalint(&args, dir.path());
        assert_sane(&output, &args);
        assert_eq!(output.status.code(), Some(1), "{format}");
        let stdout = text(&output.stdout);
        // é as the character Kafka reads; C1 controls escaped, never raw.
        assert!(stdout.contains("caf\u{e9}"), "{format}: {stdout}");
        assert!(stdout.contains("\\u{9b}"), "{format}: {stdout}");
    }
    assert_eq!(
        std::fs::read(dir.path().join("server.properties")).unwrap(),
        bytes
    );
}

/// A file far over the size limit (1 GiB, sparse: no disk, no memory) is refused unread, by
/// name, in a folder and on standard input.
#[test]
fn a_file_over_the_size_limit_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    cluster_with(dir.path(), "server-1.properties", b"");
    let huge = std::fs::File::create(dir.path().join("server-1.properties")).unwrap();
    huge.set_len(1 << 30).unwrap();
    let expected = "server-1.properties: 1024 MiB, more than the 16 MiB kafkalint reads: not a Kafka configuration file";
    assert_refused_everywhere(dir.path(), &["check", "server-1.properties"], expected);
    assert_refused_everywhere(dir.path(), &["check", "."], expected);
    let args = ["check", "--stdin-filename", "server-1.properties", "-"];
    let stdin = std::fs::File::open(dir.path().join("server-1.properties")).unwrap();
    let output = kafkalint_with(&args, dir.path(), Stdio::from(stdin), Stdio::piped());
    assert_error(
        &output,
        &args,
        "server-1.properties: cannot read standard input: more than the 16 MiB kafkalint reads: not a Kafka configuration file",
    );
}

#[test]
fn a_million_lines_and_a_100_kb_line_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let mut many = String::from(BROKER);
    for i in 0..1_000_000 {
        many.push_str(&format!("# {i}\n"));
    }
    std::fs::write(
        dir.path().join("server-1.properties"),
        many.replace("broker.id=0", "broker.id=1"),
    )
    .unwrap();
    let long_value = format!("{BROKER}log.dirs=/{}\n", "d".repeat(100_000))
        .replace("broker.id=0", "broker.id=2");
    std::fs::write(dir.path().join("server-2.properties"), long_value).unwrap();
    let long_key =
        format!("{BROKER}{}=1\n", "k".repeat(100_000)).replace("broker.id=0", "broker.id=3");
    std::fs::write(dir.path().join("server-3.properties"), long_key).unwrap();
    let long_comment =
        format!("{BROKER}#{}\n", "c".repeat(100_000)).replace("broker.id=0", "broker.id=4");
    std::fs::write(dir.path().join("server-4.properties"), long_comment).unwrap();
    for name in [
        "server-1.properties",
        "server-2.properties",
        "server-3.properties",
        "server-4.properties",
    ] {
        let args = ["check", "--format", "concise", name];
        let output = kafkalint(&args, dir.path());
        assert_sane(&output, &args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{name}: {}",
            text(&output.stderr)
        );
        assert!(text(&output.stdout).contains("duplicate-key"), "{name}");
    }
}

/// A file that cannot be read. As root permissions do not bite, so a link to a file whose
/// reading fails (`/proc/self/mem` at offset 0) stands in too: named, as a walk passes over a
/// link that leads out of its folder.
#[test]
fn an_unreadable_file_is_an_error_naming_it() {
    let dir = two_brokers();
    let locked = dir.path().join("server-1.properties");
    std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000)).unwrap();
    if std::fs::File::open(&locked).is_ok() {
        eprintln!("skipped chmod 000: permissions do not stop this user (root)");
    } else {
        let expected = "server-1.properties: permission denied";
        assert_refused_everywhere(dir.path(), &["check", "server-1.properties"], expected);
        assert_refused_everywhere(dir.path(), &["check", "."], expected);
    }
    std::fs::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    if Path::new("/proc/self/mem").exists() {
        std::fs::remove_file(&locked).unwrap();
        std::os::unix::fs::symlink("/proc/self/mem", &locked).unwrap();
        let expected = "server-1.properties: Input/output error";
        assert_refused_everywhere(dir.path(), &["check", "server-1.properties"], expected);
    }
}

#[test]
fn a_folder_named_server_properties_is_a_folder() {
    let dir = two_brokers();
    std::fs::create_dir(dir.path().join("server.properties")).unwrap();
    // Walked past as the folder it is: the other two brokers are one cluster.
    let args = ["check", "--format", "concise", "."];
    let output = kafkalint(&args, dir.path());
    assert_sane(&output, &args);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("(2 files in 1 cluster"),
        "{}",
        text(&output.stderr)
    );
    // Named, it holds no node file: said so, exit 2.
    assert_refused_everywhere(
        dir.path(),
        &["check", "server.properties"],
        "server.properties: a folder with no broker or controller files in it or below",
    );
    // As the buffer's path, or the output file.
    let args = ["check", "--stdin-filename", "server.properties", "-"];
    let stdin = std::fs::File::open(dir.path().join("server-0.properties")).unwrap();
    let output = kafkalint_with(&args, dir.path(), Stdio::from(stdin), Stdio::piped());
    assert_error(&output, &args, "server.properties: is a directory");
    let before = snapshot(dir.path());
    let args = ["check", "--output-file", "server.properties", "."];
    assert_error(&kafkalint(&args, dir.path()), &args, "server.properties: ");
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn symbolic_link_loops_and_named_dangling_links_are_errors_naming_them() {
    let dir = two_brokers();
    let looped = dir.path().join("looped");
    std::fs::create_dir(&looped).unwrap();
    std::fs::write(looped.join("server-0.properties"), BROKER).unwrap();
    std::os::unix::fs::symlink("server-2.properties", looped.join("server-1.properties")).unwrap();
    std::os::unix::fs::symlink("server-1.properties", looped.join("server-2.properties")).unwrap();
    let expected = "looped/server-1.properties: Too many levels of symbolic links";
    assert_refused_everywhere(
        dir.path(),
        &["check", "looped/server-1.properties"],
        expected,
    );
    assert_refused_everywhere(dir.path(), &["check", "looped"], expected);
    // A folder linking back to its parent.
    let cycle = dir.path().join("cycle");
    std::fs::create_dir(&cycle).unwrap();
    std::fs::write(cycle.join("server-0.properties"), BROKER).unwrap();
    std::os::unix::fs::symlink("..", cycle.join("up")).unwrap();
    assert_refused_everywhere(
        dir.path(),
        &["check", "cycle"],
        "cycle/up: symbolic link loop back to /",
    );
    let dangling = dir.path().join("dangling");
    std::fs::create_dir(&dangling).unwrap();
    std::fs::write(dangling.join("server-0.properties"), BROKER).unwrap();
    std::os::unix::fs::symlink("gone.properties", dangling.join("server-1.properties")).unwrap();
    let expected = "dangling/server-1.properties: no such file or directory";
    assert_refused_everywhere(
        dir.path(),
        &["check", "dangling/server-1.properties"],
        expected,
    );
    // Met in a walk, a dangling link is passed over with a note (see
    // `a_dangling_link_in_a_walked_tree_is_passed_with_a_note`).
}

#[test]
fn standard_input_closed_or_empty_is_an_empty_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["check", "--stdin-filename", "x.properties", "-"];
    let output = kafkalint_with(&args, dir.path(), Stdio::null(), Stdio::piped());
    assert_error(&output, &args, "x.properties: empty file");
    // Closed, not merely empty: the shell closes descriptor 0 before kafkalint starts.
    let output = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" check --stdin-filename x.properties - <&-")
        .arg(env!("CARGO_BIN_EXE_kafkalint"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).starts_with("kafkalint: error: x.properties: "));
    assert!(!text(&output.stderr).contains("panicked"));
}

/// `kafkalint check | head -0`: stdout is a pipe nobody reads. No panic, in any format, nor
/// when stderr is closed too.
#[test]
fn a_closed_pipe_is_no_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seed = "fixtures/seed-zk-3-brokers";
    let mut runs: Vec<Vec<&str>> = FORMATS
        .iter()
        .map(|format| vec!["check", "--format", format, seed])
        .collect();
    runs.push(vec!["check", "--diff", seed]);
    runs.push(vec!["rules"]);
    runs.push(vec!["rule", "duplicate-key"]);
    runs.push(vec!["coordinator", "testGroup", seed]);
    for args in &runs {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = kafkalint_with(args, root, Stdio::null(), Stdio::from(writer));
        assert_sane(&output, args);
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            text(&output.stderr)
        );
        // And stderr closed as well: nothing to tell, nothing to panic about.
        let (out_reader, out_writer) = std::io::pipe().unwrap();
        let (err_reader, err_writer) = std::io::pipe().unwrap();
        drop((out_reader, err_reader));
        let status = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .args(args)
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(out_writer)
            .stderr(err_writer)
            .status()
            .unwrap();
        assert!(matches!(status.code(), Some(0 | 1)), "{args:?}: {status}");
    }
}

#[test]
fn output_file_in_a_missing_folder_is_an_error_and_writes_nothing() {
    let dir = two_brokers();
    let before = snapshot(dir.path());
    for format in FORMATS {
        let args = [
            "check",
            "--format",
            format,
            "--output-file",
            "missing/out.txt",
            ".",
        ];
        assert_error(&kafkalint(&args, dir.path()), &args, "missing/out.txt: ");
        assert_eq!(snapshot(dir.path()), before, "{format}");
    }
    let args = ["check", "--diff", "--output-file", "missing/out.diff", "."];
    assert_error(&kafkalint(&args, dir.path()), &args, "missing/out.diff: ");
    assert_eq!(snapshot(dir.path()), before);
}

/// ESC, BEL, CR (written `\r`), C1 CSI (byte 0x9b), the right-to-left override (written
/// `\u202E`, and as UTF-8 bytes, which Kafka reads as Latin-1) in keys and values: shown
/// escaped in every format, the diff and stderr; never raw.
#[test]
fn terminal_control_characters_are_escaped_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let nasty: &[u8] = b"a\x1b[2Jb\x07c\\rd\x9be\\u202Ef\xe2\x80\xaeg";
    let file = |id: usize, value: &[u8]| {
        [
            format!("broker.id={id}\nzookeeper.connect=zk:2181/").as_bytes(),
            value,
            b"\nlog.dirs=/var/lib/kafka\nbroker.rack=",
            nasty,
            // An unknown key is hidden whole in snippets and diffs when it reads as no name:
            // its escapes show in the messages that name it.
            b"\nx.",
            nasty,
            b"=1\nnum.partitions=3\nnum.partitions=3\n",
        ]
        .concat()
    };
    std::fs::write(dir.path().join("server-0.properties"), file(0, nasty)).unwrap();
    std::fs::write(dir.path().join("server-1.properties"), file(1, b"plain")).unwrap();
    let before = snapshot(dir.path());
    // Concise with its help, where the values that differ between nodes are shown.
    let mut runs: Vec<Vec<&str>> = FORMATS
        .iter()
        .map(|format| vec!["check", "--format", format, "--show-help", "."])
        .collect();
    runs.push(vec!["check", "--diff", "."]);
    for args in &runs {
        let output = kafkalint(args, dir.path());
        assert_sane(&output, args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stdout = text(&output.stdout);
        // `--diff` shows no escaped line as context (it would not apply): none to look for.
        for escaped in ["\\u{1b}[2J", "\\u{7}", "\\u{9b}"] {
            assert!(
                stdout.contains(escaped) || args.contains(&"--diff"),
                "{args:?}: {escaped} in\n{stdout}"
            );
        }
        if !args.contains(&"--diff") {
            // Decoded escapes, as Kafka reads them: in messages (the diff shows the file).
            assert!(
                stdout.contains("\\u{d}") && stdout.contains("\\u{202e}"),
                "{args:?}: {stdout}"
            );
        }
    }
    assert_eq!(snapshot(dir.path()), before);
    // A path with a control character, in an error on stderr.
    let args = ["check", "gone\x1b[31m.properties"];
    assert_error(
        &kafkalint(&args, dir.path()),
        &args,
        "gone\\u{1b}[31m.properties",
    );
    // Written with --fix: the fixed file is the only change.
    let args = ["check", "--fix", "--format", "concise", "."];
    let output = kafkalint(&args, dir.path());
    assert_sane(&output, &args);
    let fixed = std::fs::read(dir.path().join("server-0.properties")).unwrap();
    let expected = file(0, nasty);
    // The repeat of `num.partitions=3` removed, nothing else.
    assert_eq!(
        fixed,
        expected[..expected.len() - "num.partitions=3\n".len()]
    );
}

// ---------------------------------------------------------------------------------------------
// Files that are no regular files, links out of the tree, and `--fix` failing part-way.
// ---------------------------------------------------------------------------------------------

/// As [`kafkalint_with`], killed and failed after 20 s: a run that waits on a pipe must fail
/// the test, not hang it.
fn guarded(args: &[&str], dir: &Path, stdin: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // Drained as it runs, so that a full pipe cannot stall it either.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} hangs: killed after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// As [`assert_refused_everywhere`], each run under the hang guard.
fn assert_refused_guarded(dir: &Path, args: &[&str], expected: &str) {
    let before = snapshot(dir);
    for extra in [&[][..], &["--fix"], &["--diff"]] {
        let args = [args, extra].concat();
        assert_error(&guarded(&args, dir, Stdio::null()), &args, expected);
        assert_eq!(snapshot(dir), before, "{args:?} wrote");
    }
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// A named pipe never written to, a socket and devices, under the names kafkalint reads: named
/// on the command line each is one error naming it (exit 2, nothing written); met in a folder
/// walk each is passed over with a note. None may wait for a writer.
#[test]
fn pipes_sockets_and_devices_are_refused_not_waited_on() {
    let dir = two_brokers();
    let at = |name: &str| dir.path().join(name);
    mkfifo(&at("server-2.properties"));
    mkfifo(&at("docker-compose.yml"));
    mkfifo(&at("fifo.toml"));
    let _socket = std::os::unix::net::UnixListener::bind(at("server-3.properties")).unwrap();
    std::os::unix::fs::symlink("/dev/null", at("server-4.properties")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", at("server-5.properties")).unwrap();
    let pipe = "a named pipe (FIFO), not a regular file";
    for (args, expected) in [
        (
            vec!["check", "server-2.properties"],
            format!("server-2.properties: {pipe}"),
        ),
        (
            vec!["check", "docker-compose.yml"],
            format!("docker-compose.yml: {pipe}"),
        ),
        (
            vec!["check", "--config", "fifo.toml", "server-0.properties"],
            format!("fifo.toml:1:1: {pipe}"),
        ),
        (
            vec!["check", "--with-cluster", "server-2.properties"],
            format!("server-2.properties: {pipe}"),
        ),
        (
            vec!["check", "server-3.properties"],
            "server-3.properties: a socket, not a regular file".into(),
        ),
        (
            vec!["check", "server-4.properties"],
            "server-4.properties: a character device, not a regular file".into(),
        ),
        (
            vec!["check", "server-5.properties"],
            "server-5.properties: a character device, not a regular file".into(),
        ),
    ] {
        assert_refused_guarded(dir.path(), &args, &expected);
    }
    let args = ["coordinator", "g", "server-2.properties"];
    let output = guarded(&args, dir.path(), Stdio::null());
    assert_error(&output, &args, &format!("server-2.properties: {pipe}"));
    // In a walk: each noted, the two brokers checked, no hang.
    let before = snapshot(dir.path());
    for args in [
        vec!["check", "--format", "concise", "."],
        vec!["check", "--diff", "."],
    ] {
        let output = guarded(&args, dir.path(), Stdio::null());
        assert_sane(&output, &args);
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        let stderr = text(&output.stderr);
        for note in [
            format!("skipped docker-compose.yml: {pipe}"),
            format!("skipped server-2.properties: {pipe}"),
            "skipped server-3.properties: a socket, not a regular file".into(),
        ] {
            assert!(stderr.contains(&note), "{args:?}: {note} in\n{stderr}");
        }
        assert!(!stderr.contains("kafkalint: error"), "{stderr}");
        assert_eq!(snapshot(dir.path()), before);
    }
    // Standard input in place of a pipe's path: the buffer is read, its folder walked.
    let args = ["check", "--stdin-filename", "server-2.properties", "-"];
    let stdin = std::fs::File::open(at("server-1.properties")).unwrap();
    let output = guarded(&args, dir.path(), Stdio::from(stdin));
    assert_sane(&output, &args);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
}

/// A `kafkalint.toml` that is a pipe is refused where it is found, not waited on nor passed
/// over for one further up.
#[test]
fn a_config_file_that_is_a_pipe_is_refused() {
    let dir = two_brokers();
    mkfifo(&dir.path().join("kafkalint.toml"));
    assert_refused_guarded(
        dir.path(),
        &["check", "."],
        "kafkalint.toml:1:1: a named pipe (FIFO), not a regular file",
    );
}

/// A node-named link in the tree to a credentials file outside it, and a folder link out of
/// it: a walk passes over both with a note, so their contents (the canary) never appear in
/// any format, the diff or `--fix`'s output, and the files outside are never written.
/// Named, a link is followed.
#[test]
fn links_out_of_the_tree_are_not_followed_in_a_walk() {
    const CANARY: &str = "CANARY7f3a9c";
    let root = tempfile::tempdir().unwrap();
    let tree = root.path().join("tree");
    let outside = root.path().join("outside");
    std::fs::create_dir_all(outside.join("more")).unwrap();
    std::fs::create_dir(&tree).unwrap();
    cluster_with(
        &tree,
        "server-1.properties",
        BROKER.replace("=0", "=1").as_bytes(),
    );
    // Broker-shaped, with fixable findings, the canary in every place a snippet could show.
    let credentials = format!(
        "# {CANARY} first line\nbroker.id=9\nzookeeper.connect=zk-{CANARY}:2181\n\
         log.dirs=/var/{CANARY}\naws_secret_access_key={CANARY}\n{CANARY}.token=x\n\
         num.partitions=3\nnum.partitions=3\noffsets.topic.replication.factor=1\n"
    );
    std::fs::write(outside.join("credentials"), &credentials).unwrap();
    std::fs::write(outside.join("more/server-5.properties"), &credentials).unwrap();
    std::fs::write(outside.join("docker-compose.yml"), format!("# {CANARY}\n")).unwrap();
    let link = |target: &str, name: &str| {
        std::os::unix::fs::symlink(target, tree.join(name)).unwrap();
    };
    link("../outside/credentials", "server-9.properties");
    link("../outside/more", "more");
    link("../outside/docker-compose.yml", "docker-compose.yml");
    std::fs::write(
        tree.join("kafkalint.toml"),
        "[[clusters]]\nname = \"all\"\nfiles = [\"**/*.properties\"]\n",
    )
    .unwrap();
    let outside_before = snapshot(&outside);
    let mut runs: Vec<Vec<&str>> = FORMATS
        .iter()
        .map(|format| vec!["check", "--format", format, "tree"])
        .collect();
    runs.push(vec!["check", "--diff", "tree"]);
    runs.push(vec!["check", "--with-cluster", "tree/server-0.properties"]);
    runs.push(vec!["coordinator", "g", "tree"]);
    runs.push(vec!["check", "--fix", "tree"]);
    for args in &runs {
        let output = guarded(args, root.path(), Stdio::null());
        assert_sane(&output, args);
        assert!(
            matches!(output.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            text(&output.stderr)
        );
        let shown = text(&[output.stdout.clone(), output.stderr.clone()].concat());
        assert!(
            !shown.contains(CANARY),
            "{args:?} shows the canary:\n{shown}"
        );
        if args[0] == "check" && !args.contains(&"--with-cluster") {
            for name in ["server-9.properties", "more", "docker-compose.yml"] {
                let note = format!(
                    "kafkalint: skipped tree/{name}: a symbolic link that leads out of the folder walked: not followed (name it to check it)\n"
                );
                assert!(shown.contains(&note), "{args:?}: {note} in\n{shown}");
            }
        }
        assert_eq!(snapshot(&outside), outside_before, "{args:?} wrote outside");
    }
    // From standard input: the buffer's folder is walked the same way.
    let args = ["check", "--stdin-filename", "tree/server-0.properties", "-"];
    let stdin = std::fs::File::open(tree.join("server-1.properties")).unwrap();
    let output = guarded(&args, root.path(), Stdio::from(stdin));
    assert_sane(&output, &args);
    assert!(!text(&output.stdout).contains(CANARY));
    assert!(!text(&output.stderr).contains(CANARY));
    // Named on the command line, the link is followed: its findings are the file's.
    let args = ["check", "--format", "json", "tree/server-9.properties"];
    let output = guarded(&args, root.path(), Stdio::null());
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("tree/server-9.properties"));
}

/// Makes `path` immutable (`chattr +i`, which stops root too) until dropped; `None`, with why,
/// where the file system or the user cannot.
struct Immutable(PathBuf);

impl Immutable {
    fn set(path: &Path) -> Result<Immutable, String> {
        let output = Command::new("chattr")
            .arg("+i")
            .arg(path)
            .output()
            .map_err(|error| format!("chattr cannot run: {error}"))?;
        if !output.status.success() {
            return Err(format!(
                "chattr +i fails here: {}",
                text(&output.stderr).trim()
            ));
        }
        Ok(Immutable(path.to_path_buf()))
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

/// `--fix` of three files whose last cannot be replaced (immutable: no user, root included,
/// may rename over it) fails after the first two are renamed: they get their originals back
/// (the very files: same inode, same bytes), nothing is left beside them, and the message
/// that says "nothing written" is true.
#[test]
fn a_fix_failing_part_way_puts_back_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    for id in 0..3 {
        let bytes = BROKER.replace("=0", &format!("={id}"));
        std::fs::write(dir.path().join(format!("server-{id}.properties")), bytes).unwrap();
    }
    let last = dir.path().join("server-2.properties");
    let _immutable = match Immutable::set(&last) {
        Ok(immutable) => immutable,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let inode = |name: &str| {
        std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(dir.path().join(name)).unwrap())
    };
    let inodes = [inode("server-0.properties"), inode("server-1.properties")];
    let before = snapshot(dir.path());
    // Without the failure the three files would be fixed: the fix is there to make.
    let args = ["check", "--diff", "."];
    let output = guarded(&args, dir.path(), Stdio::null());
    assert!(text(&output.stderr).contains("Would fix 3 findings in 3 files."));
    let args = ["check", "--fix", "."];
    let output = guarded(&args, dir.path(), Stdio::null());
    assert_sane(&output, &args);
    assert_eq!(
        text(&output.stderr),
        "kafkalint: error: server-2.properties: cannot write the fixed file: permission denied; nothing written\n"
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(snapshot(dir.path()), before);
    assert_eq!(
        [inode("server-0.properties"), inode("server-1.properties")],
        inodes
    );
}

// ---------------------------------------------------------------------------------------------
// Hostile YAML and inputs that grow the work: each ends within the hang guard, with one line
// naming the file or with findings whose count grows linearly with the input.
// ---------------------------------------------------------------------------------------------

/// A run killed when it outlives `HANG_GUARD` (a hang or a quadratic blow-up, not a timing).
const HANG_GUARD: std::time::Duration = std::time::Duration::from_secs(120);

fn kafkalint_guarded(args: &[&str], dir: &Path) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let id = child.id();
    let waiting = std::thread::spawn(move || child.wait_with_output().expect("waits"));
    let started = std::time::Instant::now();
    while !waiting.is_finished() {
        if started.elapsed() > HANG_GUARD {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!("{args:?} still running after {HANG_GUARD:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    waiting.join().expect("joins")
}

const KAFKA_SERVICE: &str = "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_NODE_ID: 1\n";

/// Nine anchors, each a list of ten aliases of the one before: 10^9 scalars once expanded.
fn alias_bomb() -> String {
    let mut text = format!("{KAFKA_SERVICE}a0: &a0 [{}]\n", ["lol"; 10].join(", "));
    for level in 1..9 {
        let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
        text.push_str(&format!("a{level}: &a{level} [{aliases}]\n"));
    }
    text
}

/// The same growth through merge keys: each mapping merges the one before and holds it under
/// nine keys of its own.
fn merge_bomb() -> String {
    let keys: Vec<String> = (0..10).map(|i| format!("k{i}: lol")).collect();
    let mut text = format!("{KAFKA_SERVICE}m0: &m0 {{{}}}\n", keys.join(", "));
    for level in 1..9 {
        let own: Vec<String> = (1..10).map(|i| format!("k{i}: *m{}", level - 1)).collect();
        text.push_str(&format!(
            "m{level}: &m{level} {{<<: *m{}, {}}}\n",
            level - 1,
            own.join(", ")
        ));
    }
    text
}

#[test]
fn alias_bombs_are_refused_by_name_and_passed_over_with_a_note_in_a_walk() {
    for (name, bomb) in [("alias.yml", alias_bomb()), ("merge.yml", merge_bomb())] {
        assert!(bomb.len() < 1000, "{name}: {} bytes", bomb.len());
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), &bomb).unwrap();
        let args = ["check", name];
        let output = kafkalint_guarded(&args, dir.path());
        assert_error(
            &output,
            &args,
            &format!("{name}: YAML aliases expand to more than"),
        );
        // In a walk, beside a broker: the broker is checked, the bomb noted by name.
        let walked = tempfile::tempdir().unwrap();
        std::fs::write(walked.path().join("docker-compose.yml"), &bomb).unwrap();
        std::fs::write(walked.path().join("server.properties"), BROKER).unwrap();
        let args = ["check", "--format", "concise", "."];
        let output = kafkalint_guarded(&args, walked.path());
        assert_sane(&output, &args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("docker-compose.yml: YAML aliases expand to more than"),
            "{stderr}"
        );
        assert!(text(&output.stdout).contains("server.properties"));
    }
}

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 100_000;
    let cases = [
        (
            "block.yml",
            format!("{}x\n", "- ".repeat(depth)),
            "YAML nested deeper than 256 levels",
        ),
        (
            "map.yml",
            format!("{}x\n", "{a: ".repeat(depth)),
            "not valid YAML",
        ),
        (
            "flow.yml",
            format!("x: {}{}\n", "[".repeat(depth), "]".repeat(depth)),
            "not valid YAML",
        ),
    ];
    for (name, yaml, expected) in cases {
        std::fs::write(dir.path().join(name), yaml).unwrap();
        let args = ["check", name];
        assert_error(&kafkalint_guarded(&args, dir.path()), &args, expected);
    }
    // Just under the limit: read whole (and walked recursively) without a crash.
    let yaml = format!("{KAFKA_SERVICE}x:\n  {}1\n", "- ".repeat(250));
    std::fs::write(dir.path().join("docker-compose.yml"), yaml).unwrap();
    let args = ["check", "docker-compose.yml"];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    assert_ne!(output.status.code(), Some(2), "{}", text(&output.stderr));
}

/// Runs `args` plain, with `--fix` and with `--diff`: the plain run reports `expected` (an
/// `invalid-syntax` finding) and exits 1, and no run changes a file under `dir`.
fn assert_invalid_syntax_everywhere(dir: &Path, args: &[&str], expected: &str) {
    let before = snapshot(dir);
    for extra in [&[][..], &["--fix"], &["--diff"]] {
        let args = [args, extra].concat();
        let output = kafkalint(&args, dir);
        assert_sane(&output, &args);
        if extra.is_empty() {
            let stdout = text(&output.stdout);
            assert_eq!(output.status.code(), Some(1), "{args:?}: {stdout}");
            assert!(stdout.contains(expected), "{args:?}: {stdout}");
        }
        assert_eq!(snapshot(dir), before, "{args:?} wrote");
    }
}

#[test]
fn a_repeated_mapping_key_is_refused_with_its_line_and_never_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let service = |id: u32| {
        format!(
            "  kafka-1:\n    image: confluentinc/cp-kafka:7.5.0\n    environment:\n      \
             KAFKA_BROKER_ID: {id}\n      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181\n      \
             KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1\n"
        )
    };
    let compose = format!("services:\n{}{}", service(1), service(2));
    std::fs::write(dir.path().join("docker-compose.yml"), compose).unwrap();
    // docker compose refuses it too: an `invalid-syntax` error at the repeated key.
    assert_invalid_syntax_everywhere(
        dir.path(),
        &["check", "--format", "concise", "docker-compose.yml"],
        "docker-compose.yml:8:3: error[invalid-syntax] YAML mapping repeats the key `kafka-1` (keys of a mapping must be unique)",
    );
    // A repeat deeper in (an environment variable) is refused the same way.
    let compose = format!("services:\n{}", service(1)).replace(
        "      KAFKA_OFFSETS",
        "      KAFKA_BROKER_ID: 3\n      KAFKA_OFFSETS",
    );
    std::fs::write(dir.path().join("docker-compose.yml"), compose).unwrap();
    assert_invalid_syntax_everywhere(
        dir.path(),
        &["check", "--format", "concise", "docker-compose.yml"],
        "repeats the key `KAFKA_BROKER_ID`",
    );
}

/// `services` Kafka services on the host's network (`network_mode: host`: one machine's ports)
/// that keep their data in one directory, with the `listeners` and `advertised.listeners` that
/// `listeners(index)` gives each.
fn compose_services(services: usize, listeners: impl Fn(usize) -> (String, String)) -> String {
    compose_services_with(services, "\n    network_mode: host", listeners)
}

/// `services` Kafka services, each in a container of its own, as [`compose_services`].
fn compose_containers(services: usize, listeners: impl Fn(usize) -> (String, String)) -> String {
    compose_services_with(services, "", listeners)
}

fn compose_services_with(
    services: usize,
    network: &str,
    listeners: impl Fn(usize) -> (String, String),
) -> String {
    let mut text = String::from("services:\n");
    for index in 0..services {
        let (bound, advertised) = listeners(index);
        text.push_str(&format!(
            "  kafka-{index}:\n    image: confluentinc/cp-kafka:7.5.0{network}\n    environment:\n      \
             KAFKA_BROKER_ID: {index}\n      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181\n      \
             KAFKA_LISTENERS: {bound}\n      \
             KAFKA_ADVERTISED_LISTENERS: {advertised}\n      \
             KAFKA_LOG_DIRS: /var/lib/kafka/data\n"
        ));
    }
    text
}

/// The JSON findings of `rule` in a run's output.
fn findings_of(output: &Output, rule: &str) -> Vec<serde_json::Value> {
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|finding| finding["rule"] == rule)
        .cloned()
        .collect()
}

#[test]
fn ten_thousand_brokers_sharing_a_directory_are_one_finding() {
    let dir = tempfile::tempdir().unwrap();
    let brokers = 10_000;
    // One folder of properties files that advertise localhost on ports of their own: one
    // machine, whose brokers all keep their data in one directory.
    for index in 0..brokers {
        let port = 10_000 + index;
        std::fs::write(
            dir.path().join(format!("server-{index}.properties")),
            format!(
                "broker.id={index}\nzookeeper.connect=zookeeper:2181\n\
                 listeners=PLAINTEXT://localhost:{port}\n\
                 log.dirs=/var/lib/kafka/data\n"
            ),
        )
        .unwrap();
    }
    let args = ["check", "--format", "json", "."];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let shared = findings_of(&output, "shared-log-dir");
    // One per directory, not one per pair (49,995,000), with a label on every broker.
    assert_eq!(shared.len(), 1);
    assert_eq!(shared[0]["labels"].as_array().unwrap().len(), brokers);
    assert_linear(&output, brokers);
}

#[test]
fn ten_thousand_containers_advertising_localhost_are_one_finding_each() {
    let services = 10_000;
    // Each container binds 9092 in a network of its own, keeps /var/lib/kafka/data on files of
    // its own, and advertises localhost: no clash and no shared directory, but no broker can
    // replicate from another, said once per broker.
    let compose = compose_containers(services, |index| {
        let advertised = format!("PLAINTEXT://localhost:{}", 10_000 + index);
        ("PLAINTEXT://:9092".to_owned(), advertised)
    });
    let output = json_check_of_compose(&compose);
    assert_eq!(findings_of(&output, "port-clash-on-host").len(), 0);
    assert_eq!(findings_of(&output, "shared-log-dir").len(), 0);
    assert_eq!(findings_of(&output, "localhost-advertised").len(), services);
    // Besides one per broker, a few of the whole cluster: nothing per pair.
    assert_linear(&output, 2 * services);
}

#[test]
fn eighty_thousand_unknown_keys_and_twenty_thousand_clusters_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut broker = String::from(BROKER);
    for n in 0..80_000 {
        broker.push_str(&format!("log.retention.hourz{n}=1\n"));
    }
    std::fs::write(dir.path().join("server.properties"), broker).unwrap();
    let args = ["check", "--format", "json", "server.properties"];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(findings_of(&output, "unknown-key").len() <= 80_000);

    let dir = tempfile::tempdir().unwrap();
    let clusters = 20_000;
    let mut toml = String::new();
    for n in 0..clusters {
        toml.push_str(&format!(
            "[[clusters]]\nname = \"c{n}\"\nfiles = [\"c{n}/*.properties\"]\n\n"
        ));
    }
    std::fs::write(dir.path().join("kafkalint.toml"), toml).unwrap();
    for n in [0, clusters - 1] {
        std::fs::create_dir(dir.path().join(format!("c{n}"))).unwrap();
        std::fs::write(dir.path().join(format!("c{n}/server.properties")), BROKER).unwrap();
    }
    let args = ["check", "--format", "concise", "."];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    let stdout = text(&output.stdout);
    assert!(stdout.contains("c19999/server.properties"), "{stdout}");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
}

/// A walked Strimzi resource that cannot be read (here, a key repeated in `spec.kafka.config`,
/// which Kubernetes' strict field validation refuses too) is an `invalid-syntax` error at the
/// repeated key, never dropped in silence.
#[test]
fn a_walked_strimzi_resource_that_cannot_be_read_is_an_invalid_syntax_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("kafka.yaml"),
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: my\nspec:\n  kafka:\n    replicas: 3\n    config:\n      num.partitions: 3\n      num.partitions: 4\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("server-0.properties"), BROKER).unwrap();
    let args = ["check", "--format", "concise", "."];
    let output = kafkalint(&args, dir.path());
    assert_sane(&output, &args);
    // kubectl refuses the repeated key too: an error at its place, not a note.
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(
            "kafka.yaml:10:7: error[invalid-syntax] YAML mapping repeats the key `num.partitions`"
        ),
        "{stdout}"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn ten_thousand_services_binding_one_port_are_one_finding() {
    let services = 10_000;
    // Each runs on the host's network (one machine) and binds 9092 on every interface: one
    // finding for the port, not one per pair (49,995,000).
    let compose = compose_services(services, |index| {
        let advertised = format!("PLAINTEXT://localhost:{}", 10_000 + index);
        ("PLAINTEXT://:9092".to_owned(), advertised)
    });
    let output = json_check_of_compose(&compose);
    let clashes = findings_of(&output, "port-clash-on-host");
    assert_eq!(clashes.len(), 1);
    assert_eq!(clashes[0]["labels"].as_array().unwrap().len(), services);
    let message = clashes[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("10000 nodes bind port 9092 with network_mode: host: "),
        "{}",
        &message[..message.len().min(200)]
    );
    assert_linear(&output, services);

    // Copies that all advertise localhost:9092 as well: one machine, but one address, which
    // `shared-advertised-address` reports once; the port clash is left to it.
    let one_address = "PLAINTEXT://localhost:9092";
    let compose = compose_services(services, |_| {
        (one_address.to_owned(), one_address.to_owned())
    });
    let output = json_check_of_compose(&compose);
    assert_eq!(findings_of(&output, "port-clash-on-host").len(), 0);
    let shared = findings_of(&output, "shared-advertised-address");
    assert_eq!(shared.len(), 1);
    assert_eq!(shared[0]["labels"].as_array().unwrap().len(), services);
    assert_linear(&output, services);
}

#[test]
fn three_nodes_on_one_port_are_one_finding_that_counts_them() {
    let dir = tempfile::tempdir().unwrap();
    let broker = |id: u32, bound: &str, advertised: &str| {
        format!(
            "broker.id={id}\nzookeeper.connect=zk:2181\nlog.dirs=/var/lib/kafka/data-{id}\n\
             listeners=PLAINTEXT://{bound}\nadvertised.listeners=PLAINTEXT://{advertised}\n"
        )
    };
    let write = |id: u32, bound: &str, advertised: &str| {
        let name = dir.path().join(format!("server-{id}.properties"));
        std::fs::write(name, broker(id, bound, advertised)).unwrap();
    };
    let clashes = || {
        let args = ["check", "--format", "json", "."];
        let output = kafkalint_guarded(&args, dir.path());
        assert_sane(&output, &args);
        findings_of(&output, "port-clash-on-host")
    };
    // Two copies (one advertised address): no port clash, as for a pair.
    write(1, ":9092", "localhost:9092");
    write(2, ":9092", "localhost:9092");
    assert_eq!(clashes().len(), 0);
    // A third node on the machine binds the port too: one finding for the three.
    write(3, ":9092", "localhost:9093");
    let found = clashes();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["labels"].as_array().unwrap().len(), 3);
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("3 nodes bind port 9092 on one machine (same advertised hosts)"),
        "{message}"
    );
    // Three nodes that bind one address of the network, on machines of their own.
    write(1, "kafka-1:9092", "kafka-1:9092");
    write(2, "kafka-1:9092", "kafka-2:9092");
    write(3, "KAFKA-1:9092", "kafka-3:9092");
    let found = clashes();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["labels"].as_array().unwrap().len(), 3);
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("3 nodes bind kafka-1:9092: all but the first to start stop"),
        "{message}"
    );
}

/// A `--format json` run on a compose file, which ends within the hang guard with findings.
fn json_check_of_compose(compose: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("docker-compose.yml"), compose).unwrap();
    let args = ["check", "--format", "json", "docker-compose.yml"];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    output
}

/// No more findings than nodes: nothing reported per pair.
fn assert_linear(output: &Output, services: usize) {
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let total = report["diagnostics"].as_array().unwrap().len();
    assert!(
        total <= services,
        "{total} findings for {services} services"
    );
}

/// A broker whose routable names are all its own (two of them beside a loopback inter-broker
/// listener) has no other broker's host to point at: it is not reported, and nothing panics
/// looking for one. The other broker, reached at localhost only, is (the first one's names put
/// the cluster on several hosts).
#[test]
fn a_broker_whose_routable_names_are_its_own_is_not_shown_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server-1.properties"),
        "broker.id=1\nzookeeper.connect=zk:2181\nlog.dirs=/var/lib/kafka/data-1\n\
         listeners=INTERNAL://:9092,A://:9093,B://:9094\n\
         advertised.listeners=INTERNAL://localhost:9092,A://a.example.com:9093,B://b.example.com:9094\n\
         listener.security.protocol.map=INTERNAL:PLAINTEXT,A:PLAINTEXT,B:PLAINTEXT\n\
         inter.broker.listener.name=INTERNAL\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("server-2.properties"),
        "broker.id=2\nzookeeper.connect=zk:2181\nlog.dirs=/var/lib/kafka/data-2\n\
         listeners=PLAINTEXT://:9095\nadvertised.listeners=PLAINTEXT://localhost:9095\n",
    )
    .unwrap();
    let args = ["check", "--format", "json", "."];
    let output = kafkalint(&args, dir.path());
    assert_sane(&output, &args);
    let found = findings_of(&output, "localhost-advertised");
    assert_eq!(found.len(), 1);
    let message = found[0]["message"].as_str().unwrap();
    assert!(message.starts_with("broker 2 "), "{message}");
}

// Files kafkalint writes (--output-file, --plan-file, --save-snapshot) and what a walk passes.

/// A named pipe no one reads, as `--output-file` or `--plan-file`: one error naming it (exit 2)
/// at once, not a wait for a reader, and the pipe is still a pipe (not renamed over).
#[test]
fn an_output_pipe_with_no_reader_is_refused_at_once_and_kept() {
    use std::os::unix::fs::FileTypeExt;
    let dir = two_brokers();
    mkfifo(&dir.path().join("out.fifo"));
    let refused = "out.fifo: a named pipe that nothing reads";
    for format in FORMATS {
        let args = [
            "check",
            "--format",
            format,
            "--output-file",
            "out.fifo",
            ".",
        ];
        assert_error(&guarded(&args, dir.path(), Stdio::null()), &args, refused);
        let kept = std::fs::symlink_metadata(dir.path().join("out.fifo")).unwrap();
        assert!(kept.file_type().is_fifo(), "{args:?} replaced the pipe");
    }
    let live = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/live-internal-topic-replication/bad-no-files/live.snapshot");
    let args = [
        "live",
        "--snapshot",
        live.to_str().unwrap(),
        "--fix",
        "--plan-file",
        "out.fifo",
    ];
    let output = guarded(&args, dir.path(), Stdio::null());
    assert_sane(&output, &args);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(
        text(&output.stderr).contains(refused),
        "{}",
        text(&output.stderr)
    );
    let kept = std::fs::symlink_metadata(dir.path().join("out.fifo")).unwrap();
    assert!(kept.file_type().is_fifo(), "--plan-file replaced the pipe");
}

/// A named pipe with a reader gets the output written into it, whole, and stays a pipe.
#[test]
fn an_output_pipe_with_a_reader_is_written_through() {
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let dir = two_brokers();
    let fifo = dir.path().join("out.fifo");
    mkfifo(&fifo);
    let expected = kafkalint(&["check", "--format", "json", "."], dir.path());
    // Opened for reading without waiting for a writer: the reader is there before kafkalint
    // opens the pipe, and the output (a few KB) fits the pipe's buffer.
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let args = [
        "check",
        "--format",
        "json",
        "--output-file",
        "out.fifo",
        ".",
    ];
    let output = guarded(&args, dir.path(), Stdio::null());
    assert_sane(&output, &args);
    assert_eq!(
        output.status.code(),
        expected.status.code(),
        "{}",
        text(&output.stderr)
    );
    let mut written = Vec::new();
    reader.read_to_end(&mut written).unwrap();
    assert_eq!(text(&written), text(&expected.stdout));
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
}

/// A folder or a socket at the output path: one error saying what it is, and it stays.
#[test]
fn an_output_path_that_is_a_folder_or_a_socket_is_refused() {
    use std::os::unix::fs::FileTypeExt;
    let dir = two_brokers();
    std::fs::create_dir(dir.path().join("out.d")).unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(dir.path().join("out.sock")).unwrap();
    for (target, expected) in [
        ("out.d", "out.d: a folder"),
        ("out.sock", "out.sock: a socket"),
    ] {
        let args = ["check", "--output-file", target, "."];
        assert_error(&guarded(&args, dir.path(), Stdio::null()), &args, expected);
    }
    assert!(dir.path().join("out.d").is_dir());
    let socket = std::fs::symlink_metadata(dir.path().join("out.sock")).unwrap();
    assert!(socket.file_type().is_socket(), "the socket was replaced");
}

/// A symbolic link to a regular file: the file it leads to is replaced (with the output, whole),
/// the link stays a link; a link to nothing is refused.
#[test]
fn an_output_link_replaces_the_file_it_leads_to() {
    let dir = two_brokers();
    std::fs::create_dir(dir.path().join("reports")).unwrap();
    std::fs::write(dir.path().join("reports/last.json"), "old\n").unwrap();
    std::os::unix::fs::symlink("reports/last.json", dir.path().join("out.json")).unwrap();
    let expected = kafkalint(&["check", "--format", "json", "."], dir.path());
    let args = [
        "check",
        "--format",
        "json",
        "--output-file",
        "out.json",
        ".",
    ];
    let output = kafkalint(&args, dir.path());
    assert_sane(&output, &args);
    assert_eq!(
        output.status.code(),
        expected.status.code(),
        "{}",
        text(&output.stderr)
    );
    let link = std::fs::symlink_metadata(dir.path().join("out.json")).unwrap();
    assert!(link.file_type().is_symlink(), "the link was replaced");
    let written = std::fs::read(dir.path().join("reports/last.json")).unwrap();
    assert_eq!(text(&written), text(&expected.stdout));
    std::os::unix::fs::symlink("nowhere/x.json", dir.path().join("dangling.json")).unwrap();
    let args = ["check", "--output-file", "dangling.json", "."];
    assert_error(
        &kafkalint(&args, dir.path()),
        &args,
        "dangling.json: a symbolic link to nothing",
    );
    assert!(!dir.path().join("nowhere").exists());
}

/// `--output-file /dev/stdout` (what a CI step names to see the report in its log) writes to
/// kafkalint's own stdout, which stays what it was: a pipe here, written into, not replaced.
#[test]
fn output_file_dev_stdout_writes_to_stdout() {
    let dir = two_brokers();
    let expected = kafkalint(&["check", "--format", "concise", "."], dir.path());
    let args = [
        "check",
        "--format",
        "concise",
        "--output-file",
        "/dev/stdout",
        ".",
    ];
    let output = guarded(&args, dir.path(), Stdio::null());
    assert_sane(&output, &args);
    assert_eq!(
        output.status.code(),
        expected.status.code(),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(text(&output.stdout), text(&expected.stdout));
}

/// A symbolic link to nothing in a walked folder (a link to a file not checked out, in a folder
/// kafkalint has no reason to read) is passed over with a note naming it, as an unreadable file
/// that is no Kafka file is; the rest is checked. Named on the command line, it stays an error.
#[test]
fn a_dangling_link_in_a_walked_tree_is_passed_with_a_note() {
    let dir = two_brokers();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    std::os::unix::fs::symlink("../../README.md", dir.path().join("docs/README.link")).unwrap();
    std::os::unix::fs::symlink("gone.properties", dir.path().join("server-9.properties")).unwrap();
    let clean = tempfile::tempdir().unwrap();
    cluster_with(
        clean.path(),
        "server-1.properties",
        BROKER.replace("=0", "=1").as_bytes(),
    );
    for format in FORMATS {
        let args = ["check", "--format", format, "."];
        let output = kafkalint(&args, dir.path());
        let expected = kafkalint(&args, clean.path());
        assert_sane(&output, &args);
        let stderr = text(&output.stderr);
        assert_eq!(
            output.status.code(),
            expected.status.code(),
            "{args:?}: {stderr}"
        );
        assert_eq!(text(&output.stdout), text(&expected.stdout), "{args:?}");
        for link in ["docs/README.link", "server-9.properties"] {
            let noted = stderr
                .lines()
                .filter(|line| line.starts_with("kafkalint: ") && line.contains(link))
                .count();
            assert_eq!(noted, 1, "{args:?}: {stderr}");
        }
        assert!(!stderr.contains("kafkalint: error"), "{args:?}: {stderr}");
    }
    let args = ["check", "docs/README.link"];
    assert_error(
        &kafkalint(&args, dir.path()),
        &args,
        "docs/README.link: no such file or directory",
    );
}

// ---------------------------------------------------------------------------------------------
// Inventories, snapshots and Terraform folders whose work grew faster than their size (a
// diamond of groups walked over every path, hosts and topics searched for one another, every
// `.tf` file parsed again for each of its siblings): linear now, each run ends in seconds in a
// debug build where it took from minutes to hours before, and hosts past the cap are unknown.
// ---------------------------------------------------------------------------------------------

/// A playbook applying role `kafka` (whose template indexes its hosts by group `kafka`) to the
/// hosts of the inventory `hosts.ini` beside it.
fn ansible_role_project(dir: &Path, inventory: &str) {
    let templates = dir.join("roles/kafka/templates");
    std::fs::create_dir_all(&templates).unwrap();
    std::fs::write(
        templates.join("server.properties.j2"),
        "broker.id={{ groups['kafka'].index(inventory_hostname) + 1 }}\n\
         zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181/kafka\n\
         listeners=PLAINTEXT://{{ inventory_hostname }}:9092\n\
         log.dirs=/var/lib/kafka/data\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("site.yml"),
        "- hosts: kafka\n  roles:\n    - kafka\n",
    )
    .unwrap();
    std::fs::write(dir.join("hosts.ini"), inventory).unwrap();
}

/// Groups in a diamond `levels` deep under `kafka`: each of a level's `width` groups has every
/// group of the next level as a child (width^levels paths up from the bottom), and `hosts`
/// hosts at the bottom.
fn diamond_inventory(levels: usize, width: usize, hosts: usize) -> String {
    let level = |at: usize| (0..width).map(move |side| format!("d{at}x{side}"));
    let mut out = String::from("[kafka:children]\n");
    level(0).for_each(|group| out.push_str(&format!("{group}\n")));
    for at in 0..levels - 1 {
        for group in level(at) {
            out.push_str(&format!("[{group}:children]\n"));
            level(at + 1).for_each(|child| out.push_str(&format!("{child}\n")));
        }
    }
    for group in level(levels - 1) {
        out.push_str(&format!("[{group}]\n"));
        (0..hosts).for_each(|host| out.push_str(&format!("kafka-{host}\n")));
    }
    out
}

/// Group `kafka` of `lines` host lines, each a range of 1,001 hosts.
fn ranged_inventory(lines: usize) -> String {
    let mut out = String::from("[kafka]\n");
    for line in 0..lines {
        out.push_str(&format!("rack{line}-kafka-[0:1000]\n"));
    }
    out
}

/// The node names of every cluster of a `--format json` run.
fn nodes_of(output: &Output) -> Vec<String> {
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("--format json is JSON");
    report["clusters"]
        .as_array()
        .expect("clusters")
        .iter()
        .flat_map(|cluster| cluster["nodes"].as_array().expect("nodes").iter())
        .map(|node| node["part"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_diamond_of_inventory_groups_is_read_once_a_group() {
    // 24 levels of 2 (16 million paths, once hours) and 4 levels of 12 (20,736 paths).
    for (levels, width) in [(24, 2), (4, 12)] {
        let dir = tempfile::tempdir().unwrap();
        ansible_role_project(dir.path(), &diamond_inventory(levels, width, 3));
        let args = ["check", "--format", "json", "."];
        let output = kafkalint_guarded(&args, dir.path());
        assert_sane(&output, &args);
        assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
        let nodes = nodes_of(&output);
        assert_eq!(nodes.len(), 3, "{nodes:?}");
        assert!(nodes[2].contains("host `kafka-2`"), "{nodes:?}");
    }
}

#[test]
fn thousands_of_role_inventory_hosts_are_read_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    // Five ranges of 1,001: 5,005 hosts (minutes before, each host searched for in each group).
    ansible_role_project(dir.path(), &ranged_inventory(5));
    let args = ["check", "--format", "json", "."];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    let nodes = nodes_of(&output);
    assert_eq!(nodes.len(), 5 * 1001, "{}", text(&output.stderr));
    assert!(
        nodes[5004].contains("host `rack4-kafka-1000`"),
        "{}",
        nodes[5004]
    );
    // The template's index of each host is its place in the group: the last one's is 5,005.
    let findings = findings_of(&output, "node-id-config");
    assert!(
        findings
            .iter()
            .any(|finding| finding["message"].as_str().unwrap().contains("5005")),
        "{findings:?}"
    );
}

#[test]
fn thousands_of_cp_ansible_hosts_are_read_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut inventory = String::from(
        "all:\n  vars:\n    confluent_package_version: 7.6.1\nkafka_broker:\n  hosts:\n",
    );
    let brokers = 5_000;
    for n in 0..brokers {
        inventory.push_str(&format!(
            "    kafka-{n}.example.com:\n      broker_id: {n}\n"
        ));
    }
    std::fs::write(dir.path().join("hosts.yml"), inventory).unwrap();
    let args = ["check", "--format", "json", "."];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    assert_eq!(nodes_of(&output).len(), brokers, "{}", text(&output.stderr));
}

#[test]
fn role_inventories_past_the_host_cap_are_noted_and_not_guessed() {
    // 11 ranges of 1,001 hosts.
    let dir = tempfile::tempdir().unwrap();
    ansible_role_project(dir.path(), &ranged_inventory(11));
    let args = ["check", "--format", "json", "."];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    let stderr = text(&output.stderr);
    assert!(
        stderr.lines().any(|line| line.starts_with("kafkalint: ")
            && line.contains("hosts.ini names more than 10000 hosts")),
        "{stderr}"
    );
    let nodes = nodes_of(&output);
    assert_eq!(
        nodes,
        ["role `kafka` (its hosts, an unknown number)"],
        "{stderr}"
    );
}

#[test]
fn cp_ansible_inventories_past_the_host_cap_are_noted_and_not_guessed() {
    // 10,001 brokers: passed over in a walk, refused named.
    let dir = tempfile::tempdir().unwrap();
    let mut inventory = String::from("kafka_broker:\n  hosts:\n");
    for n in 0..10_001 {
        inventory.push_str(&format!("    kafka-{n}:\n"));
    }
    std::fs::write(dir.path().join("hosts.yml"), inventory).unwrap();
    let args = ["check", "--format", "json", "."];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("hosts.yml: cp-ansible inventory listing more than 10000 hosts"),
        "{stderr}"
    );
    assert!(nodes_of(&output).is_empty());
    let args = ["check", "hosts.yml"];
    assert_error(&kafkalint_guarded(&args, dir.path()), &args, "hosts.yml");
}

#[test]
fn a_snapshot_of_many_topics_is_read_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let topics = 120_000;
    let mut snapshot =
        String::from("bootstrap=127.0.0.1:9092\ncontroller=0\nbroker.0=127.0.0.1:9092\n");
    for n in 0..topics {
        snapshot.push_str(&format!("topic.orders-{n}=internal=false partitions=1\n"));
    }
    // Partition lines after every topic line: each one names a topic far back.
    for n in 0..topics {
        snapshot.push_str(&format!(
            "partition.orders-{n}-0=leader=0 replicas=0 isr=0\n"
        ));
    }
    std::fs::write(dir.path().join("snapshot.properties"), snapshot).unwrap();
    let args = ["live", "--snapshot", "snapshot.properties"];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains(&format!("{topics} topics")), "{stdout}");
}

#[test]
fn a_folder_of_many_terraform_releases_is_parsed_once() {
    let dir = tempfile::tempdir().unwrap();
    let releases = 800;
    for n in 0..releases {
        std::fs::write(
            dir.path().join(format!("kafka-{n:03}.tf")),
            format!(
                "variable \"brokers_{n}\" {{\n  default = {}\n}}\n\n\
                 resource \"helm_release\" \"kafka_{n}\" {{\n  name       = \"kafka-{n}\"\n  \
                 repository = \"https://charts.bitnami.com/bitnami\"\n  chart      = \"kafka\"\n  \
                 version    = \"26.8.5\"\n\n  set {{\n    name  = \"controller.replicaCount\"\n    \
                 value = var.brokers_{}\n  }}\n}}\n",
                n % 5 + 1,
                // Each release reads the variable of the file beside it.
                (n + 1) % releases
            ),
        )
        .unwrap();
    }
    let args = ["check", "--format", "json", "."];
    let output = kafkalint_guarded(&args, dir.path());
    assert_sane(&output, &args);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let clusters = report["clusters"].as_array().expect("clusters");
    assert_eq!(clusters.len(), releases, "{}", text(&output.stderr));
    // Each release reads the variable of the file beside it: release n runs
    // (n + 1) % 5 + 1 controllers.
    let nodes = |at: usize| clusters[at]["nodes"].as_array().expect("nodes").len();
    assert_eq!((nodes(0), nodes(3), nodes(4)), (2, 5, 1));
}

// ---------------------------------------------------------------------------------------------
// Deep nesting in what kafkalint interpolates or evaluates: Compose's `${A:-${B:-...}}` in a
// compose value, `.env` and an env_file, a start-up script's arithmetic, and the same files in
// the language server. Each ends quickly, never overflows the stack, says in one line where it
// stopped following, and checks the rest.
// ---------------------------------------------------------------------------------------------

/// Deep enough to have overflowed the stack, and to have taken seconds when each level
/// rescanned the rest.
const DEEP_LEVELS: [usize; 3] = [65, 5_000, 40_000];

/// A run that ends within `seconds` (a debug build on a loaded machine: a linear reading
/// takes a fraction of it, the quadratic one took longer at these sizes).
fn kafkalint_within(args: &[&str], dir: &Path, seconds: u64) -> Output {
    let started = std::time::Instant::now();
    let output = kafkalint_guarded(args, dir);
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(seconds),
        "{args:?} took {took:?}"
    );
    output
}

/// `levels` nested Compose defaults around `innermost`, each a name no file sets with `:-`
/// or `-` (both use the default), chosen by `seed`.
fn nested_compose_defaults(levels: usize, seed: usize, innermost: &str) -> String {
    let mut text = String::with_capacity(levels * 8);
    for level in 0..levels {
        let operator = if (level * 7 + seed).is_multiple_of(3) {
            "-"
        } else {
            ":-"
        };
        text.push_str(&format!("${{UNSET_{}{operator}", (level + seed) % 13));
    }
    text.push_str(innermost);
    text.push_str(&"}".repeat(levels));
    text
}

/// The compose file of the deep cases: a value at line 6, and an invalid one at line 7 that
/// must still be found.
fn compose_with_value(value: &str) -> String {
    format!(
        "{KAFKA_SERVICE}      KAFKA_NUM_PARTITIONS: \"{value}\"\n      KAFKA_MIN_INSYNC_REPLICAS: \"abc\"\n"
    )
}

/// Exit 1 with the invalid value found, and exactly one stderr line saying where nesting
/// stopped being followed (it starts with `expected_place`).
fn assert_deep_noted_and_rest_checked(output: &Output, args: &[&str], expected_place: &str) {
    assert_sane(output, args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    let noted: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("nested deeper than"))
        .collect();
    assert_eq!(noted.len(), 1, "{stderr}");
    assert!(noted[0].contains(expected_place), "{}", noted[0]);
    assert!(noted[0].len() < 400, "{}", noted[0]);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("min.insync.replicas `abc` is not a number"),
        "the rest is checked: {stdout}"
    );
}

#[test]
fn deep_compose_defaults_are_noted_with_their_line_and_the_rest_checked() {
    for (seed, levels) in DEEP_LEVELS.into_iter().enumerate() {
        // In the compose file's value.
        let dir = tempfile::tempdir().unwrap();
        let value = nested_compose_defaults(levels, seed, "3");
        std::fs::write(
            dir.path().join("docker-compose.yml"),
            compose_with_value(&value),
        )
        .unwrap();
        let args = ["check", "--format", "concise", "docker-compose.yml"];
        let output = kafkalint_within(&args, dir.path(), 30);
        assert_deep_noted_and_rest_checked(&output, &args, "docker-compose.yml: line 6: ");
        // In `.env`, after a variable that is read, and in an env_file.
        std::fs::write(
            dir.path().join(".env"),
            format!("SET=1\nDEEP={value}\nALSO=2\n"),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("docker-compose.yml"),
            compose_with_value("${DEEP}").replace(
                "    environment:\n",
                "    env_file: kafka.env\n    environment:\n",
            ),
        )
        .unwrap();
        std::fs::write(
            dir.path().join("kafka.env"),
            format!("# comment\nKAFKA_LOG_RETENTION_HOURS=\"{value}\"\n"),
        )
        .unwrap();
        let output = kafkalint_within(&args, dir.path(), 30);
        assert_sane(&output, &args);
        let stderr = text(&output.stderr);
        for place in [
            "docker-compose.yml: its project's .env, line 2: ",
            "docker-compose.yml: service `kafka`: its env_file `kafka.env`, line 2: ",
        ] {
            assert_eq!(
                stderr
                    .lines()
                    .filter(|line| line.contains(place) && line.contains("nested deeper than"))
                    .count(),
                1,
                "{place}: {stderr}"
            );
        }
        assert!(text(&output.stdout).contains("min.insync.replicas `abc` is not a number"));
    }
    // Within the bound: followed to its innermost default.
    let dir = tempfile::tempdir().unwrap();
    let value = nested_compose_defaults(64, 0, "abc");
    std::fs::write(
        dir.path().join("docker-compose.yml"),
        compose_with_value(&value),
    )
    .unwrap();
    let args = ["check", "--format", "concise", "docker-compose.yml"];
    let output = kafkalint_within(&args, dir.path(), 30);
    assert!(
        text(&output.stdout).contains("num.partitions `abc` is not a number"),
        "{}",
        text(&output.stdout)
    );
    assert!(!text(&output.stderr).contains("nested deeper than"));
}

/// A StatefulSet of a cp-kafka image whose start-up script sets the broker id with `script`.
fn statefulset_with_script(script: &str) -> String {
    format!(
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: kafka\nspec:\n  serviceName: kafka-headless\n  replicas: 3\n  selector:\n    matchLabels:\n      app: kafka\n  template:\n    metadata:\n      labels:\n        app: kafka\n    spec:\n      containers:\n        - name: kafka\n          image: confluentinc/cp-kafka:7.6.1\n          command:\n            - sh\n            - -c\n            - |\n              {script}\n              exec /etc/confluent/docker/run\n          env:\n            - name: KAFKA_ZOOKEEPER_CONNECT\n              value: zk:2181\n            - name: KAFKA_MIN_INSYNC_REPLICAS\n              value: abc\n"
    )
}

#[test]
fn deep_shell_arithmetic_ends_noted_and_the_rest_checked() {
    let cases = [
        // 300,000 signs, in runs of `-` and `+` with spaces: counted, the value known.
        (
            format!(
                "export KAFKA_BROKER_ID=$(({}5))",
                (0..100_000)
                    .map(|at| ["-", "+ ", "--"][at % 3])
                    .collect::<String>()
            ),
            false,
        ),
        // 100,000 nested `$(( ))` and defaults within them: beyond the bound, noted.
        (
            format!(
                "export KAFKA_BROKER_ID={}1{}",
                "$((1+".repeat(100_000),
                "))".repeat(100_000)
            ),
            true,
        ),
        // 100,000 nested parentheses within one.
        (
            format!(
                "export KAFKA_BROKER_ID=$(({}2{}))",
                "(".repeat(100_000),
                ")".repeat(100_000)
            ),
            true,
        ),
    ];
    for (script, noted) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("kafka.yaml"),
            statefulset_with_script(&script),
        )
        .unwrap();
        let args = ["check", "--format", "concise", "kafka.yaml"];
        let output = kafkalint_within(&args, dir.path(), 30);
        assert_sane(&output, &args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        let notes: Vec<&str> = stderr
            .lines()
            .filter(|line| line.contains("deeper than"))
            .collect();
        if noted {
            assert_eq!(notes.len(), 1, "{stderr}");
            assert!(
                notes[0].contains("kafka.yaml: StatefulSet `kafka`: its start-up script (line 23)"),
                "{}",
                notes[0]
            );
        } else {
            assert!(notes.is_empty(), "{stderr}");
        }
        assert!(
            text(&output.stdout).contains("min.insync.replicas `abc` is not a number"),
            "{}",
            text(&output.stdout)
        );
    }
}

/// The same deep files opened in the language server (the binary over stdio): each gets its
/// diagnostics, and the server exits 0 after `shutdown` and `exit`.
#[test]
fn deep_nesting_opened_in_the_language_server_gets_diagnostics() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let documents = [
        (
            "docker-compose.yml",
            compose_with_value(&nested_compose_defaults(40_000, 1, "3")),
        ),
        (
            "kafka.yaml",
            statefulset_with_script(&format!(
                "export KAFKA_BROKER_ID={}1{}",
                "$((".repeat(100_000),
                "))".repeat(100_000)
            )),
        ),
        (
            "k8s/kafka.yaml",
            statefulset_with_script(&format!(
                "export KAFKA_BROKER_ID=$(({}1))",
                "-".repeat(300_000)
            )),
        ),
    ];
    let frame = |body: serde_json::Value| {
        let body = body.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    };
    let mut input = frame(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    input.push_str(&frame(
        serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ));
    for (name, text) in &documents {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        input.push_str(&frame(serde_json::json!({
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": format!("file://{}", path.display()), "languageId": "yaml", "version": 1, "text": text}}
        })));
    }
    input.push_str(&frame(
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
    ));
    input.push_str(&frame(
        serde_json::json!({"jsonrpc": "2.0", "method": "exit"}),
    ));
    let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writing = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let started = std::time::Instant::now();
    let output = child.wait_with_output().unwrap();
    writing.join().unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let stdout = text(&output.stdout);
    for (name, _) in &documents {
        let uri = format!("file://{}", dir.path().join(name).display());
        let published = stdout
            .split("Content-Length")
            .filter(|message| message.contains("textDocument/publishDiagnostics"))
            .any(|message| {
                message.contains(&format!("\"uri\":\"{uri}\""))
                    && message.contains("min.insync.replicas")
            });
        assert!(published, "{name}: no diagnostics in {stdout}");
    }
}
